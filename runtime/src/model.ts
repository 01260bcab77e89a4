/**
 * The shared model of `@gatehouse/runtime`: users, sessions, accounts, profiles,
 * authenticators, cookies. A leaf module (it imports nothing) so that `types.ts`,
 * `adapters/types.ts` and `providers/types.ts` can all build on it without
 * importing each other in a circle. Public through `types.ts`, which re-exports
 * every name here; applications augment them (`declare module
 * "@gatehouse/runtime" { interface Session { ... } }`) through that re-export.
 */

export type Awaitable<T> = T | PromiseLike<T>;

/** A user as the application sees it. */
export interface DefaultUser {
  id?: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
}
export interface User extends DefaultUser {}

/** The session returned to the client. By default only name, email and image of the user. */
export interface DefaultSession {
  user?: User;
  expires: string;
}
export interface Session extends DefaultSession {}

export interface AuthorizationDetails {
  type: string;
  [parameter: string]: unknown;
}

/** Partial OAuth 2 / OIDC token endpoint response. */
export interface TokenEndpointResponse {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  authorization_details?: AuthorizationDetails[];
  [parameter: string]: unknown;
}

/** Token endpoint response plus `expires_at` (absolute, seconds). */
export type TokenSet = Partial<TokenEndpointResponse> & { expires_at?: number };

export type AccountType = "oauth" | "oidc" | "email" | "credentials" | "webauthn";

/** An account of a user at a provider. `token_type` is always lowercase. */
export interface Account extends Partial<TokenEndpointResponse> {
  provider: string;
  providerAccountId: string;
  type: AccountType;
  userId?: string;
  expires_at?: number;
}

/** User info returned by an identity provider. */
export interface Profile {
  id?: string | null;
  sub?: string | null;
  name?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  middle_name?: string | null;
  nickname?: string | null;
  preferred_username?: string | null;
  profile?: string | null;
  picture?: any;
  website?: string | null;
  email?: string | null;
  email_verified?: boolean | null;
  gender?: string | null;
  birthdate?: string | null;
  zoneinfo?: string | null;
  locale?: string | null;
  phone_number?: string | null;
  updated_at?: Date | string | number | null;
  address?: {
    formatted?: string | null;
    street_address?: string | null;
    locality?: string | null;
    region?: string | null;
    postal_code?: string | null;
    country?: string | null;
  } | null;
  [claim: string]: unknown;
}

/** A WebAuthn authenticator. */
export interface Authenticator {
  credentialID: string;
  credentialPublicKey: string;
  counter: number;
  credentialDeviceType: string;
  credentialBackedUp: boolean;
  transports?: string | null;
  providerAccountId: string;
  userId?: string;
  /** gatehouse extension: the user's name for the passkey (it starts as the browser that registered it), where stored. */
  name?: string | null;
  /** gatehouse extension: when it was registered, where stored. */
  createdAt?: Date | null;
  /** gatehouse extension: when it last signed in, where stored. */
  lastUsedAt?: Date | null;
}

/** Theme of the built-in pages. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
}

/** Cookie serialization options (a subset of `Set-Cookie` attributes). */
export interface CookieSerializeOptions {
  domain?: string;
  expires?: Date;
  httpOnly?: boolean;
  maxAge?: number;
  partitioned?: boolean;
  path?: string;
  priority?: "low" | "medium" | "high";
  sameSite?: boolean | "lax" | "strict" | "none";
  secure?: boolean;
}

export interface CookieOption {
  name: string;
  options: CookieSerializeOptions;
}

export interface CookiesOptions {
  sessionToken: Partial<CookieOption>;
  callbackUrl: Partial<CookieOption>;
  csrfToken: Partial<CookieOption>;
  pkceCodeVerifier: Partial<CookieOption>;
  state: Partial<CookieOption>;
  nonce: Partial<CookieOption>;
  webauthnChallenge: Partial<CookieOption>;
}

/** A cookie to set (or, with `maxAge: 0`, to clear) on the response. */
export interface Cookie {
  name: string;
  value: string;
  options: CookieSerializeOptions;
}
