/**
 * A `Password` provider, validated once with the config: its limits, its link
 * lifetimes, how its mail goes out, and its mail rate limit. What sending lacks
 * (no SMTP server in production) is kept as a `problem`, thrown when a mail is
 * due, so sessions and the other providers keep working meanwhile.
 */
import { developmentMail } from "../../providers/development-mail.js";
import { sendSmtpMail } from "../../providers/email.js";
import type { PasswordConfig, PasswordMailMessage } from "../../providers/password.js";
import type { AuthConfig } from "../../types.js";
import { InvalidProvider } from "../errors/errors.js";
import { MAX_PASSWORD_LENGTH } from "../../password.js";
import type { WithRuntime } from "../config/providers.js";
import { resolveRateLimit, type ResolvedRateLimit } from "../rate-limit/resolve.js";

/** NIST SP 800-63B's floor for a password a user chooses. */
const LEAST_MIN_LENGTH = 8;
const DEFAULT_CONFIRM_MAX_AGE = 24 * 60 * 60;
const MOST_RESET_MAX_AGE = 60 * 60;
const DEFAULT_MAIL_LIMIT = { window: 60 * 60, identifier: 5, ip: 30 } as const;

export interface PasswordRuntime {
  minLength: number;
  maxLength: number;
  confirmMaxAge: number;
  resetMaxAge: number;
  /** Delivers a mail: the provider's `sendMail`, SMTP, or the development transport. */
  send: (message: PasswordMailMessage) => Promise<void>;
  /** Why no mail can be sent (no `server` nor `sendMail`, and no `developmentMail`). */
  problem?: InvalidProvider;
  /** Counts of mails per address and per client: always on. */
  mailLimit: ResolvedRateLimit;
}

export type ResolvedPasswordProvider = PasswordConfig & WithRuntime<"password">;

export function resolvePasswordRuntime(provider: PasswordConfig, config: AuthConfig): PasswordRuntime {
  const { id } = provider;
  const minLength = whole(provider.minPasswordLength, LEAST_MIN_LENGTH, `minPasswordLength of "${id}"`);
  if (minLength < LEAST_MIN_LENGTH || minLength > MAX_PASSWORD_LENGTH) {
    throw new InvalidProvider(`minPasswordLength of "${id}" is ${minLength}; it must be between ${LEAST_MIN_LENGTH} and ${MAX_PASSWORD_LENGTH}.`);
  }
  const resetMaxAge = whole(provider.resetMaxAge, MOST_RESET_MAX_AGE, `resetMaxAge of "${id}"`);
  if (resetMaxAge > MOST_RESET_MAX_AGE) {
    // A reset link is a password in a mailbox: it must not outlive the hour the issue of one is worth.
    throw new InvalidProvider(`resetMaxAge of "${id}" is ${resetMaxAge} seconds; a reset link may work for at most ${MOST_RESET_MAX_AGE} (1 hour).`);
  }
  const limits = { ...DEFAULT_MAIL_LIMIT, ...provider.mailRateLimit };
  const { store, clientAddress, clientAddressHeader } = config.rateLimit ?? {};
  const mailLimit = resolveRateLimit({ ...limits, store, clientAddress, clientAddressHeader })!;
  const { send, problem } = sender(provider);
  return {
    minLength,
    maxLength: MAX_PASSWORD_LENGTH,
    confirmMaxAge: whole(provider.confirmMaxAge, DEFAULT_CONFIRM_MAX_AGE, `confirmMaxAge of "${id}"`),
    resetMaxAge,
    send,
    problem,
    mailLimit,
  };
}

function whole(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidProvider(`${name} is ${JSON.stringify(value)}; it must be a positive whole number.`);
  }
  return value;
}

function sender(provider: PasswordConfig): Pick<PasswordRuntime, "send" | "problem"> {
  const { id, sendMail, server, from } = provider;
  if (sendMail !== undefined && typeof sendMail !== "function") {
    throw new InvalidProvider(`sendMail of "${id}" must be a function that delivers the mail.`);
  }
  if (sendMail) return { send: async (message) => sendMail(message) };
  const hasServer = server !== undefined && server !== null && server !== "";
  if (hasServer) {
    if (typeof from !== "string" || from.trim() === "") {
      return {
        send: unsendable,
        problem: new InvalidProvider(`The Password provider "${id}" has an SMTP server but no sender address: set \`from\`, or AUTH_EMAIL_FROM such as "Example <no-reply@example.com>".`),
      };
    }
    return { send: (message) => sendSmtpMail(server, { to: message.to, from, subject: message.subject, text: message.text, html: message.html }) };
  }
  if (provider.developmentMail === true) return { send: developmentMail };
  return {
    send: unsendable,
    problem: new InvalidProvider(
      `The Password provider "${id}" cannot send mail: set AUTH_EMAIL_SERVER (such as smtp://user:password@smtp.example.com:587) and AUTH_EMAIL_FROM, or give it \`sendMail\`. ` +
        "In development, `developmentMail: true` prints the links on the console instead.",
    ),
  };
}

async function unsendable(): Promise<never> {
  throw new Error("This Password provider cannot send mail (see its configuration problem).");
}
