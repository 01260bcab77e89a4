import type { CredentialInput, CredentialsConfig } from "./types.js";

export type CredentialsUserConfig<Inputs extends Record<string, CredentialInput>> = Partial<
  CredentialsConfig<Inputs>
> &
  Pick<CredentialsConfig<Inputs>, "authorize">;

/**
 * Sign in with anything the application can check itself (a password, a one-time
 * code, a signed assertion). Sessions from this provider use the `jwt` strategy.
 *
 * @example
 * ```ts
 * Credentials({
 *   credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
 *   async authorize({ email, password }) {
 *     const user = await users.verify(String(email), String(password));
 *     return user ?? null; // null shows "invalid credentials" on the sign-in page
 *   },
 * })
 * ```
 */
export function Credentials<Inputs extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  config: CredentialsUserConfig<Inputs>,
): CredentialsConfig<Inputs> {
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {} as Inputs,
    // No default: a provider without `authorize` is a configuration error, not a silent refusal.
    authorize: config?.authorize,
    options: config as Record<string, unknown>,
  };
}
