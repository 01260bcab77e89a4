/**
 * Every failure the handler reports is an `AuthError` subclass with a `type` you
 * can `switch` on. `kind` (as in Auth.js) is `signIn` for the errors of a sign-in
 * attempt, shown on the sign-in page. The status, the page and the public name of
 * each type live in one table, `error-table.ts`.
 */
import { errorFacts } from "./error-table.js";

export type ErrorType =
  | "AccessDenied"
  | "AdapterError"
  | "CallbackRouteError"
  | "ErrorPageLoop"
  | "EventError"
  | "InvalidCallbackUrl"
  | "CredentialsSignin"
  | "InvalidEndpoints"
  | "InvalidCheck"
  | "InvalidRequest"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingSecret"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "SessionTokenError"
  | "SessionUnavailable"
  | "OAuthSignInError"
  | "EmailSignInError"
  | "SignOutError"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "InvalidProvider"
  | "UnsupportedProvider"
  | "UntrustedHost"
  | "Verification"
  | "MissingCSRF"
  | "AccountNotLinked"
  | "DuplicateConditionalUI"
  | "MissingWebAuthnAutocomplete"
  | "WebAuthnVerificationError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidConfig"
  | "TokenRefreshError"
  | "RateLimited";

type ErrorOptions = Error | Record<string, unknown>;

/** Base class of all errors of the handler. */
export class AuthError extends Error {
  static type: ErrorType | "AuthError" = "AuthError";
  static kind: "signIn" | "error" = "error";
  type: ErrorType;
  kind: "signIn" | "error";
  declare cause?: Record<string, unknown> & { err?: Error };

  constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
    if (message instanceof Error) {
      super(message.message, { cause: { err: message, ...(errorOptions as object) } });
    } else if (typeof message === "string") {
      const cause = errorOptions instanceof Error ? { err: errorOptions } : errorOptions;
      super(message, cause === undefined ? undefined : { cause });
    } else {
      super(undefined, message === undefined ? undefined : { cause: message });
    }
    const ctor = this.constructor as typeof AuthError;
    this.name = ctor.name;
    this.type = ctor.type as ErrorType;
    this.kind = ctor.kind;
  }
}

/** Errors of a sign-in attempt; the user sees them on the sign-in page. */
export class SignInError extends AuthError {
  static override kind = "signIn" as const;
}

/** The configuration is wrong; the message says what to fix. */
export class InvalidConfig extends AuthError {
  static override type = "InvalidConfig" as const;
}
export class MissingSecret extends AuthError {
  static override type = "MissingSecret" as const;
}
export class UntrustedHost extends AuthError {
  static override type = "UntrustedHost" as const;
}
export class MissingAdapter extends AuthError {
  static override type = "MissingAdapter" as const;
}
export class MissingAdapterMethods extends AuthError {
  static override type = "MissingAdapterMethods" as const;
}
export class MissingAuthorize extends AuthError {
  static override type = "MissingAuthorize" as const;
}
export class InvalidProvider extends AuthError {
  static override type = "InvalidProvider" as const;
}
/** An OAuth or OIDC provider without the client id or secret it needs: which provider, and the env keys that would give them. */
export class ProviderNotSetUp extends InvalidProvider {
  constructor(
    message: string,
    readonly providerId: string,
    readonly envKeys: readonly string[],
  ) {
    super(message);
  }
}
/** A configured provider whose kind of sign-in this version cannot run yet. */
export class UnsupportedProvider extends AuthError {
  static override type = "UnsupportedProvider" as const;
}
export class UnsupportedStrategy extends AuthError {
  static override type = "UnsupportedStrategy" as const;
}
export class InvalidEndpoints extends AuthError {
  static override type = "InvalidEndpoints" as const;
}
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type = "ExperimentalFeatureNotEnabled" as const;
}
export class DuplicateConditionalUI extends AuthError {
  static override type = "DuplicateConditionalUI" as const;
}
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type = "MissingWebAuthnAutocomplete" as const;
}

/** The request itself is malformed (path, method, body). Answered with a 4xx JSON body. */
export class UnknownAction extends AuthError {
  static override type = "UnknownAction" as const;
}
export class InvalidRequest extends AuthError {
  static override type = "InvalidRequest" as const;
  /** 400 malformed, 413 too large, 415 unsupported content type. */
  status: 400 | 413 | 415 = 400;
  constructor(message: string, status: 400 | 413 | 415 = 400) {
    super(message);
    this.status = status;
  }
}
export class InvalidCallbackUrl extends AuthError {
  static override type = "InvalidCallbackUrl" as const;
}

