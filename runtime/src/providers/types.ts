/**
 * Provider shapes. A provider is plain data plus, where needed, functions such as
 * `authorize` or `profile`. Factories return these objects with the user's
 * overrides under `options`; the config may list either objects or factories.
 */
import type { customFetch } from "../core/symbols.js";
import type { Account, Awaitable, Profile, Theme, TokenSet, User } from "../model.js";
import type { WebAuthnConfig } from "./passkey.js";

export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn";

export interface CommonProviderOptions {
  id: string;
  name: string;
  type: ProviderType;
  /** The user's overrides, merged over the provider's defaults when the config is resolved. */
  options?: Record<string, unknown>;
}

/** One input field of the built-in credentials form. */
export interface CredentialInput {
  label?: string;
  type?: string;
  placeholder?: string;
  required?: boolean;
  autocomplete?: string;
  [attribute: string]: unknown;
}

export interface CredentialsConfig<
  Inputs extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials";
  credentials: Inputs;
  /**
   * Checks the submitted credentials. Return the user to sign in, or `null` (or throw
   * `CredentialsSignin`) to refuse. `request` is the original request.
   */
  authorize: (
    credentials: Partial<Record<keyof Inputs, unknown>>,
    request: Request,
  ) => Awaitable<User | null>;
}

/** What `sendVerificationRequest` receives: where to send the link, and the link. */
export interface SendVerificationRequestParams {
  /** The normalized email address. */
  identifier: string;
  /** The sign-in link: `<auth URL>/callback/<provider>?token=...&email=...&callbackUrl=...`. */
  url: string;
  /** When the link stops working. */
  expires: Date;
  /** The resolved provider (its `from`, `server`, `apiKey`...). */
  provider: EmailConfig & { from: string };
  /** The token inside `url` (stored only as its hash). */
  token: string;
  /** The config's theme, for a mail that looks like the sign-in page. */
  theme: Theme;
  /** The request that asked for the link. */
  request: Request;
}

/**
 * A passwordless email provider: `POST signin/<id>` with an `email` field mails a
 * one-time link; opening it signs the user in. Compatible with Auth.js's
 * `EmailConfig`. Requires an adapter (verification tokens and users are stored).
 */
export interface EmailConfig extends CommonProviderOptions {
  type: "email";
  /** Sends the link: SMTP for `Nodemailer`, your HTTP mail API for `Email`. A throw shows `EmailSignin`. */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>;
  /** The sender address (`AUTH_<ID>_FROM`). */
  from?: string;
  /** Seconds the link works (default 24 hours). */
  maxAge?: number;
  /** SMTP connection for `Nodemailer`: a URL such as `smtp://user:pass@host:587`, or nodemailer transport options (`AUTH_<ID>_SERVER`). */
  server?: unknown;
  /** An API key for HTTP mail services, read by your `sendVerificationRequest` (`AUTH_<ID>_KEY`). */
  apiKey?: string;
  /** Hashes the stored token instead of the config's secret. */
  secret?: string;
  /** Makes the token (default: 32 random bytes as hex). */
  generateVerificationToken?: () => Awaitable<string>;
  /**
   * Turns what the user typed into the stored identifier. The default gives the
   * address's canonical form (NFKC, trimmed, lowercased, `。` in the domain as
   * `.`), and refuses anything but one plain `local@domain` address (no quotes,
   * no second `@`, no spaces or commas, no control, format or other invisible
   * character). Throw to refuse an address. Invisible characters are refused
   * before and after a function of your own as well.
   */
  normalizeIdentifier?: (identifier: string) => string;
  /**
   * Opening the link shows a page whose button finishes the sign-in (default
   * `true`): the link scanners of mail systems open links to check them, and a
   * link that signed in on the GET would be used up before the user clicks it.
   * `false` signs in when the link is opened, as Auth.js does.
   */
  confirmLink?: boolean;
}

/** Email and WebAuthn providers. */
export type OtherProviderConfig = EmailConfig | WebAuthnConfig;

/**
 * Checks that bind a callback to the browser that started the sign-in. The
 * default is all that apply: `state` always, `pkce` (S256) unless the server's
 * metadata says it lacks S256, and `nonce` for OIDC. `["none"]` turns them all
 * off (not recommended).
 */
export type OAuthCheck = "pkce" | "state" | "nonce" | "none";

/** The authorization endpoint: its URL and the parameters every authorization request carries. */
export interface AuthorizationEndpointHandler {
  url?: string | URL;
  params?: Record<string, unknown>;
}

/** The token endpoint. `conform` may rewrite a non-standard response before it is read. */
export interface TokenEndpointHandler {
  url?: string | URL;
  params?: Record<string, unknown>;
  conform?: (response: Response) => Awaitable<Response | undefined>;
}

/** What a custom `userinfo.request` receives. `fetch` is the provider's (see `customFetch`). */
export interface UserinfoRequestContext {
  tokens: TokenSet;
  provider: OAuthConfig<any> & { userinfo?: { url?: string | URL }; fetch: typeof fetch };
}

/** The userinfo endpoint, or a function that fetches the profile itself (several calls, odd APIs). */
export interface UserinfoEndpointHandler {
  url?: string | URL;
  params?: Record<string, unknown>;
  request?: (context: UserinfoRequestContext) => Awaitable<Profile>;
}

