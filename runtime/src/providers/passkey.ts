/**
 * Passkeys (WebAuthn): sign up and sign in with a credential kept by the
 * device or the password manager. Compatible with Auth.js's `WebAuthnConfig`
 * where that makes sense. Experimental: needs `experimental.enableWebAuthn`
 * and an adapter with the authenticator methods.
 */
import type {
  GenerateAuthenticationOptionsOpts,
  GenerateRegistrationOptionsOpts,
  VerifyAuthenticationResponseOpts,
  VerifyRegistrationResponseOpts,
} from "@simplewebauthn/server";
import type { Adapter, AdapterUser } from "../adapters/types.js";
import type { Awaitable } from "../model.js";
import type { CommonProviderOptions, CredentialInput } from "./types.js";

/**
 * The relying party (your site) as WebAuthn sees it. Each field left out comes
 * from the request's trusted public origin (`AUTH_URL`, or the host when
 * `trustHost` is on): `id` its host name, `origin` itself, `name` its host name.
 * (`relayingParty` is Auth.js's spelling; it is kept so configs move over.)
 */
export interface RelyingParty {
  /**
   * The RP ID: a registrable domain such as `example.com` (no scheme, no port).
   * Passkeys are bound to it for good: changing it strands every passkey made
   * under the old one. With a list, options use the first and responses made
   * for any of them are accepted.
   */
  id?: string | string[];
  /** The name authenticators show in their prompts. With a list, the first. */
  name?: string | string[];
  /**
   * The origin(s) a response may come from, e.g. `https://example.com`. With a
   * list, any of them is accepted.
   */
  origin?: string | string[];
}

/** Options of `generateRegistrationOptions` you may set; the RP, user, challenge and excluded credentials are ours. */
export type WebAuthnRegistrationOptions = Partial<
  Omit<
    GenerateRegistrationOptionsOpts,
    "rpName" | "rpID" | "userID" | "userName" | "challenge" | "userDisplayName" | "excludeCredentials"
  >
>;

/** Options of `generateAuthenticationOptions` you may set; the RP, challenge and allowed credentials are ours. */
export type WebAuthnAuthenticationOptions = Partial<Omit<GenerateAuthenticationOptionsOpts, "rpID" | "allowCredentials" | "challenge">>;

/** Options of `verifyRegistrationResponse` you may set; the response, challenge, origin and RP ID are ours. */
export type WebAuthnVerifyRegistrationOptions = Partial<
  Omit<VerifyRegistrationResponseOpts, "response" | "expectedChallenge" | "expectedOrigin" | "expectedRPID">
>;

/** Options of `verifyAuthenticationResponse` you may set; the response, challenge, origin, RP ID and credential are ours. */
export type WebAuthnVerifyAuthenticationOptions = Partial<
  Omit<VerifyAuthenticationResponseOpts, "response" | "expectedChallenge" | "expectedOrigin" | "expectedRPID" | "credential">
>;

/** What `getUserInfo` receives when the browser asks for options while signed out. */
export interface WebAuthnUserInfoParams {
  /** The query of `GET webauthn-options/<id>`: the provider's form fields (`email` by default). */
  query: URLSearchParams;
  request: Request;
  adapter: Adapter;
  provider: WebAuthnConfig;
}

/**
 * Who the person asking for options is: an existing user (`exists: true`, the
 * adapter's user), someone who may sign up (`exists: false`, at least an email),
 * or nobody in particular (`null`: authenticate with any passkey of this site).
 */
export type WebAuthnUserInfo =
  | { user: AdapterUser; exists: true }
  | { user: { email: string; name?: string | null }; exists: false }
  | null;

