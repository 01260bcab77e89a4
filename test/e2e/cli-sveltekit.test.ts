/**
 * The product's main job, end to end: `auth-init --yes` in an empty folder makes
 * a SvelteKit app with email + password accounts — on the embedded PGlite
 * database, on a PostgreSQL server, on a SQLite file (better-sqlite3, compiled
 * by the app's install) and on a hosted store (the svc_ tables on a PostgreSQL
 * server) — that type-checks, builds, starts, and lets a person sign up, sign
 * out and sign in again in headless Chromium. The PostgreSQL and SQLite apps
 * also sign in with Keycloak (`--providers credentials,keycloak`), and one more
 * app has OAuth providers only, no database and JWT sessions: both against a
 * real OpenID provider (oidc-provider on 127.0.0.1) through its login and
 * consent pages. The PostgreSQL app also has the passwordless providers
 * (`email,passkey`): a sign-in link mailed to a real SMTP server on 127.0.0.1,
 * and passkeys on Chromium's virtual authenticator. Last, each app with a
 * database is stopped as a process manager stops it (support/shutdown.ts): its
 * built server, run with node, exits with code 0 within a few seconds of
 * SIGTERM (and of SIGINT on PGlite), its database closed (the PGlite folder
 * opens again in another process).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { claimedAddressTakenBack, EMAIL, resetForgottenPassword, signUpOutAndIn, signUpWithTakenEmail, tooManyWrongPasswords, VICTIM_EMAIL } from "./support/account-flow.js";
import { checkAuthPages } from "./support/accessibility.js";
import { lastWayInRefused, manageAccount, providerOnlyUserCannotDisconnect, renamePasskey } from "./support/account-page-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { startCliSvelteKitApp, type CliSvelteKitApp } from "./support/cli-sveltekit-app.js";
import { LOGIN, PROVIDER, PROVIDER_EMAIL, signInWithProviderTwice, signInWithTakenEmail, startProviderFor, type AppProvider } from "./support/oauth-flow.js";
import { LINK_EMAIL, PASSKEY_EMAIL, passkeySignUpOutAndIn, signInWithEmailLink, startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { freePort, run, startServer } from "./support/processes.js";
import { serverRows, sqliteRows } from "./support/rows.js";
import { expectCleanStop, shutdownSignals, type ShutdownAdapter } from "./support/shutdown.js";
import { slots } from "./support/slots.js";

const serverUrl = process.env.DATABASE_URL;

/** Rows read from where the variant's database keeps them. */
type Read<Row> = (app: CliSvelteKitApp, databaseUrl: string | undefined) => Promise<Row[]>;

interface Variant {
  name: string;
  args: string[];
  /** The driver auth-init adds to package.json; absent without a database. */
  driver?: string;
  /** The database the app is made with (`--adapter`); absent without one. */
  adapter?: ShutdownAdapter;
  /** The variant gets a database of its own on the PostgreSQL server, as --database-url. */
  server?: boolean;
  /** Email + password accounts (sign-up needs a database). */
  credentials: boolean;
  /** Also `--providers ...,keycloak`: sign-in through oidc-provider. */
  oauth?: boolean;
  /** Also `--providers ...,email,passkey`: a mailed sign-in link and passkeys. */
  passwordless?: boolean;
  /** `--strategy jwt` with a database. */
  jwt?: boolean;
  /** `auth` commands run after auth-init, before the build. */
  afterInit?: string[][];
  /** Every user by email, with whether a password hash is stored. Absent for PGlite: the running app holds its folder alone. */
  users?: Read<{ email: string; hashed: boolean }>;
  /** The accounts linked to Keycloak, with their user's email. */
  keycloakAccounts?: Read<{ email: string; providerAccountId: string }>;
}

const USERS_SQL = `SELECT u.email, p.hash IS NOT NULL AS hashed FROM users u LEFT JOIN user_passwords p ON p."userId" = u.id ORDER BY u.email`;
const KEYCLOAK_SQL = `SELECT u.email, a."providerAccountId" FROM accounts a JOIN users u ON u.id = a."userId" WHERE a.provider = '${PROVIDER.id}'`;