/** The CSRF token of a state-changing request is missing or does not match its cookie. */
export class MissingCSRF extends SignInError {
  static override type = "MissingCSRF" as const;
}

/**
 * Throw from `authorize` to refuse a credentials sign-in. `code` reaches the
 * sign-in page as `?code=`; keep it generic (never say which field was wrong).
 *
 * @example
 * ```ts
 * class InvalidLogin extends CredentialsSignin { code = "invalid_login" }
 * ```
 */
export class CredentialsSignin extends SignInError {
  static override type = "CredentialsSignin" as const;
  code = "credentials";
  constructor(message?: string | ErrorOptions, errorOptions?: ErrorOptions) {
    super(message ?? "The credentials were refused.", errorOptions);
  }
}

export class AccessDenied extends AuthError {
  static override type = "AccessDenied" as const;
}
export class Verification extends AuthError {
  static override type = "Verification" as const;
}
export class CallbackRouteError extends AuthError {
  static override type = "CallbackRouteError" as const;
}
export class SignOutError extends AuthError {
  static override type = "SignOutError" as const;
}
export class EventError extends AuthError {
  static override type = "EventError" as const;
}
export class AdapterError extends AuthError {
  static override type = "AdapterError" as const;
}
export class JWTSessionError extends AuthError {
  static override type = "JWTSessionError" as const;
}
export class SessionTokenError extends AuthError {
  static override type = "SessionTokenError" as const;
}
/** A framework helper could not read the session (configuration or database); the cause is in the server log. */
export class SessionUnavailable extends AuthError {
  static override type = "SessionUnavailable" as const;
}
export class ErrorPageLoop extends AuthError {
  static override type = "ErrorPageLoop" as const;
}
/** A state, PKCE or nonce check failed (or its cookie was missing): shown as `OAuthCallbackError`. */
export class InvalidCheck extends SignInError {
  static override type = "InvalidCheck" as const;
}
export class OAuthSignInError extends SignInError {
  static override type = "OAuthSignInError" as const;
}
export class OAuthCallbackError extends SignInError {
  static override type = "OAuthCallbackError" as const;
}
export class OAuthAccountNotLinked extends SignInError {
  static override type = "OAuthAccountNotLinked" as const;
}
/** The provider's `profile()` threw or returned no id: shown as `OAuthCallbackError`. */
export class OAuthProfileParseError extends SignInError {
  static override type = "OAuthProfileParseError" as const;
}
/** `refreshAccessToken` could not get or store a new access token; `cause.err` has the provider's answer. */
export class TokenRefreshError extends AuthError {
  static override type = "TokenRefreshError" as const;
}
/** An email sign-in could not start: no usable address, or the link could not be sent (`cause.err` says why). */
export class EmailSignInError extends SignInError {
  static override type = "EmailSignInError" as const;
}
export class AccountNotLinked extends SignInError {
  static override type = "AccountNotLinked" as const;
}
export class WebAuthnVerificationError extends AuthError {
  static override type = "WebAuthnVerificationError" as const;
}
/**
 * Too many sign-in attempts from this client or at this identifier (`rateLimit`
 * in the config): answered with 429 and `Retry-After: retryAfter`. Nothing of the
 * attempt ran: no `authorize`, no mail, no lookup.
 */
export class RateLimited extends SignInError {
  static override type = "RateLimited" as const;
  /** Seconds until the count that refused the attempt starts a new window. */
  retryAfter: number;
  constructor(message: string, retryAfter: number) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/** Whether the browser may see the error's name and message (`error-table.ts` says which types). */
export function isClientSafe(error: unknown): error is AuthError {
  return error instanceof AuthError && errorFacts(error.type).shown === "client";
}

/**
 * What the browser may learn about an error: its public name when client-safe,
 * `Configuration` for a configuration problem, and nothing (`undefined`, the
 * generic error page) for a failure in application code such as a throwing
 * `authorize`, which is not a configuration problem and must not look like one.
 */
export function publicErrorType(error: unknown): string | undefined {
  if (!(error instanceof AuthError)) return undefined;
  const { shown, publicName } = errorFacts(error.type);
  return shown === "client" || shown === "configuration" ? publicName : undefined;
}
