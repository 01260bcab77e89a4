/**
 * Where each Auth.js module's imports go in gatehouse, and which names make the
 * move. A declaration moves only when every name it imports is listed for its
 * target: anything else stays on Auth.js (and keeps its package installed), so
 * the move never leaves an import that points at nothing. The lists are checked
 * against the runtime's real exports by test/cli/from-authjs-module-map.test.ts.
 */
import { providerCatalog } from "@gatehouse/runtime/providers/catalog";

/** Auth.js's framework packages; `@auth/core` is what they are built on. */
export const AUTHJS_FRAMEWORK_PACKAGES = ["@auth/sveltekit", "@auth/solid-start"] as const;
export const AUTHJS_CORE = "@auth/core";

export interface ModuleTarget {
  /** The gatehouse module. */
  module: string;
  /** Names it exports under the same meaning (values and types). */
  names: readonly string[];
}

const FRAMEWORK_EXTRAS = ["AuthError", "CredentialsSignin", "customFetch", "Account", "DefaultSession", "Profile", "Session", "User"];
const CLIENT_NAMES = ["signIn", "signOut", "SignInOptions"];

const ERROR_NAMES = [
  "AuthError", "SignInError", "InvalidConfig", "MissingSecret", "UntrustedHost", "MissingAdapter", "MissingAdapterMethods",
  "MissingAuthorize", "InvalidProvider", "UnsupportedStrategy", "InvalidEndpoints", "ExperimentalFeatureNotEnabled",
  "DuplicateConditionalUI", "MissingWebAuthnAutocomplete", "UnknownAction", "InvalidCallbackUrl", "MissingCSRF",
  "CredentialsSignin", "AccessDenied", "Verification", "CallbackRouteError", "SignOutError", "EventError", "AdapterError",
  "JWTSessionError", "SessionTokenError", "ErrorPageLoop", "InvalidCheck", "OAuthSignInError", "OAuthCallbackError",
  "OAuthAccountNotLinked", "OAuthProfileParseError", "EmailSignInError", "AccountNotLinked", "WebAuthnVerificationError",
];

const ADAPTER_TYPES = [
  "Adapter", "AdapterAccount", "AdapterAccountType", "AdapterAuthenticator", "AdapterSession", "AdapterUser", "VerificationToken",
];

const CORE_TYPES = [
  "Account", "AccountType", "AuthAction", "Authenticator", "Awaitable", "CallbacksOptions", "CookieOption", "CookiesOptions",
  "DefaultSession", "DefaultUser", "ErrorPageParam", "EventCallbacks", "LoggerInstance", "PagesOptions", "Profile",
  "PublicProvider", "Session", "SignInPageErrorParam", "Theme", "TokenSet", "User", "AuthConfig", "WarningCode",
];

const PROVIDER_TYPES = [
  "Provider", "ProviderType", "CredentialInput", "CredentialsConfig", "CommonProviderOptions", "OAuthConfig", "OAuth2Config",
  "OIDCConfig", "OAuthUserConfig",
];

const ROOT = "@gatehouse/runtime";

/** Auth.js module specifier -> gatehouse module and the names that move. */
export const MODULE_MAP: Readonly<Record<string, ModuleTarget>> = {
  "@auth/sveltekit": { module: `${ROOT}/sveltekit`, names: ["SvelteKitAuth", "SvelteKitAuthConfig", ...FRAMEWORK_EXTRAS] },
  "@auth/sveltekit/client": { module: `${ROOT}/sveltekit/client`, names: CLIENT_NAMES },
  "@auth/sveltekit/adapters": { module: ROOT, names: ADAPTER_TYPES },
  "@auth/solid-start": { module: `${ROOT}/solid-start`, names: ["SolidAuth", "SolidAuthConfig", "getSession", ...FRAMEWORK_EXTRAS] },
  "@auth/solid-start/client": { module: `${ROOT}/solid-start/client`, names: CLIENT_NAMES },
  "@auth/solid-start/adapters": { module: ROOT, names: ADAPTER_TYPES },
  "@auth/core": {
    module: ROOT,
    names: ["Auth", "setEnvDefaults", "createActionURL", "isAuthAction", "skipCSRFCheck", "raw", "customFetch", "AuthConfig"],
  },
  "@auth/core/jwt": {
    module: `${ROOT}/jwt`,
    names: ["encode", "decode", "getToken", "JWT", "DefaultJWT", "JWTOptions", "JWTEncodeParams", "JWTDecodeParams", "GetTokenParams"],
  },
  "@auth/core/errors": { module: ROOT, names: ERROR_NAMES },
  "@auth/core/types": { module: ROOT, names: CORE_TYPES },
  "@auth/core/adapters": { module: ROOT, names: ADAPTER_TYPES },
  "@auth/core/providers": { module: ROOT, names: PROVIDER_TYPES },
};

export const PROVIDERS_MODULE = `${ROOT}/providers`;

/**
 * Auth.js provider module name (`@auth/core/providers/<name>`) -> the export of
 * `@gatehouse/runtime/providers` that takes the same options. OAuth providers
 * share their ids with the catalog; the others are named here.
 */
export const PROVIDER_EXPORTS: Readonly<Record<string, string>> = {
  credentials: "Credentials",
  nodemailer: "Nodemailer",
  email: "Email",
  passkey: "Passkey",
  ...Object.fromEntries(providerCatalog.filter((entry) => entry.type === "oauth" || entry.type === "oidc").map((entry) => [entry.id, entry.importName])),
};

/** Types a provider module exports beside its default (`GitHubProfile`...), as `@gatehouse/runtime/providers` has them. */
export const PROVIDER_MODULE_NAMES: readonly string[] = [
  "AppleProfile", "Auth0Profile", "AuthentikProfile", "CognitoProfile", "DiscordProfile", "FacebookProfile", "GitHubEmail",
  "GitHubProfile", "GitLabProfile", "GoogleProfile", "KeycloakProfile", "LinkedInProfile", "MicrosoftEntraIDProfile", "OktaProfile",
  "SlackProfile", "SpotifyImage", "SpotifyProfile", "TwitchProfile", "TwitterProfile", "ZitadelProfile", "CredentialsConfig",
  "CredentialInput", "OAuthUserConfig", "OIDCConfig", "OAuthConfig", "EmailUserConfig", "NodemailerUserConfig", "WebAuthnConfig",
];

/** `@auth/sveltekit/providers/github` -> `{ via: "@auth/sveltekit", name: "github" }`. */
export function providerModule(specifier: string): { via: string; name: string } | undefined {
  const match = /^(@auth\/(?:sveltekit|solid-start|core))\/providers\/([a-z0-9-]+)$/.exec(specifier);
  return match ? { via: match[1]!, name: match[2]! } : undefined;
}

/** The package a specifier belongs to (`@auth/core/jwt` -> `@auth/core`), or undefined when it is not Auth.js's. */
export function authjsPackage(specifier: string): string | undefined {
  return /^(@auth\/[^/]+)/.exec(specifier)?.[1];
}