const variants: Variant[] = [
  { name: "pglite", args: [], driver: "@electric-sql/pglite", adapter: "pglite", credentials: true },
  {
    name: "postgres",
    args: ["--adapter", "postgres", "--providers", `credentials,${PROVIDER.id},email,passkey`],
    driver: "pg",
    adapter: "postgres",
    server: true,
    credentials: true,
    oauth: true,
    passwordless: true,
    users: (_app, url) => serverRows(url!, USERS_SQL),
    keycloakAccounts: (_app, url) => serverRows(url!, KEYCLOAK_SQL),
  },
  // JWT sessions: "sign out everywhere else" and a password change end the other browsers' JWTs too.
  {
    name: "sqlite",
    args: ["--adapter", "sqlite", "--strategy", "jwt", "--providers", `credentials,${PROVIDER.id}`],
    jwt: true,
    driver: "better-sqlite3",
    adapter: "sqlite",
    credentials: true,
    oauth: true,
    users: async (app) => (await sqliteRows<{ email: string; hashed: number }>(join(app.dir, ".data/auth.sqlite"), USERS_SQL)).map((row) => ({ email: row.email, hashed: row.hashed === 1 })),
    keycloakAccounts: (app) => sqliteRows(join(app.dir, ".data/auth.sqlite"), KEYCLOAK_SQL),
  },
  {
    name: "hosted-store",
    args: ["--adapter", "hosted-store"],
    driver: "pg",
    adapter: "hosted-store",
    server: true,
    credentials: true,
    users: (_app, url) => serverRows(url!, `SELECT u.email, p.hash IS NOT NULL AS hashed FROM "main".svc_users u LEFT JOIN "main".svc_user_passwords p ON p."user" = u.id ORDER BY u.email`),
  },
  // OAuth providers only, no database: JWT sessions, nothing to sign up. GitHub is added
  // afterwards with `auth add-provider`, so the build and svelte-check prove its edit too.
  {
    name: "oauth-only",
    args: ["--providers", PROVIDER.id, "--adapter", "none", "--strategy", "jwt"],
    afterInit: [["add-provider", "github"]],
    credentials: false,
    oauth: true,
  },
];

/** A variant's app with what it talks to: its database on the server, its OpenID provider, its SMTP server. */
interface Made {
  app: CliSvelteKitApp;
  database?: TestDatabase;
  provider?: AppProvider;
  mail?: AppMail;
}

async function release({ app, provider, mail, database }: Partial<Made>): Promise<void> {
  await app?.stop();
  await provider?.server.close();
  await mail?.server.close();
  await database?.drop();
}

/** The apps' ports, chosen before the apps start (the OpenID provider must know its callback URL): never one twice. */
const chosenPorts = new Set<number>();
async function distinctFreePort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (!chosenPorts.has(port)) {
      chosenPorts.add(port);
      return port;
    }
  }
}

/** The builds (a CPU each, and much memory) two at a time; sv create and the installs go on beside them. */
const buildSlots = slots(2);

async function make(variant: Variant): Promise<Made> {
  const made: Partial<Made> = {};
  try {
    if (variant.server) made.database = await createTestDatabase(serverUrl!, "e2e");
    const args = made.database ? [...variant.args, "--database-url", made.database.url] : variant.args;
    // The provider must know the app's callback URL before the app starts: the port comes first.
    const port = await distinctFreePort();
    if (variant.oauth) made.provider = await startProviderFor(`http://localhost:${port}`, "/auth");
    // Sign-up and password reset mail their links, as email sign-in does: to a real SMTP server.
    if (variant.passwordless || variant.credentials) made.mail = await startMailFor();
    const env = { ...made.provider?.env, ...made.mail?.env };
    made.app = await startCliSvelteKitApp(`app-${variant.name}`, args, { port, env, afterInit: variant.afterInit, buildSlots });
    return made as Made;
  } catch (error) {
    await release(made);
    throw error;
  }
}

/** The variants that run here: those on the PostgreSQL server need DATABASE_URL. */
const ready = variants.filter((variant) => !variant.server || serverUrl !== undefined);
const making = new Map<string, Promise<Made>>();

