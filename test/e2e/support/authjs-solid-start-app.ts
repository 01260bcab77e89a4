/**
 * A SolidStart 1.x app as an Auth.js user has it: a copy of the CLI's fixture
 * `test/cli/fixtures/authjs-solid-start` (SolidStart 1.3.2 + vinxi, `@auth/solid-start`
 * 0.19.2 and `@auth/core` pinned) with the auth config and pages written the way
 * `@auth/solid-start`'s README shows: `SolidAuth(authOptions)` in the catch-all
 * route, `getSession(request, authOptions)` in a server function, `signIn` /
 * `signOut` from `@auth/solid-start/client` in the browser. Two providers:
 * `Credentials` (one fixed person) and `Keycloak` fed from `AUTH_KEYCLOAK_ID`,
 * `_SECRET` and `_ISSUER` in `.env`. JWT sessions, no adapter.
 *
 * `@auth/solid-start` 0.19.2 peers on the pre-1.0 `solid-start` (and through it on
 * `@solidjs/router` ^0.8), so a plain `npm install` of this app stops with
 * ERESOLVE: its user needs `legacy-peer-deps=true` in `.npmrc`, which is written
 * here as they would have had to (and which auth-init's own `npm install` reads).
 *
 * Unlike Auth.js's other framework packages, `@auth/solid-start` never runs
 * Auth.js's `setEnvDefaults`: it reads AUTH_SECRET and AUTH_TRUST_HOST itself
 * but not AUTH_<PROVIDER>_*, so the config passes the Keycloak keys from
 * `process.env` by hand, as its users must.
 *
 * The built server (`.output/server/index.mjs`) does not read `.env`: it runs with
 * `node --env-file=.env`, so the same file feeds the app before and after the switch.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run, startServer, type RunningServer } from "./processes.js";

const FIXTURE = fileURLToPath(new URL("../../cli/fixtures/authjs-solid-start/", import.meta.url));

/** The one person the Credentials provider's `authorize` accepts. */
export const CREDENTIALS_USER = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery staple" } as const;
export const AUTHJS_SOLID_START_VERSION = "0.19.2";

/**
 * npm's options for the installs (the test's and auth-init's, which takes them from
 * the environment): metadata from npm's cache when it has it, and no engine-strict
 * (vinxi's nitropack pulls a package asking for Node >= 22).
 */
export const NPM_ENV = { npm_config_prefer_offline: "true", npm_config_engine_strict: "false", npm_config_audit: "false", npm_config_fund: "false" };

export interface AuthjsSolidStartApp {
  dir: string;
  /** The `.env` written, byte for byte. */
  envFile: Buffer;
  /** How long `npm install` took, in ms. */
  installMs: number;
  /** Removes the folder (kept with KEEP_E2E_APPS). */
  remove: () => void;
}

/**
 * The fixture copied, the README's files written over it, `.npmrc` and `.env`
 * (AUTH_SECRET, AUTH_TRUST_HOST, then `env`), and `npm install`.
 */