export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn";
  /** The relying party; by default derived from the request's trusted origin (see {@link RelyingParty}). */
  relayingParty?: RelyingParty;
  /**
   * Offer passkeys in the browser's autofill of the sign-in page's username
   * field (WebAuthn conditional UI). Default `true`. Only one provider should
   * turn it on, and its form fields need an `autocomplete` containing `webauthn`.
   */
  enableConditionalUI?: boolean;
  /**
   * Inputs of the built-in sign-in form; their values reach
   * `GET webauthn-options/<id>` as query parameters. Replaces the default
   * `{ email: { label: "Email", required: true, autocomplete: "username webauthn" } }`
   * as a whole.
   */
  formFields?: Record<string, CredentialInput>;
  /**
   * Merged over the registration defaults: `attestationType: "none"`,
   * `authenticatorSelection: { residentKey: "required", userVerification: "preferred" }`,
   * `timeout` 5 minutes.
   */
  registrationOptions?: WebAuthnRegistrationOptions;
  /** Merged over the authentication defaults: `userVerification: "preferred"`, `timeout` 5 minutes. */
  authenticationOptions?: WebAuthnAuthenticationOptions;
  /**
   * Merged into the registration check. `requireUserVerification` defaults to
   * whether `registrationOptions.authenticatorSelection.userVerification` is
   * `"required"`, so a key without a PIN can register while that is `"preferred"`;
   * `supportedAlgorithmIDs` defaults to `registrationOptions.supportedAlgorithmIDs`.
   */
  verifyRegistrationOptions?: WebAuthnVerifyRegistrationOptions;
  /**
   * Merged into the authentication check. `requireUserVerification` defaults to
   * whether `authenticationOptions.userVerification` is `"required"`.
   */
  verifyAuthenticationOptions?: WebAuthnVerifyAuthenticationOptions;
  /**
   * Who is asking for options while signed out. The default reads the `email`
   * query parameter (trimmed, lowercased, checked), looks the user up with
   * `getUserByEmail`, and takes an optional `name` parameter for a new user.
   * It must not write anything: nothing is stored before the passkey is verified.
   */
  getUserInfo?: (params: WebAuthnUserInfoParams) => Awaitable<WebAuthnUserInfo>;
}

/** Five minutes for the browser's prompt, as Auth.js; the challenge cookie lasts fifteen. */
export const WEBAUTHN_TIMEOUT_MS = 5 * 60 * 1000;

export const DEFAULT_FORM_FIELDS: Readonly<Record<string, CredentialInput>> = Object.freeze({
  email: Object.freeze({ label: "Email", required: true, autocomplete: "username webauthn" }),
});

/** Fresh copies each time: SimpleWebAuthn writes into `authenticatorSelection`. */
export function defaultRegistrationOptions(): WebAuthnRegistrationOptions {
  return {
    attestationType: "none",
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    timeout: WEBAUTHN_TIMEOUT_MS,
  };
}

export function defaultAuthenticationOptions(): WebAuthnAuthenticationOptions {
  return { userVerification: "preferred", timeout: WEBAUTHN_TIMEOUT_MS };
}

/**
 * Sign in with a passkey. The sign-in page asks for options at
 * `GET <basePath>/webauthn-options/<id>` and posts the browser's answer to
 * `POST <basePath>/callback/<id>`; a new email registers a new user, a known
 * one signs in, and a signed-in user adds a passkey to their account.
 *
 * Experimental: set `experimental: { enableWebAuthn: true }`, and use an
 * adapter with `getAuthenticator`, `createAuthenticator`,
 * `listAuthenticatorsByUserId` and `updateAuthenticatorCounter`.
 *
 * @example
 * ```ts
 * import { Passkey } from "@gatehouse/runtime/providers";
 *
 * export const config = {
 *   adapter: PostgresAdapter(db),
 *   experimental: { enableWebAuthn: true },
 *   providers: [
 *     Passkey({
 *       // Optional: by default the request's trusted origin is the relying party.
 *       relayingParty: { id: "example.com", name: "Example", origin: "https://example.com" },
 *       registrationOptions: { authenticatorSelection: { userVerification: "required" } },
 *     }),
 *   ],
 * };
 * ```
 */
export function Passkey(config: Partial<WebAuthnConfig> = {}): WebAuthnConfig {
  // `type` is not negotiable, and `formFields` replaces rather than merges (the
  // resolver merges plain objects key by key, which would keep `email`).
  const { type: _type, formFields, ...overrides } = config ?? {};
  return {
    id: "passkey",
    name: "Passkey",
    type: "webauthn",
    enableConditionalUI: true,
    formFields: formFields ?? { ...DEFAULT_FORM_FIELDS },
    registrationOptions: defaultRegistrationOptions(),
    authenticationOptions: defaultAuthenticationOptions(),
    options: overrides as Record<string, unknown>,
  };
}
