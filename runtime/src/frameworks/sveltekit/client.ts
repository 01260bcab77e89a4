/**
 * `@gatehouse/runtime/sveltekit/client`: sign in and out from the browser.
 *
 * @example
 * ```svelte
 * <script lang="ts">
 *   import { signIn, signOut } from "@gatehouse/runtime/sveltekit/client";
 * </script>
 * <button onclick={() => signIn("github")}>Sign in with GitHub</button>
 * <button onclick={() => signOut()}>Sign out</button>
 * ```
 */
import { base } from "$app/paths";
import {
  clientSignIn,
  clientSignOut,
  type AuthClientResult,
  type SignInOptions,
  type SignOutOptions,
} from "../client.js";

export type { AuthClientResult, SignInOptions, SignOutOptions } from "../client.js";

/** The handler's routes: `/auth` under the app's `paths.base`. Pass `basePath` if the config sets another. */
function settings(basePath?: string) {
  // SvelteKit checks the origin of form posts, so the handler wants no CSRF token here.
  return { basePath: basePath ?? `${base}/auth`, csrf: false };
}

/**
 * Signs in with `providerId` (the built-in sign-in page when omitted). OAuth and
 * email navigate away; credentials with `redirect: false` return the outcome.
 */
export function signIn(
  providerId?: string,
  options?: SignInOptions & { basePath?: string },
  authorizationParams?: Record<string, string>,
): Promise<AuthClientResult | undefined> {
  const { basePath, ...rest } = options ?? {};
  return clientSignIn(settings(basePath as string | undefined), providerId, rest, authorizationParams);
}

/** Signs out and goes to `redirectTo` (default: this page). */
export function signOut(options?: SignOutOptions & { basePath?: string }): Promise<AuthClientResult | undefined> {
  const { basePath, ...rest } = options ?? {};
  return clientSignOut(settings(basePath), rest);
}
