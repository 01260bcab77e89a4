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
import { createAuthClient } from "../client.js";

export type { AuthClientResult, SignInOptions, SignOutOptions } from "../client.js";

/**
 * The handler lives at `/auth` under the app's `paths.base` (pass `basePath` if
 * the config sets another). SvelteKit checks the origin of form posts, so the
 * handler wants no CSRF token here.
 */
export const { signIn, signOut } = createAuthClient(() => ({ basePath: `${base}/auth`, csrf: false }), "basePath");
