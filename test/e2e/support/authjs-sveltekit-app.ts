/**
 * A SvelteKit app as an Auth.js user has it, written the way the Auth.js
 * SvelteKit guide shows (https://authjs.dev/getting-started/installation?framework=sveltekit):
 * `@auth/sveltekit` 1.11.3 from npm, `src/auth.ts` exporting `{ handle, signIn, signOut }`,
 * the hook re-exported from `src/hooks.server.ts`, the session loaded in the root
 * layout, and `signIn` / `signOut` as the default form actions of `/signin` and
 * `/signout`. Two providers: `Credentials` (one fixed person) and `Keycloak` taken
 * as Auth.js reads it, from `AUTH_KEYCLOAK_ID`, `_SECRET`, `_ISSUER` in `.env`.
 * JWT sessions, no adapter. The host is trusted through `AUTH_TRUST_HOST` in `.env`,
 * read in `src/auth.ts` itself: `@auth/sveltekit` 1.11.3 sets `trustHost` to `dev`
 * before Auth.js's env defaults run, so in production the variable alone is
 * ignored (nextauthjs/next-auth#12284) and every request fails with UntrustedHost.
 *
 * adapter-node's server does not read `.env` (only Vite's dev and preview
 * servers do): the app runs with `node --env-file=.env build`, Node's own loader,
 * so the same file feeds the app before and after the switch.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { run, type RunningServer, scratchApp, startServer } from "./processes.js";

/** The one person the Credentials provider's `authorize` accepts. */
export const CREDENTIALS_USER = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery staple" } as const;
export const AUTHJS_SVELTEKIT_VERSION = "1.11.3";

export interface AuthjsSvelteKitApp {
  /** The app's folder (sv create's output with the Auth.js files added). */
  dir: string;
  /** The `.env` written, byte for byte. */
  envFile: Buffer;
  /** How long `sv create` + `npm i @auth/sveltekit` took, in ms. */
  createMs: number;
  /** Removes the folder (kept with KEEP_E2E_APPS). */
  remove: () => void;
}

/**
 * `sv create` (offline, as in cli-sveltekit-app) then `npm i @auth/sveltekit@1.11.3`
 * and the guide's files. `env` goes into `.env` after AUTH_SECRET and AUTH_TRUST_HOST.
 */
export async function createAuthjsSvelteKitApp(name: string, env: Record<string, string>): Promise<AuthjsSvelteKitApp> {
  const { work, dir, remove } = scratchApp("authjs", name);
  try {
    const started = Date.now();
    await run("npx", ["-y", "sv@0.17.1", "create", name, "--template", "minimal", "--types", "ts", "--add", "sveltekit-adapter=adapter:node", "--install", "npm"], {
      cwd: work,
      timeoutMs: 300_000,
    });
    // Exact, so the "before" app cannot drift to a later Auth.js between runs.
    await run("npm", ["install", "--save-exact", `@auth/sveltekit@${AUTHJS_SVELTEKIT_VERSION}`], { cwd: dir });
    for (const [path, text] of Object.entries(APP_FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const envText = Object.entries({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", ...env })
      .map(([key, value]) => `${key}=${value}\n`)
      .join("");
    const envFile = Buffer.from(`# Auth.js\n${envText}`);
    writeFileSync(join(dir, ".env"), envFile);
    return { dir, envFile, createMs: Date.now() - started, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** A production build, as `npm run build` is in a shell (vitest's NODE_ENV=test would make Vite build a development one). Returns its duration in ms. */
export async function buildApp(dir: string): Promise<number> {
  const started = Date.now();
  await run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production" } });
  return Date.now() - started;
}

/**
 * `node --env-file=.env build` on 127.0.0.1:port, with adapter-node's ORIGIN on
 * `localhost` (the origin the browser uses). NODE_ENV=production, so nothing but
 * AUTH_TRUST_HOST trusts the host. AUTH_* of the test run's own env are cleared:
 * `--env-file` does not override variables already set.
 */
export function startApp(dir: string, port: number): Promise<RunningServer> {
  const cleared = Object.fromEntries(Object.keys(process.env).filter((key) => key.startsWith("AUTH_")).map((key) => [key, undefined]));
  const env = { ...cleared, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ORIGIN: `http://localhost:${port}` };
  return startServer(process.execPath, ["--env-file=.env", "build"], { cwd: dir, env, port });
}

/** 43 characters, as `npx @gatehouse/cli secret` prints; fixed so the test's .env is reproducible. */
const SECRET = "k5Jx0pWq3vZ8rT1yB6nM4cL9dF2gH7sA0eU5iO3wQ8E";

/** The Auth.js guide's files, each as a user writes it. */
const APP_FILES: Record<string, string> = {
  "src/auth.ts": `import { SvelteKitAuth } from "@auth/sveltekit";
import Credentials from "@auth/sveltekit/providers/credentials";
import Keycloak from "@auth/sveltekit/providers/keycloak";
import { env } from "$env/dynamic/private";

// One fixed person, as a stand-in for the app's own user lookup.
const PERSON = ${JSON.stringify(CREDENTIALS_USER)};

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials) => {
        if (credentials.email !== PERSON.email || credentials.password !== PERSON.password) return null;
        return { id: PERSON.id, name: PERSON.name, email: PERSON.email };
      },
    }),
    // AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER come from the environment.
    Keycloak,
  ],
  session: { strategy: "jwt" },
  // Auth.js's SvelteKit package sets trustHost to \`dev\` before it reads AUTH_TRUST_HOST, so in a
  // production build the variable alone is ignored (nextauthjs/next-auth#12284): read it here.
  trustHost: env.AUTH_TRUST_HOST === "true",
});
`,
  "src/hooks.server.ts": `export { handle } from "./auth";
`,
  "src/routes/+layout.server.ts": `import type { LayoutServerLoad } from "./$types";

export const load: LayoutServerLoad = async (event) => {
  return { session: await event.locals.auth() };
};
`,
  "src/routes/+page.svelte": `<script lang="ts">
  import type { PageProps } from "./$types";

  let { data }: PageProps = $props();
</script>

<h1>Home</h1>
{#if data.session?.user}
  <p id="user">Signed in as {data.session.user.email}</p>
  <form method="POST" action="/signout">
    <input type="hidden" name="redirectTo" value="/" />
    <button>Sign out</button>
  </form>
{:else}
  <p id="user">Not signed in</p>
  <a href="/signin">Sign in</a>
{/if}
`,
  "src/routes/signin/+page.server.ts": `import { signIn } from "../../auth";
import type { Actions } from "./$types";

export const actions = { default: signIn } satisfies Actions;
`,
  "src/routes/signin/+page.svelte": `<h1>Sign in</h1>
<form method="POST" action="/signin">
  <input type="hidden" name="providerId" value="credentials" />
  <input type="hidden" name="redirectTo" value="/" />
  <label>Email <input name="email" type="email" /></label>
  <label>Password <input name="password" type="password" /></label>
  <button>Sign in with password</button>
</form>
<form method="POST" action="/signin">
  <input type="hidden" name="providerId" value="keycloak" />
  <input type="hidden" name="redirectTo" value="/" />
  <button>Sign in with Keycloak</button>
</form>
`,
  "src/routes/signout/+page.server.ts": `import { signOut } from "../../auth";
import type { Actions } from "./$types";

export const actions = { default: signOut } satisfies Actions;
`,
};
