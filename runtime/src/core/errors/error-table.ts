/**
 * The one error table: for each `ErrorType`, what the browser may learn of it,
 * the status of a JSON answer, the page a browser is sent to and the name it
 * sees. `satisfies Record<ErrorType, ErrorFacts>` makes a type without a row (or
 * a row without a type) a compile error, so a new error cannot be forgotten here.
 * Not exported from the package: `isClientSafe` and `publicErrorType` are its
 * public face, `error-response.ts` turns a row into a response.
 */
import type { ErrorType } from "./errors.js";

export interface ErrorFacts {
  /**
   * What the browser may learn: `client` the error's public name and message;
   * `configuration` only that the configuration is wrong; `request` its type and
   * message with a 4xx (a malformed request, answered before any action runs);
   * `server` nothing (the app's own code failed: the log says what, the browser
   * must not mistake it for a configuration problem).
   */
  readonly shown: "client" | "configuration" | "request" | "server";
  /** The status of a JSON answer (and of the built-in page for `request`); `InvalidRequest` carries its own 413 or 415. */
  readonly status: 400 | 403 | 429 | 500;
  /** Where a browser is redirected: the sign-in page (which can offer another try) or the error page. */
  readonly page: "signIn" | "error";
  /** The `?error=` of the page and the JSON `error`, spelled as Auth.js's pages expect. */
  readonly publicName: string;
}

const CONFIGURATION: ErrorFacts = { shown: "configuration", status: 500, page: "error", publicName: "Configuration" };
const SERVER: ErrorFacts = { shown: "server", status: 500, page: "error", publicName: "ServerError" };

const ERROR_TABLE = {
  // The user's doing or the provider's: said as it is, mostly on the sign-in page to try again.
  CredentialsSignin: { shown: "client", status: 400, page: "signIn", publicName: "CredentialsSignin" },
  OAuthSignInError: { shown: "client", status: 400, page: "signIn", publicName: "OAuthSignin" },
  OAuthCallbackError: { shown: "client", status: 400, page: "signIn", publicName: "OAuthCallbackError" },
  InvalidCheck: { shown: "client", status: 400, page: "signIn", publicName: "OAuthCallbackError" },
  OAuthProfileParseError: { shown: "client", status: 400, page: "signIn", publicName: "OAuthCallbackError" },
  OAuthAccountNotLinked: { shown: "client", status: 400, page: "signIn", publicName: "OAuthAccountNotLinked" },
  AccountNotLinked: { shown: "client", status: 400, page: "signIn", publicName: "AccountNotLinked" },
  EmailSignInError: { shown: "client", status: 400, page: "signIn", publicName: "EmailSignin" },
  MissingCSRF: { shown: "client", status: 400, page: "signIn", publicName: "MissingCSRF" },
  RateLimited: { shown: "client", status: 429, page: "signIn", publicName: "RateLimited" },
  AccessDenied: { shown: "client", status: 403, page: "error", publicName: "AccessDenied" },
  Verification: { shown: "client", status: 403, page: "error", publicName: "Verification" },
  WebAuthnVerificationError: { shown: "client", status: 400, page: "error", publicName: "WebAuthnVerificationError" },

  // Malformed requests, answered by `requestErrorResult` before any action runs.
  InvalidRequest: { shown: "request", status: 400, page: "error", publicName: "InvalidRequest" },
  UnknownAction: { shown: "request", status: 400, page: "error", publicName: "UnknownAction" },

  // The configuration is wrong: the log says what to fix, the browser sees `Configuration`.
  InvalidConfig: CONFIGURATION,
  MissingSecret: CONFIGURATION,
  UntrustedHost: CONFIGURATION,
  MissingAdapter: CONFIGURATION,
  MissingAdapterMethods: CONFIGURATION,
  MissingAuthorize: CONFIGURATION,
  InvalidProvider: CONFIGURATION,
  UnsupportedProvider: CONFIGURATION,
  UnsupportedStrategy: CONFIGURATION,
  ExperimentalFeatureNotEnabled: CONFIGURATION,
  InvalidEndpoints: CONFIGURATION,
  DuplicateConditionalUI: CONFIGURATION,
  MissingWebAuthnAutocomplete: CONFIGURATION,
  ErrorPageLoop: CONFIGURATION,
  // The database failed: a server-side problem the logs explain, shown as Auth.js does.
  AdapterError: CONFIGURATION,

  // The app's own code or a step of ours failed: nothing of it reaches the browser.
  CallbackRouteError: SERVER,
  EventError: SERVER,
  SignOutError: SERVER,
  JWTSessionError: SERVER,
  SessionTokenError: SERVER,
  SessionUnavailable: SERVER,
  TokenRefreshError: SERVER,
  InvalidCallbackUrl: SERVER,
} as const satisfies Record<ErrorType, ErrorFacts>;

/**
 * The row of `type`. Anything else (a plain `Error`, the app's own `AuthError`
 * subclass without a type of ours) is a server failure: nothing of it is shown.
 */
export function errorFacts(type: string | undefined): ErrorFacts {
  return type !== undefined && Object.hasOwn(ERROR_TABLE, type) ? ERROR_TABLE[type as ErrorType] : SERVER;
}
