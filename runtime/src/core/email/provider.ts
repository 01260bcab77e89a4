/**
 * An email provider, validated once with the config: its defaults filled in, and
 * what is missing for sending (`server`, `from`) kept as a `problem` that fails
 * only this provider's sign-ins, so an unset `AUTH_EMAIL_SERVER` does not take
 * sessions and the other providers down with it.
 */
import { sendWithNodemailer } from "../../providers/email.js";
import type { EmailConfig } from "../../providers/types.js";
import { normalizeEmail, refuseInvisible } from "../identity/email-address.js";
import { InvalidProvider } from "../errors/errors.js";
import type { WithRuntime } from "../config/providers.js";

const DEFAULT_MAX_AGE = 24 * 60 * 60;

export interface EmailRuntime {
  maxAge: number;
  normalizeIdentifier: (identifier: string) => string;
  confirmLink: boolean;
  /** Why this provider cannot send yet (e.g. no SMTP server configured); thrown when it is used. */
  problem?: InvalidProvider;
}

export type ResolvedEmailProvider = EmailConfig & WithRuntime<"email">;

function envName(id: string, field: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}_${field}`;
}

export function resolveEmailRuntime(provider: EmailConfig): EmailRuntime {
  const { id } = provider;
  if (typeof provider.sendVerificationRequest !== "function") {
    throw new InvalidProvider(`The email provider "${id}" needs a \`sendVerificationRequest\` function that sends the sign-in link.`);
  }
  const maxAge = provider.maxAge ?? DEFAULT_MAX_AGE;
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0) {
    throw new InvalidProvider(`The email provider "${id}" has maxAge ${JSON.stringify(maxAge)}; it must be a positive number of seconds.`);
  }
  if (provider.normalizeIdentifier !== undefined && typeof provider.normalizeIdentifier !== "function") {
    throw new InvalidProvider(`The email provider "${id}" has a \`normalizeIdentifier\` that is not a function.`);
  }
  if (provider.secret !== undefined && (typeof provider.secret !== "string" || provider.secret.length === 0)) {
    throw new InvalidProvider(`The email provider "${id}" has a \`secret\` that is not a non-empty string.`);
  }
  return {
    maxAge,
    normalizeIdentifier: provider.normalizeIdentifier ? refusingInvisible(provider.normalizeIdentifier) : normalizeEmail,
    confirmLink: provider.confirmLink !== false,
    problem: sendingProblem(provider),
  };
}

/**
 * The app's own `normalizeIdentifier` decides what an address is, except that
 * no control, format or other invisible character gets in or out of it: the
 * mail library would strip them (one mailbox, many rate-limit keys) and NUL
 * makes PostgreSQL fail. Refused as the default refuses them.
 */
function refusingInvisible(normalize: (identifier: string) => string): (identifier: string) => string {
  return (identifier) => {
    refuseInvisible(identifier);
    const normalized = normalize(identifier);
    if (typeof normalized === "string") refuseInvisible(normalized, "normalizeIdentifier returned an address with a control, format or other invisible character.");
    return normalized;
  };
}

/** Nodemailer cannot send without a server and a sender; a custom sender reads what it needs itself. */
function sendingProblem(provider: EmailConfig): InvalidProvider | undefined {
  const usesNodemailer = provider.sendVerificationRequest === sendWithNodemailer;
  const missing: string[] = [];
  if (usesNodemailer && (provider.server === undefined || provider.server === null || provider.server === "")) {
    missing.push(`an SMTP server (\`server\`, or ${envName(provider.id, "SERVER")} such as smtp://user:password@smtp.example.com:587)`);
  }
  if (usesNodemailer && (typeof provider.from !== "string" || provider.from.trim() === "")) {
    missing.push(`a sender address (\`from\`, or ${envName(provider.id, "FROM")} such as "Sign in <no-reply@example.com>")`);
  }
  if (missing.length === 0) return undefined;
  return new InvalidProvider(`The email provider "${provider.id}" cannot send sign-in links: it needs ${missing.join(" and ")}.`);
}