/** Button colours of the built-in sign-in page. */
export interface OAuthProviderButtonStyles {
  logo?: string;
  bg?: string;
  text?: string;
  brandColor?: string;
}

/** How the client authenticates at the token endpoint, and other client metadata. */
export interface OAuthClientOptions {
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none";
  id_token_signed_response_alg?: string;
  [metadata: string]: unknown;
}

/**
 * An OAuth 2 or OpenID Connect provider. Either an `issuer` (endpoints come from
 * its discovery document) or explicit `authorization` and `token` endpoints (and
 * `userinfo`, or `idToken: true`). Compatible with Auth.js's `OAuthConfig`.
 */
export interface OAuthConfig<P = Profile> extends CommonProviderOptions {
  type: "oauth" | "oidc";
  /** The issuer identifier; with OIDC, where `/.well-known/openid-configuration` is found. */
  issuer?: string;
  /** The discovery document's URL, when it is not under the issuer. */
  wellKnown?: string;
  authorization?: string | AuthorizationEndpointHandler;
  token?: string | TokenEndpointHandler;
  userinfo?: string | UserinfoEndpointHandler;
  /** Maps the provider's profile to the user. `id` becomes the account's `providerAccountId`. */
  profile?: (profile: P, tokens: TokenSet) => Awaitable<User>;
  /**
   * The email address this provider vouches for (gatehouse extension): one it
   * has verified belongs to the user, read from the raw profile; `null` when it
   * did not verify it or cannot say. The user's email (what `profile()`
   * returned) counts as proven only when it is this address.
   *
   * A proven address sets the new user's `emailVerified`, may link to an
   * existing user (with `allowDangerousEmailAccountLinking`) and takes over a
   * user whose address nobody had proven (stripped of what its creator set up).
   * An unproven one is stored as the user's email but finds, links and takes
   * over nothing.
   *
   * Default: the OpenID Connect `email_verified` claim (`true` or `"true"`)
   * vouches for the profile's `email`. Catalog providers set their own (the
   * claim, the provider's API, or never).
   *
   * @example A provider whose API says so in a field of its own
   * ```ts
   * verifiedEmail: (profile) => (profile.email_confirmed === true ? profile.email : null)
   * ```
   */
  verifiedEmail?: (profile: P, tokens: TokenSet) => string | null | undefined;
  /**
   * Reads extra profile fields from the callback's parameters (a `form_post`
   * callback arrives here as query parameters); the result is merged over the
   * profile before `profile()` runs. For providers that send user data outside
   * the ID token: Apple sends the user's name once, in a `user` form field on
   * the first sign-in. These parameters are not signed by the provider, so
   * return them under a key of your own and never a field the identity rests
   * on (`sub`, `id`, `email`).
   *
   * @example
   * ```ts
   * // Keep what the callback URL carried under a key of its own.
   * callbackProfile: (params) => (params.has("workspace") ? { callbackWorkspace: params.get("workspace") } : undefined)
   * ```
   */
  callbackProfile?: (params: URLSearchParams) => Record<string, unknown> | undefined;
  /** Picks the token fields stored with the account (default: the standard ones). */
  account?: (tokens: TokenSet) => Partial<Account> | undefined | void;
  checks?: OAuthCheck[];
  clientId?: string;
  clientSecret?: string;
  client?: OAuthClientOptions;
  /** A plain OAuth provider that also returns an ID token to read the profile from. */
  idToken?: boolean;
  style?: OAuthProviderButtonStyles;
  /**
   * Link this provider's account to an existing user with the same email when no
   * account is linked yet. Only for providers that verify email addresses: anyone
   * who controls the address at this provider takes over the user.
   */
  allowDangerousEmailAccountLinking?: boolean;
  /** Per-provider `redirectProxyUrl` (see `AuthConfig.redirectProxyUrl`). */
  redirectProxyUrl?: string;
  /**
   * Names of authorization parameters a sign-in request may set in its query
   * (`signIn("google", {}, { login_hint })`), such as `login_hint` or `prompt`.
   * Nothing else from the request reaches the provider.
   */
  allowedAuthorizationParams?: string[];
  /**
   * Allow `http:` endpoints on hosts other than loopback (a provider in a
   * container on a private network during development). Never in production.
   */
  dangerouslyAllowInsecureRequests?: boolean;
  /** Milliseconds a request to the provider may take before the sign-in fails (default 10 000). */
  requestTimeout?: number;
  /** A `fetch` for every request to this provider (proxies, tests, instrumentation). */
  [customFetch]?: typeof fetch;
}

/** Auth.js's names for the same shape. */
export type OAuth2Config<P = Profile> = OAuthConfig<P> & { type: "oauth" };
export type OIDCConfig<P = Profile> = OAuthConfig<P> & { type: "oidc" };

/** What a provider factory such as `GitHub(...)` accepts: any field of the provider, usually just the client. */
export type OAuthUserConfig<P = Profile> = Omit<Partial<OAuthConfig<P>>, "options" | "type">;

export type ProviderConfig = CredentialsConfig<any> | OAuthConfig<any> | OtherProviderConfig;

/** An entry of `providers`: a provider object, or a factory called with no arguments. */
export type Provider = ProviderConfig | ((options?: any) => ProviderConfig);