// Every app is made before the first test, all at once: each one's auth-init (sv create and two npm
// installs) waits much on the network and the disk, so they overlap well (the builds take turns).
// Made before the tests rather than beside them: the browser steps' timeouts assume a machine not
// also building. A variant whose app fails fails its own tests (its describe's beforeAll throws).
beforeAll(async () => {
  const started = Date.now();
  for (const variant of ready) making.set(variant.name, make(variant));
  await Promise.allSettled(making.values());
  console.log(`[e2e] cli-sveltekit: ${ready.length} apps made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 900_000);

for (const variant of variants) {
  describe.skipIf(!ready.includes(variant))(`auth-init --yes ${variant.args.join(" ")} (SvelteKit, ${variant.name})`, () => {
    let app: CliSvelteKitApp;
    let database: TestDatabase | undefined;
    let provider: AppProvider | undefined;
    let mail: AppMail | undefined;

    beforeAll(async () => {
      ({ app, database, provider, mail } = await making.get(variant.name)!);
    });

    afterAll(async () => {
      const made = await making.get(variant.name)!.catch(() => undefined);
      if (made) await release(made);
    });

    it("wrote what it said, with this checkout's runtime, and ends with next steps", () => {
      expect(app.initOutput).toContain("created src/auth.ts");
      expect(app.initOutput).toContain("Next steps:");
      const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"));
      expect(pkg.dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
      if (variant.driver) expect(pkg.dependencies[variant.driver]).toBeDefined();
      else for (const driver of ["@electric-sql/pglite", "pg", "better-sqlite3"]) expect(pkg.dependencies[driver]).toBeUndefined();
      // The build names no package it could not resolve: the runtime's optional modules (nodemailer) are not literals it chases.
      expect(app.buildOutput).not.toMatch(/could not be resolved/);
      // `vite build` imported the server modules and the server has started: the database opens on first use only.
      if (variant.name === "sqlite") expect(existsSync(join(app.dir, ".data"))).toBe(false);
    });

    it.skipIf(!variant.oauth)("with Keycloak: empty env placeholders, and next steps with the callback URL to register and the keys to fill", () => {
      const keys = ["ID", "SECRET", "ISSUER"].map((suffix) => `AUTH_KEYCLOAK_${suffix}`);
      for (const file of [".env", ".env.example"]) {
        const text = readFileSync(join(app.dir, file), "utf8");
        for (const key of keys) expect(text, file).toMatch(new RegExp(`^${key}=$`, "m"));
      }
      expect(app.initOutput).toContain(`Register the callback URL http://localhost:5173/auth/callback/keycloak for Keycloak, then set ${keys[0]}, ${keys[1]} and ${keys[2]} in .env.`);
      expect(app.initOutput).toContain("The issuer is https://<keycloak host>/realms/<realm>.");
    });

    it.skipIf(!variant.afterInit)("auth add-provider github edited the config the app was built from: the handler lists GitHub", async () => {
      expect(readFileSync(join(app.dir, "src/auth.ts"), "utf8")).toMatch(/import \{[^}]*\bGitHub\b[^}]*\} from '@gatehouse\/runtime\/providers'/);
      expect(app.initOutput).toContain("Register the callback URL http://localhost:5173/auth/callback/github for GitHub");
      const providers = (await (await fetch(`${app.server.origin}/auth/providers`)).json()) as Record<string, { type: string }>;
      expect(Object.keys(providers).sort()).toEqual(["github", "keycloak"]);
    });

    it.skipIf(variant.name !== "pglite")("in production without a mail server the app refuses to start, naming the settings", async () => {
      const port = await freePort();
      const env = { NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ORIGIN: `http://localhost:${port}`, AUTH_EMAIL_SERVER: "", AUTH_EMAIL_FROM: "" };
      // A server that starts anyway is stopped again, and what it printed shown.
      const outcome = await startServer("npm", ["start"], { cwd: app.dir, env, port }).then(
        async (server) => {
          await server.stop();
          return `started on ${port}:\n${server.output()}`;
        },
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/exited before answering[\s\S]*AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM must be set in production/);
    }, 90_000);

    it("the generated code type-checks with svelte-check (0 errors, 0 warnings)", async () => {
      const output = await run("npx", ["svelte-check", "--tsconfig", "./tsconfig.json", "--output", "machine"], { cwd: app.dir });
      expect(output).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
    }, 120_000);

    describe.skipIf(!hasChromium)("in Chromium", () => {
      const { freshPage, shot } = useBrowser(`cli-sveltekit-${variant.name}`);

      // Every variant with a database has the account page, where a sign-in without a destination lands.
      const account = () => ({ origin: app.server.origin, returnParam: "redirectTo", userLine: "p", home: variant.driver ? "/account" : "/", jwt: variant.jwt }) as const;

      it.skipIf(!variant.credentials)("sign up, see the protected page, sign out, a wrong password is refused generically, sign in again", async () => {
        await signUpOutAndIn(await freshPage(), shot, account(), mail!.server);
        // Each step hashes a password (scrypt, 32 MiB): generous on a busy 2-vCPU machine.
      }, 120_000);

      it.skipIf(!variant.credentials)("signing up again with a taken email answers as for a free one, mails the owner, and signs nobody in", async () => {
        const origin = app.server.origin;
        const page = await freshPage();
        await signUpWithTakenEmail(page, account(), mail!.server);
        await page.goto(`${origin}/protected`);
        await page.waitForURL(`${origin}/signin?redirectTo=%2Fprotected`);
        await shot(page, "taken-email");
      }, 60_000);

      it.skipIf(!variant.credentials)("forgot password: the mailed link sets a new one and signs in; the other browser's session ends; the link works once", async () => {
        await resetForgottenPassword(await freshPage(), shot, account(), mail!.server);
      }, 180_000);

      it.skipIf(!variant.credentials)("an address someone else signed up with first: they cannot sign in, and its owner takes it back with a reset", async () => {
        await claimedAddressTakenBack(await freshPage(), shot, account(), mail!.server);
      }, 180_000);

      it.skipIf(!variant.credentials)("the sixth wrong password for one email address in 15 minutes: the form says too many attempts", async () => {
        const page = await freshPage();
        await tooManyWrongPasswords(page, account(), async () => {
          await expect.poll(() => page.locator("[role=alert]").innerText(), { timeout: 20_000 }).toBe("Too many sign-in attempts. Please wait a few minutes and try again.");
          // The form action's URL carries where a sign-in goes (the account page).
          expect(page.url()).toBe(`${app.server.origin}/signin?redirectTo=%2Faccount`);
          await shot(page, "too-many-attempts");
        });
      }, 120_000);

      it.skipIf(!variant.oauth)("sign in with Keycloak through the provider's login and consent pages, sign out, sign in again as the same person", async () => {
        await signInWithProviderTwice(await freshPage(), shot, account(), provider!.server);
        expect(provider!.server.serverErrors).toEqual([]);
      }, 90_000);

      it.skipIf(!(variant.oauth && variant.credentials))("Keycloak saying the password account's email without having verified it: refused, back on the app's sign-in page with its message; nobody signed in", async () => {
        await signInWithTakenEmail(await freshPage(), shot, account(), provider!.server);
      }, 60_000);

      it.skipIf(!variant.passwordless)("sign in with a link from the mail (through its confirmation page); the used link is refused afterwards", async () => {
        await signInWithEmailLink(await freshPage(), shot, account(), mail!.server);
      }, 90_000);

      it.skipIf(!variant.passwordless)("register with a passkey and a new email, sign out, sign in with the passkey by email and without one; on the account page, rename it, and it cannot be removed (the only way in)", async () => {
        const page = await freshPage();
        await passkeySignUpOutAndIn(page, shot, account());
        await renamePasskey(page, account(), "Work laptop");
        await lastWayInRefused(page, shot, account(), "passkeys");
      }, 120_000);

      it.skipIf(!variant.users)("the adapter's tables: one user per person, a password hash only for the one who signed up with a password", async () => {
        const passwordless = variant.passwordless ? [{ email: LINK_EMAIL, hashed: false }, { email: PASSKEY_EMAIL, hashed: false }] : [];
        const expected = [{ email: EMAIL, hashed: true }, { email: VICTIM_EMAIL, hashed: true }, ...(variant.oauth ? [{ email: PROVIDER_EMAIL, hashed: false }] : []), ...passwordless].sort((a, b) => a.email.localeCompare(b.email));
        expect(await variant.users!(app, database?.url)).toEqual(expected);
      });

      it.skipIf(!variant.keycloakAccounts)("two sign-ins with Keycloak made one account, linked to that one user", async () => {
        expect(await variant.keycloakAccounts!(app, database?.url)).toEqual([{ email: PROVIDER_EMAIL, providerAccountId: LOGIN }]);
      });

      it("every page has a title, passes axe-core's WCAG 2.1 A and AA rules, and Tab goes through the form in order", async () => {
        await checkAuthPages(await freshPage(), shot, app.server.origin, variant.credentials);
      }, 60_000);

      it.skipIf(!variant.driver)("the account page: the name, two browsers and sign out everywhere else, the password, sessions, passkeys, a provider connected and disconnected, deleting the account", async () => {
        await manageAccount(await freshPage(), shot, account(), mail!.server, { passkeys: variant.passwordless, provider: variant.oauth ? provider!.server : undefined });
      }, 240_000);

      it.skipIf(!(variant.oauth && variant.driver && variant.credentials))("the account page never takes away the last way in: a provider-only user cannot disconnect it, and sets a first password by mail", async () => {
        await providerOnlyUserCannotDisconnect(await freshPage(), shot, account(), provider!.server, mail!.server);
      }, 90_000);

      it.skipIf(variant.driver !== undefined)("without a database there is no account page", async () => {
        expect((await fetch(`${app.server.origin}/account`)).status).toBe(404);
      });
    });

    // Last: the app's `npm start` server stops first (PGlite allows one process per folder; stop() is
    // safe to call again in afterAll). Without a database (oauth-only) there is nothing to close.
    const adapter = variant.adapter;
    if (adapter) {
      it.each(shutdownSignals(adapter))(
        "the built server, run with node as a process manager runs it, exits with code 0 within a few seconds of %s, its database closed",
        async (signal) => {
          await app.server.stop();
          await expectCleanStop(app.dir, { framework: "sveltekit", adapter, signal, jwt: variant.jwt, env: { ...provider?.env, ...mail?.env } });
        },
        60_000,
      );
    }
  });
}
