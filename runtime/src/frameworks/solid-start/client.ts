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
import { createAuthClient } from "../client.js";

export type { AuthClientResult, SignInOptions, SignOutOptions } from "../client.js";

/** The handler lives at `/api/auth` (pass `prefix` if the catch-all route is elsewhere). */
export const { signIn, signOut } = createAuthClient(() => ({ basePath: "/api/auth", csrf: true }), "prefix");
