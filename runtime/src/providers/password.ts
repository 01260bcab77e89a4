/**
 * Email + password accounts run by the runtime: sign-up that works only once the
 * address is confirmed through an emailed link, sign-in, and "forgot password"
 * links. The hashing is `@gatehouse/runtime/password`'s; the hashes live in the
 * adapter (`user_passwords`), through its password methods.
 */
import type { RateLimitOptions } from "../core/rate-limit/types.js";
import type { Awaitable } from "../types.js";
import type { CredentialsConfig } from "./types.js";

/** Why a mail is sent; each has its own text (see `passwordMail`). */
export type PasswordMailKind =
  /** A new sign-up: the link confirms the address (the password must be typed again on the page it opens). */
  | "confirm-sign-up"
  /** A sign-up with an address that has an account already: the mail says so, with a link to set a new password. */
  | "account-exists"
  /** "Forgot password": a link to choose a new one (at most one hour). */
  | "reset-password"
  /** "Forgot password" for an address without an account: the mail says so, with a link to sign up. */
  | "no-account";

/** A mail the runtime asks `sendMail` to deliver: composed already, in the theme's colours. */
export interface PasswordMailMessage {
  kind: PasswordMailKind;
  /** The normalized address. */
  to: string;
  /** The provider's `from`. */
  from: string | undefined;
  subject: string;
  text: string;
  html: string;
  /** The link inside the mail. */
  url: string;
  /** The request that caused the mail. */
  request: Request;
}

export interface PasswordOptions {
  /**
   * Delivers a mail; throw when it could not be sent. Default: SMTP through
   * nodemailer with `server` and `from`; without a `server` outside
   * production, a development transport that prints the link on the console and keeps
   * the mail in a file (see `developmentMail`).
   */
  sendMail?: (message: PasswordMailMessage) => Awaitable<void>;
  /** SMTP for the default sender: a URL (`smtp://user:pass@host:587`) or nodemailer options. Env: `AUTH_EMAIL_SERVER`. */
  server?: unknown;
  /** The sender address. Env: `AUTH_EMAIL_FROM`. */
  from?: string;
  /** Shortest password accepted at sign-up and reset. Default 8; at least 8. */
  minPasswordLength?: number;
  /** Seconds a sign-up's confirmation link works. Default 24 hours. */
  confirmMaxAge?: number;
  /** Seconds a reset link works. Default and most: 1 hour. */
  resetMaxAge?: number;
  /**
   * How many mails (sign-up, reset) one address and one client may cause per
   * window. Always on, with its own counts. Default `{ window: 3600, identifier: 5, ip: 30 }`;
   * the store and client address are `rateLimit`'s when that is set.
   */
  mailRateLimit?: Pick<RateLimitOptions, "window" | "identifier" | "ip">;
  /**
   * `true`: with no `server` and no `sendMail`, mails are not sent but printed on
   * the server's console, and kept as files in `.gatehouse/mail/` (see
   * `developmentMail`). For development only: apps made by `auth-init` pass
   * whether they run in development. Otherwise a missing mail server is a
   * configuration error when the first mail is due.
   */
  developmentMail?: boolean;
}

/** The provider object: a credentials provider whose check, sign-up and reset the runtime runs. */
export interface PasswordConfig extends CredentialsConfig<{
  email: { label: string; type: string; autocomplete: string; required: boolean };
  password: { label: string; type: string; autocomplete: string; required: boolean };
}>, PasswordOptions {
  /** Marks the provider whose accounts the runtime keeps (`signup`, `forgot-password`, `reset-password`). */
  passwordAccounts: true;
}

/** What `Password(...)` accepts: the options, and `id`/`name` to rename it. */
export type PasswordUserConfig = PasswordOptions & { id?: string; name?: string };

/** Never called: the runtime checks passwords of this provider itself (it needs the adapter). */
function checkedByTheRuntime(): never {
  throw new Error("The Password provider's passwords are checked by the runtime, not by authorize().");
}

/**
 * Email + password sign-in with verified sign-up and password reset. Needs an
 * adapter with the password methods (every gatehouse adapter has them) and a way
 * to send mail.
 *
 * - `POST <basePath>/signup` (email, password, name): creates the account and
 *   mails a link to confirm the address; the password signs in only after that.
 *   An address that has an account already gets a mail saying so instead; the
 *   answer in the browser is the same.
 * - `POST <basePath>/callback/password` (email, password; `confirm` from the link):
 *   signs in.
 * - `POST <basePath>/forgot-password` (email) mails a link to choose a new
 *   password; `POST <basePath>/reset-password` (email, token, password) sets it,
 *   ends every session of the user and every other reset link, and signs in.
 *
 * @example
 * ```ts
 * import { Password } from "@gatehouse/runtime/providers";
 *
 * providers: [Password({ from: "Example <no-reply@example.com>" })], // SMTP from AUTH_EMAIL_SERVER
 * pages: { signIn: "/signin", signUp: "/signup", forgotPassword: "/forgot-password", resetPassword: "/reset-password" },
 * ```
 */
export function Password(config: PasswordUserConfig = {}): PasswordConfig {
  return {
    id: "password",
    name: "Password",
    type: "credentials",
    passwordAccounts: true,
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username", required: true },
      password: { label: "Password", type: "password", autocomplete: "current-password", required: true },
    },
    authorize: checkedByTheRuntime,
    options: config as Record<string, unknown>,
  };
}

/** Whether a provider is a `Password` one (after its options were merged in). */
export function isPasswordProvider(provider: unknown): provider is PasswordConfig {
  return typeof provider === "object" && provider !== null && (provider as { passwordAccounts?: unknown }).passwordAccounts === true;
}
