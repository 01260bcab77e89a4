/**
 * Passwordless email providers: `Email` for any way of sending mail (an HTTP
 * mail API, a queue), `Nodemailer` for SMTP. Both mail a one-time sign-in link;
 * the runtime stores only a hash of its token.
 */
import type { EmailConfig, SendVerificationRequestParams } from "./types.js";
import { verificationMail } from "./email-message.js";
import { importOptional } from "../core/optional-import.js";

/** What `Email(...)` accepts: `sendVerificationRequest` and any other field of the provider. */
export type EmailUserConfig = Partial<Omit<EmailConfig, "type" | "options">> &
  Pick<EmailConfig, "sendVerificationRequest">;

/** What `Nodemailer(...)` accepts: usually just `server` and `from` (or env `AUTH_EMAIL_SERVER`, `AUTH_EMAIL_FROM`). */
export type NodemailerUserConfig = Partial<Omit<EmailConfig, "type" | "options">>;

/**
 * A sign-in link sent by your own code, such as a call to an HTTP mail API.
 * Throw from `sendVerificationRequest` when the mail could not be sent: the user
 * sees `EmailSignin` and the link's token is discarded.
 *
 * @example
 * ```ts
 * import { Email, verificationMail } from "@gatehouse/runtime/providers";
 *
 * Email({
 *   from: "Sign in <no-reply@example.com>",
 *   async sendVerificationRequest({ identifier, url, provider, theme }) {
 *     const { subject, text, html } = verificationMail({ url, host: new URL(url).host, theme });
 *     const response = await fetch("https://api.mail.example/send", {
 *       method: "POST",
 *       headers: { authorization: `Bearer ${process.env.MAIL_API_KEY}`, "content-type": "application/json" },
 *       body: JSON.stringify({ from: provider.from, to: identifier, subject, text, html }),
 *     });
 *     if (!response.ok) throw new Error(`Mail API answered ${response.status}`);
 *   },
 * })
 * ```
 */
export function Email(config: EmailUserConfig): EmailConfig {
  return {
    id: "email",
    name: "Email",
    type: "email",
    maxAge: 24 * 60 * 60,
    // No default: a generic email provider that cannot send is a configuration error.
    sendVerificationRequest: config?.sendVerificationRequest,
    options: config as Record<string, unknown>,
  };
}

/**
 * A sign-in link sent over SMTP with `nodemailer` (install it: `npm i nodemailer`).
 * `server` is an SMTP URL (`smtp://user:pass@smtp.example.com:587`) or nodemailer
 * transport options; `from` is the sender. Without them in the config, they come
 * from `AUTH_EMAIL_SERVER` and `AUTH_EMAIL_FROM` (`AUTH_<ID>_*` for another id).
 *
 * Unlike Auth.js (`nodemailer`), the default id is `email`: the form posts to
 * `/auth/signin/email`. Pass `id: "nodemailer"` to keep Auth.js's URLs.
 *
 * @example
 * ```ts
 * Nodemailer({ server: process.env.AUTH_EMAIL_SERVER, from: "Sign in <no-reply@example.com>" })
 * ```
 */
export function Nodemailer(config: NodemailerUserConfig = {}): EmailConfig {
  return {
    id: "email",
    name: "Email",
    type: "email",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config as Record<string, unknown>,
  };
}

/**
 * Bounds on each wait of an SMTP send, in milliseconds. nodemailer's own are 2
 * minutes to connect, 30 seconds for the greeting and 10 minutes of silence on
 * the socket: a mail server that accepts and stalls would hold the sign-in
 * request (and the user) that long. `server` overrides each, as transport
 * options (`{ host, port, socketTimeout: 30_000 }`) or in the URL
 * (`smtp://smtp.example.com:587?socketTimeout=30000`).
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 } as const;

/** `server` with `SMTP_TIMEOUTS` filled in where it sets none; a transport instance or a non-SMTP URL as given. */
export function withSmtpTimeouts(server: unknown): unknown {
  if (typeof server === "string") {
    if (!/^smtps?:/i.test(server)) return server;
    // Query parameters are nodemailer's way to set options in the URL; appended, so the rest of it stays byte for byte.
    const missing = Object.entries(SMTP_TIMEOUTS).filter(([name]) => !new RegExp(`[?&]${name}=`).test(server));
    if (missing.length === 0) return server;
    return `${server}${server.includes("?") ? "&" : "?"}${missing.map(([name, ms]) => `${name}=${ms}`).join("&")}`;
  }
  if (server === null || typeof server !== "object" || typeof (server as { send?: unknown }).send === "function") return server;
  const options = server as Record<string, unknown>;
  // With `url`, nodemailer reads only the URL (other keys are dropped), so the defaults go into it.
  if (typeof options.url === "string") return { ...options, url: withSmtpTimeouts(options.url) };
  return { ...SMTP_TIMEOUTS, ...options };
}

/** The nodemailer transport: an SMTP URL, or its options object. */
type NodemailerModule = {
  createTransport(server: unknown): {
    sendMail(mail: Record<string, unknown>): Promise<{ rejected?: unknown[]; pending?: unknown[] }>;
    close?(): void;
  };
};

async function loadNodemailer(): Promise<NodemailerModule> {
  try {
    // Not a literal: bundlers would pull nodemailer into (or warn in) apps that send mail another way.
    const loaded = (await importOptional("nodemailer")) as NodemailerModule & { default?: NodemailerModule };
    return typeof loaded.createTransport === "function" ? loaded : loaded.default!;
  } catch (error) {
    throw new Error("The Nodemailer provider needs the nodemailer package: run `npm install nodemailer`.", { cause: error });
  }
}

/**
 * Sends the themed mail over SMTP; a refused recipient is a failure, not a silent
 * success. Exported for the runtime, which checks `server` and `from` when this is the sender.
 */
export async function sendWithNodemailer(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider, theme } = params;
  const { subject, text, html } = verificationMail({ url, host: new URL(url).host, theme });
  await sendSmtpMail(provider.server, { to: identifier, from: provider.from, subject, text, html });
}

/** One mail over SMTP through nodemailer (every mail of the runtime goes out here); throws unless it was accepted. */
export async function sendSmtpMail(
  server: unknown,
  mail: { to: string; from: string | undefined; subject: string; text: string; html: string },
): Promise<void> {
  const nodemailer = await loadNodemailer();
  const transport = nodemailer.createTransport(withSmtpTimeouts(server));
  try {
    const result = await transport.sendMail(mail);
    const failed = [...(result.rejected ?? []), ...(result.pending ?? [])].filter(Boolean);
    if (failed.length > 0) throw new Error(`The mail server did not accept the mail for ${failed.map(String).join(", ")}.`);
  } finally {
    transport.close?.();
  }
}
