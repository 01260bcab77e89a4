/**
 * The logger. Users may override any method; `debug` messages are only emitted
 * with `debug: true`. Nothing logged here may contain a secret, a token or a cookie.
 */
import { AuthError } from "./errors/errors.js";

export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "experimental-webauthn"
  | "rate-limited"
  | "rate-limit-no-client-address"
  | "unproven-user-adopted"
  | "credentials-signin-refused"
  | "email-link-refused";

export interface LoggerInstance {
  warn: (code: WarningCode) => void;
  error: (error: Error) => void;
  debug: (message: string, metadata?: unknown) => void;
}

const WARNING_TEXT: Record<WarningCode, string> = {
  "debug-enabled": "Debug logging is on. Turn it off in production: it logs every step of every request.",
  "csrf-disabled": "CSRF protection is off (skipCSRFCheck). Only do this when the framework checks the origin of form posts.",
  "env-url-basepath-redundant": "AUTH_URL repeats basePath; one of them is enough.",
  "env-url-basepath-mismatch": "The path of AUTH_URL differs from basePath; basePath wins.",
  "experimental-webauthn": "WebAuthn is experimental: its API may change without notice.",
  "rate-limited":
    "Sign-in attempts were refused by the rate limit (429): too many from one client address or at one identifier. Logged once per address or identifier and window.",
  "rate-limit-no-client-address":
    "rateLimit is on, but the client's address is unknown (plain Auth without rateLimit.clientAddress): only the per-identifier limit applies.",
  "credentials-signin-refused":
    "A credentials sign-in was refused: authorize returned no user or threw CredentialsSignin (a wrong email or password, most often). With rateLimit on, repeated attempts are refused and logged as rate-limited.",
  "email-link-refused":
    "A sign-in link from an email was refused (Verification): already used, expired, incomplete, or not for the address it names. The visitor is told to ask for a new one.",
  "unproven-user-adopted":
    "Someone proved an email address held by a user who had never proven it: that user's linked accounts, passkeys, sessions and password were removed before the prover signed in as them (see SECURITY.md, pre-account takeover).",
};

function formatCause(error: Error): string {
  const cause = (error as AuthError).cause;
  const inner = cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
  if (inner instanceof Error) return `\n[auth][cause]: ${inner.stack ?? inner.message}`;
  if (inner !== undefined) return `\n[auth][details]: ${safeJson(inner)}`;
  return "";
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

const consoleLogger: LoggerInstance = {
  error(error) {
    const type = error instanceof AuthError ? error.type : error.name;
    console.error(`[auth][error] ${type}: ${error.message}${formatCause(error)}`);
  },
  warn(code) {
    console.warn(`[auth][warn][${code}] ${WARNING_TEXT[code] ?? ""}`);
  },
  debug(message, metadata) {
    console.log(`[auth][debug]: ${message}`, metadata === undefined ? "" : safeJson(metadata));
  },
};

/** Merges the user's logger over the console logger; `debug` stays silent unless enabled. */
export function createLogger(user: Partial<LoggerInstance> | undefined, debug: boolean): LoggerInstance {
  const base = { ...consoleLogger, ...user };
  return {
    error: (error) => callSafely(() => base.error(error)),
    warn: (code) => callSafely(() => base.warn(code)),
    debug: debug ? (message, metadata) => callSafely(() => base.debug(message, metadata)) : () => {},
  };
}

/** A broken user logger must never break a request. */
function callSafely(log: () => void): void {
  try {
    log();
  } catch {
    // Nothing sensible to do: the logger itself failed.
  }
}