export async function createAuthjsSolidStartApp(env: Record<string, string>): Promise<AuthjsSolidStartApp> {
  const work = mkdtempSync(join(tmpdir(), "gatehouse-authjs-solid-start-"));
  const dir = join(work, "app");
  const remove = () => {
    if (process.env.KEEP_E2E_APPS) return console.log(`[e2e] Auth.js SolidStart app kept in ${dir}`);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    cpSync(FIXTURE, dir, { recursive: true });
    for (const [path, text] of Object.entries(APP_FILES)) writeFileSync(join(dir, path), text);
    // The config reads process.env, so `tsc` wants Node's types, as in any app whose server code does.
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    pkg.devDependencies = { ...pkg.devDependencies, "@types/node": "^20.19.43" };
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    const tsconfig = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"));
    tsconfig.compilerOptions.types = [...tsconfig.compilerOptions.types, "node"];
    writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
    // Without it `npm install` fails with ERESOLVE (see above); `npm install --legacy-peer-deps` once would not carry over to later installs.
    writeFileSync(join(dir, ".npmrc"), "legacy-peer-deps=true\n");
    const envText = Object.entries({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", ...env })
      .map(([key, value]) => `${key}=${value}\n`)
      .join("");
    const envFile = Buffer.from(`# Auth.js\n${envText}`);
    writeFileSync(join(dir, ".env"), envFile);
    const started = Date.now();
    await run("npm", ["install"], { cwd: dir, env: NPM_ENV, timeoutMs: 400_000 });
    return { dir, envFile, installMs: Date.now() - started, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** `npm run build` (vinxi) for production (vitest's NODE_ENV=test would leak into it). Returns its duration in ms. */
export async function buildApp(dir: string): Promise<number> {
  const started = Date.now();
  await run("npm", ["run", "build"], { cwd: dir, env: { NODE_ENV: "production" } });
  return Date.now() - started;
}

/**
 * `node --env-file=.env .output/server/index.mjs` on 127.0.0.1:port in production
 * mode, the browser using `http://localhost:port`. No AUTH_URL: AUTH_TRUST_HOST from
 * `.env` trusts the host. AUTH_* of the test run's own env are cleared: `--env-file`
 * does not override variables already set.
 */
export function startApp(dir: string, port: number): Promise<RunningServer> {
  const cleared = Object.fromEntries(Object.keys(process.env).filter((key) => key.startsWith("AUTH_")).map((key) => [key, undefined]));
  const env = { ...cleared, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port) };
  return startServer(process.execPath, ["--env-file=.env", join(".output", "server", "index.mjs")], { cwd: dir, env, port });
}

/** 43 characters, as `npx @gatehouse/cli secret` prints; fixed so the test's .env is reproducible. */
const SECRET = "Qm7vX2cR9tL4wZ8yN1pB6sK3dH0fJ5gA2eU8iO4rT7E";

/** The files written over the fixture's, each as an `@auth/solid-start` user writes it. */
const APP_FILES: Record<string, string> = {
  "src/server/auth.ts": `import Credentials from "@auth/solid-start/providers/credentials";
import Keycloak from "@auth/solid-start/providers/keycloak";
import type { SolidAuthConfig } from "@auth/solid-start";

// One fixed person, as a stand-in for the app's own user lookup.
const PERSON = ${JSON.stringify(CREDENTIALS_USER)};

export const authOptions: SolidAuthConfig = {
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials) => {
        if (credentials.email !== PERSON.email || credentials.password !== PERSON.password) return null;
        return { id: PERSON.id, name: PERSON.name, email: PERSON.email };
      },
    }),
    // Auth.js's SolidStart package does not fill providers from AUTH_<PROVIDER>_* itself: pass them.
    Keycloak({
      clientId: process.env.AUTH_KEYCLOAK_ID,
      clientSecret: process.env.AUTH_KEYCLOAK_SECRET,
      issuer: process.env.AUTH_KEYCLOAK_ISSUER,
    }),
  ],
  session: { strategy: "jwt" },
  basePath: "/api/auth",
};
`,
  "src/routes/index.tsx": `import { createAsync, query } from "@solidjs/router";
import { getSession } from "@auth/solid-start";
import { signIn, signOut } from "@auth/solid-start/client";
import { createSignal, onMount, Show } from "solid-js";
import { getRequestEvent } from "solid-js/web";
import { authOptions } from "~/server/auth";

const session = query(async () => {
  "use server";
  return getSession(getRequestEvent()!.request, authOptions);
}, "session");

export default function Home() {
  const current = createAsync(() => session());
  // The buttons run in the browser: say when the page has hydrated.
  const [ready, setReady] = createSignal(false);
  onMount(() => setReady(true));
  let email!: HTMLInputElement;
  let password!: HTMLInputElement;
  return (
    <main data-ready={ready() ? "yes" : "no"}>
      <h1>Home</h1>
      <Show
        when={current()?.user}
        fallback={
          <>
            <p id="user">Not signed in</p>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void signIn("credentials", { email: email.value, password: password.value });
              }}
            >
              <label>
                Email <input ref={email} name="email" type="email" />
              </label>
              <label>
                Password <input ref={password} name="password" type="password" />
              </label>
              <button type="submit">Sign in with password</button>
            </form>
            <button onClick={() => signIn("keycloak")}>Sign in with Keycloak</button>
          </>
        }
      >
        {(user) => (
          <>
            <p id="user">Signed in as {user().email}</p>
            <button onClick={() => signOut({ callbackUrl: "/?signed-out=1" })}>Sign out</button>
          </>
        )}
      </Show>
    </main>
  );
}
`,
  // The fixture's page, on this app's provider.
  "src/routes/about.tsx": `import { createAsync, query } from "@solidjs/router";
import { getSession } from "@auth/solid-start";
import { signIn, signOut } from "@auth/solid-start/client";
import { getRequestEvent } from "solid-js/web";
import { authOptions } from "~/server/auth";

const session = query(async () => {
  "use server";
  return getSession(getRequestEvent()!.request, authOptions);
}, "session");

export default function About() {
  const current = createAsync(() => session());
  return current()?.user ? <button onClick={() => signOut()}>Sign out {current()?.user?.email}</button> : <button onClick={() => signIn("keycloak")}>Sign in</button>;
}
`,
};
