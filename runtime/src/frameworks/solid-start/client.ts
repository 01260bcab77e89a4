/**
 * `@gatehouse/runtime/solid-start/client`: sign in and out from the browser.
 * Fetches the CSRF token and posts the form the handler expects.
 *
 * @example
 * ```tsx
 * import { signIn, signOut } from "@gatehouse/runtime/solid-start/client";
 * <button onClick={() => signIn("github")}>Sign in with GitHub</button>
 * ```
 */
import {
  clientSignIn,
  clientSignOut,
  type AuthClientResult,
  type SignInOptions,
  type SignOutOptions,
} from "../client.js";

export type { AuthClientResult, SignInOptions, SignOutOptions } from "../client.js";

function settings(prefix?: string) {
  return { basePath: prefix ?? "/api/auth", csrf: true };
}

/**
 * Signs in with `providerId` (the built-in sign-in page when omitted). OAuth and
 * email navigate away; credentials with `redirect: false` return the outcome.
 * Pass `prefix` if the catch-all route is not at `/api/auth`.
 */
export function signIn(
  providerId?: string,
  options?: SignInOptions & { prefix?: string },
  authorizationParams?: Record<string, string>,
): Promise<AuthClientResult | undefined> {
  const { prefix, ...rest } = options ?? {};
  return clientSignIn(settings(prefix as string | undefined), providerId, rest, authorizationParams);
}

/** Signs out and goes to `redirectTo` (default: this page). */
export function signOut(options?: SignOutOptions & { prefix?: string }): Promise<AuthClientResult | undefined> {
  const { prefix, ...rest } = options ?? {};
  return clientSignOut(settings(prefix), rest);
}
