/**
 * Public types of `@gatehouse/runtime`. Shapes follow the interface specification
 * and stay assignable to and from Auth.js (`@auth/core`) types, so a config or an
 * adapter written for Auth.js works unchanged.
 */
import type { raw, skipCSRFCheck } from "./core/symbols.js";
import type { LoggerInstance } from "./core/logger.js";
import type { RateLimitOptions } from "./core/rate-limit/types.js";
import type { JWT, JWTOptions } from "./jwt.js";
import type { Provider } from "./providers/types.js";
import type { Adapter, AdapterSession, AdapterUser } from "./adapters/types.js";
import type { Account, Awaitable, Cookie, CookiesOptions, DefaultSession, Profile, Session, Theme, User } from "./model.js";

export type {
  Awaitable,
  DefaultUser,
  User,
  DefaultSession,
  Session,
  AuthorizationDetails,
  TokenEndpointResponse,
  TokenSet,
  AccountType,
  Account,
  Profile,
  Authenticator,
  Theme,
  Cookie,
  CookieOption,
  CookieSerializeOptions,
  CookiesOptions,
} from "./model.js";
export type { LoggerInstance, WarningCode } from "./core/logger.js";
export type { RateLimitHit, RateLimitOptions, RateLimitStore } from "./core/rate-limit/types.js";
export type { MemoryRateLimitStoreOptions } from "./core/rate-limit/memory-store.js";
export type { JWT, JWTOptions, JWTEncodeParams, JWTDecodeParams } from "./jwt.js";
export type { AccountBody, LinkedProvider, ListedPasskey, ListedSession, SignInMethods } from "./core/account/types.js";
export type {
  Adapter,
  AdapterAccount,
  AdapterAccountType,
  AdapterAccountUpdate,
  AdapterAuthenticator,
  AdapterNewAccount,
  AdapterNewSession,
  AdapterNewUser,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "./adapters/types.js";
export type {
  Provider,
  ProviderType,
  CredentialInput,
  CredentialsConfig,
  CommonProviderOptions,
  OAuthConfig,
  OAuth2Config,
  OIDCConfig,
  OAuthUserConfig,
  OAuthCheck,
  OAuthClientOptions,
  OAuthProviderButtonStyles,
  AuthorizationEndpointHandler,
  TokenEndpointHandler,
  UserinfoEndpointHandler,
  UserinfoRequestContext,
} from "./providers/types.js";

export type SemverString =
  | `v${number}`
  | `v${number}.${number}`
  | `v${number}.${number}.${number}`;

export interface PublicProvider {
  id: string;
  name: string;
  type: string;
  signinUrl: string;
  callbackUrl: string;
}

export type ErrorPageParam = "Configuration" | "AccessDenied" | "Verification";

export type SignInPageErrorParam =
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallbackError"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "OAuthAccountNotLinked"
  | "EmailSignin"
  | "CredentialsSignin"
  | "SessionRequired";

/** Paths of the application's own pages; each replaces a built-in page. */
export interface PagesOptions {
  signIn: string;
  signOut: string;
  error: string;
  verifyRequest: string;
  newUser: string;
  /** The `Password` provider's sign-up form (gatehouse extension); it posts to `<basePath>/signup`. */
  signUp: string;
  /** The `Password` provider's "forgot password" form (gatehouse extension); it posts to `<basePath>/forgot-password`. */
  forgotPassword: string;
  /** Where reset links lead, with `?email=&token=` (gatehouse extension); its form posts to `<basePath>/reset-password`. */
  resetPassword: string;
}

/** The one value every action returns; turned into a `Response` in one place. */
export interface ResponseInternal<Body extends string | Record<string, any> | any[] | null = any> {
  status?: number;
  headers?: HeadersInit;
  body?: Body;
  redirect?: string;
  cookies?: Cookie[];
}

/**
 * The answer of `GET webauthn-options`: options for the browser's WebAuthn API,
 * to authenticate with a passkey or to register one.
 */
export type WebAuthnOptionsResponseBody =
  | { action: "authenticate"; options: Record<string, unknown> }
  | { action: "register"; options: Record<string, unknown> };

export type AuthAction =
  | "account"
  | "callback"
  | "change-password"
  | "csrf"
  | "delete-account"
  | "error"
  | "forgot-password"
  | "providers"
  | "remove-passkey"
  | "rename-passkey"
  | "reset-password"
  | "revoke-other-sessions"
  | "revoke-session"
  | "session"
  | "signin"
  | "signout"
  | "signup"
  | "unlink-account"
  | "update-profile"
  | "verify-request"
  | "webauthn-options";

export type CredentialRecord = Record<string, unknown>;

export interface CallbacksOptions {
  /** Decides whether a sign-in may go on: `true` continues, `false` or a throw denies, a string redirects. */
  signIn?: (params: {
    user: User | AdapterUser;
    account?: Account | null;
    profile?: Profile;
    email?: { verificationRequest?: boolean };
    credentials?: CredentialRecord;
  }) => Awaitable<boolean | string>;
  /** Called for every redirect to a callback URL; the default allows relative and same-origin URLs only. */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>;
  /**
   * Shapes the session exposed to the client. With JWT sessions it gets
   * `{ session, token }`; with database sessions, as in Auth.js,
   * `{ session, user, newSession }`: `session` is the stored session
   * (`sessionToken`, `userId`, `expires` as a `Date`, the rest of the adapter's
   * row) with the whole adapter user as its `user`. Both get `trigger: "update"`
   * on an update. The default returns the user's name, email and image and
   * `expires` only; a top-level `sessionToken` returned never reaches the client.
   */
  session?: (params: any) => Awaitable<Session | DefaultSession>;
  /** Called when a JWT is created or updated; returning `null` ends the session. */
  jwt?: (params: {
    token: JWT;
    user: User | AdapterUser;
    account?: Account | null;
    profile?: Profile;
    trigger?: "signIn" | "signUp" | "update";
    isNewUser?: boolean;
    session?: any;
  }) => Awaitable<JWT | null>;
}

export interface EventCallbacks {
  signIn?: (message: {
    user: User;
    account?: Account | null;
    profile?: Profile;
    isNewUser?: boolean;
  }) => Awaitable<void>;
  signOut?: (
    message: { session: AdapterSession | null | undefined | void } | { token: JWT | null },
  ) => Awaitable<void>;
  createUser?: (message: { user: User }) => Awaitable<void>;
  updateUser?: (message: { user: User }) => Awaitable<void>;
  /** gatehouse extension: the user deleted their account (`POST delete-account`); the user as it was. */
  deleteUser?: (message: { user: AdapterUser }) => Awaitable<void>;
  linkAccount?: (message: {
    user: User | AdapterUser;
    account: Account;
    profile: User | AdapterUser;
  }) => Awaitable<void>;
  /** With JWT sessions `token` is the decoded token; with database sessions it is absent. */
  session?: (message: { session: Session; token?: JWT }) => Awaitable<void>;
}

/** The configuration of the handler. Compatible with Auth.js's `AuthConfig`. */
export interface AuthConfig {
  providers: Provider[];
  secret?: string | string[];
  session?: {
    strategy?: "jwt" | "database";
    maxAge?: number;
    updateAge?: number;
    /**
     * However often it is used (and so slid forward by `maxAge`), a session ends
     * this long after its sign-in, in seconds (gatehouse extension; default 90
     * days). Enforced for JWTs (their `signedInAt`) and for database sessions
     * whose adapter keeps `createdAt` (every gatehouse adapter).
     */
    absoluteMaxAge?: number;
    /**
     * JWT sessions end when their user's sessions are revoked ("sign out
     * everywhere else", a password change or reset, a deleted account): each
     * read compares the token's session version with the stored one. To spare
     * a database query per request, a version read is reused for this many
     * seconds (gatehouse extension; default 5). A revocation made through this
     * process's handler takes effect at the next request; one made on another
     * instance of the app, or by writing the database directly, within this
     * delay. 0 reads the version on every request.
     */
    revocationDelay?: number;
    generateSessionToken?: () => string;
  };
  jwt?: Partial<JWTOptions>;
  pages?: Partial<PagesOptions>;
  callbacks?: Partial<CallbacksOptions>;
  events?: EventCallbacks;
  adapter?: Adapter;
  debug?: boolean;
  logger?: Partial<LoggerInstance>;
  theme?: Theme;
  useSecureCookies?: boolean;
  cookies?: Partial<CookiesOptions>;
  trustHost?: boolean;
  skipCSRFCheck?: typeof skipCSRFCheck;
  raw?: typeof raw;
  redirectProxyUrl?: string;
  /**
   * The origins the redirect proxy may forward a callback to (gatehouse
   * extension; `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS`, comma-separated): exact
   * origins, or `https://*.preview.example.com` (one label left open). Without
   * it the proxy forwards to no one.
   */
  redirectProxyAllowedOrigins?: string[];
  experimental?: { enableWebAuthn?: boolean };
  /**
   * Limits sign-in attempts (credentials, email links, passkeys) per client
   * address and per identifier (gatehouse extension; off when absent). Over a
   * limit: 429 with `Retry-After`, and nothing else happens.
   */
  rateLimit?: RateLimitOptions;
  basePath?: string;
  /**
   * The public URL of the app (from `AUTH_URL`). When set, links and redirects use
   * its origin instead of the request's, and the host header need not be trusted.
   */
  url?: string | URL;
}
