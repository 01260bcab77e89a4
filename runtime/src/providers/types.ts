/**
 * Provider shapes. A provider is plain data plus, where needed, functions such as
 * `authorize` or `profile`. Factories return these objects with the user's
 * overrides under `options`; the config may list either objects or factories.
 */
import type { Awaitable, User } from "../types.js";

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

/** OAuth, OIDC, email and WebAuthn providers: their flows arrive in later versions. */
export interface OtherProviderConfig extends CommonProviderOptions {
  type: "oauth" | "oidc" | "email" | "webauthn";
  [option: string]: unknown;
}

export type ProviderConfig = CredentialsConfig<any> | OtherProviderConfig;

/** An entry of `providers`: a provider object, or a factory called with no arguments. */
export type Provider = ProviderConfig | ((options?: any) => ProviderConfig);
