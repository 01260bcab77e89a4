/**
 * `auth doctor`'s checks for the passwordless providers and the Password
 * provider (email + password accounts), as the pure function the command
 * calls: the mail keys, passkeys' WebAuthn switch, the packages they mail or
 * verify with, and the database all three need.
 */
import { describe, expect, it } from "vitest";
import type { DatabaseLookup } from "../../src/generators/app-database.js";
import { diagnose, type DoctorInput } from "../../src/generators/doctor.js";
import { DEFAULT_SOURCE } from "../../src/generators/source-layout.js";

const PGLITE: DatabaseLookup = { found: true, target: { kind: "pglite", dir: ".pglite" } };
const NO_DATABASE: DatabaseLookup = { found: false, reason: "the app has no database driver (pg, @electric-sql/pglite or better-sqlite3) in package.json" };

function findings(config: string, env: Record<string, string> = {}, database: DatabaseLookup = PGLITE, packageJson?: string) {
  return diagnoseAll(config, env, database, packageJson).filter((f) => f.level !== "ok" || f.message.startsWith("provider"));
}

const config = (imports: string, rest = "") => `import { ${imports} } from '@gatehouse/runtime/providers';\nexport const config = { adapter, providers: [${imports}]${rest} };\n`;

describe("auth doctor: email and passkey", () => {
  it("email: AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM empty are a problem, set they are ok", () => {
    expect(findings(config("Nodemailer"))).toContainEqual({ level: "error", message: "Email link: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM not set", fix: "set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM in .env" });
    const set = findings(config("Nodemailer"), { AUTH_EMAIL_SERVER: "smtp://127.0.0.1:2525", AUTH_EMAIL_FROM: "app@example.com" });
    expect(set).toContainEqual({ level: "ok", message: "provider email: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM set" });
    expect(set.filter((f) => f.level !== "ok")).toEqual([expect.objectContaining({ message: expect.stringContaining("no public origin") })]);
  });

  it("passkey: no env keys; without `enableWebAuthn: true` in the config, a problem with its fix", () => {
    expect(findings(config("Passkey", ", experimental: { enableWebAuthn: true }")).filter((f) => f.level === "error")).toEqual([]);
    expect(findings(config("Passkey", ", experimental: { enableWebAuthn: true }"))).toContainEqual({ level: "ok", message: "provider passkey" });
    expect(findings(config("Passkey"))).toContainEqual({
      level: "error",
      message: "src/auth.ts lists Passkey but does not turn on `experimental: { enableWebAuthn: true }`: the runtime refuses the config",
      fix: "run `npx @gatehouse/cli add-provider passkey` (it adds the switch), or add it to the config by hand",
    });
    expect(findings(config("Passkey", ", experimental: { enableWebAuthn: false }")).some((f) => f.message.includes("does not turn on"))).toBe(true);
  });

  it("the packages they need: one not in package.json is a problem naming it and the install; listed ones are fine", () => {
    const pkg = (dependencies: Record<string, string>) => JSON.stringify({ name: "app", dependencies: { "@gatehouse/runtime": "^0.1.0", ...dependencies } });
    const both = config("Nodemailer, Passkey", ", experimental: { enableWebAuthn: true }");
    const env = { AUTH_EMAIL_SERVER: "smtp://127.0.0.1:2525", AUTH_EMAIL_FROM: "app@example.com" };
    expect(findings(both, env, PGLITE, pkg({}))).toContainEqual({
      level: "error",
      message: "nodemailer and @simplewebauthn/server not in package.json (email sends its sign-in links with it; passkeys are verified with it): sign-in with it fails",
      fix: "install it: npm install nodemailer @simplewebauthn/server",
    });
    expect(findings(both, env, PGLITE, pkg({ nodemailer: "^8.0.11" }))).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^@simplewebauthn\/server not in package.json \(passkeys/) }));
    const listed = findings(both, env, PGLITE, pkg({ nodemailer: "^8.0.11", "@simplewebauthn/server": "^14.0.3" }));
    expect(listed.filter((f) => f.message.includes("not in package.json"))).toEqual([]);
  });

  it("either one in an app without a database: a problem naming the provider and the fix; OAuth alone is fine", () => {
    const passkey = findings(config("Passkey", ", experimental: { enableWebAuthn: true }"), {}, NO_DATABASE);
    expect(passkey).toContainEqual({
      level: "error",
      message: "passkey needs a database (Passkey keeps the passkeys there), and the app has none: the runtime refuses the config",
      fix: "set one up with `npx @gatehouse/cli init --adapter pglite --yes` (it keeps your config), then add its `adapter` to the config",
    });
    expect(findings(config("GitHub"), { AUTH_GITHUB_ID: "a", AUTH_GITHUB_SECRET: "b" }, NO_DATABASE).filter((f) => f.level === "error")).toEqual([]);
  });
});

describe("auth doctor: email + password accounts (the Password provider)", () => {
  const password = config("Password");

  it("without a database: a problem naming what it keeps there and the fix", () => {
    expect(findings(password, {}, NO_DATABASE)).toContainEqual({
      level: "error",
      message: "password needs a database (Email and password keeps the accounts and their password hashes there), and the app has none: the runtime refuses the config",
      fix: "set one up with `npx @gatehouse/cli init --adapter pglite --yes` (it keeps your config), then add its `adapter` to the config",
    });
    expect(findings(password).filter((f) => f.message.includes("needs a database"))).toEqual([]);
  });

  it("nodemailer missing from package.json is a problem: its confirmation and reset mails go out with it", () => {
    const pkg = JSON.stringify({ name: "app", dependencies: { "@gatehouse/runtime": "^0.1.0" } });
    expect(findings(password, {}, PGLITE, pkg)).toContainEqual(
      expect.objectContaining({ level: "error", message: expect.stringMatching(/^nodemailer not in package\.json \(password sends its confirmation and reset links with it\)/) }),
    );
    expect(findings(password, {}, PGLITE, JSON.stringify({ name: "app", dependencies: { nodemailer: "^8.0.11" } })).filter((f) => f.message.includes("not in package.json"))).toEqual([]);
  });

  it("AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM set: ok", () => {
    const set = findings(password, { AUTH_EMAIL_SERVER: "smtp://127.0.0.1:2525", AUTH_EMAIL_FROM: "app@example.com" });
    expect(set).toContainEqual({ level: "ok", message: "provider password: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM set" });
    expect(set.filter((f) => f.level === "error")).toEqual([]);
  });

  it("AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM empty, as auth-init leaves them: a warning, not a problem (development prints the links; production fails naming them)", () => {
    const empty = findings(password);
    // The app auth-init writes runs in development without them (the links go to the console and .gatehouse/mail/).
    expect(empty.filter((f) => f.level === "error")).toEqual([]);
    expect(empty).toContainEqual(expect.objectContaining({ level: "warning", message: expect.stringContaining("AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM not set") }));
  });
});

describe("auth doctor: where the rate limit counts", () => {
  const POSTGRES: DatabaseLookup = { found: true, target: { kind: "postgres", url: "postgres://app:secret@127.0.0.1:5432/app" } };
  const DRIZZLE_PG: DatabaseLookup = { found: true, target: { kind: "app-orm", orm: "drizzle", dialect: "postgres", driver: "postgres-js", url: "postgres://127.0.0.1/app", urlEnv: "DATABASE_URL" } };
  const DRIZZLE_PGLITE: DatabaseLookup = { found: true, target: { kind: "app-orm", orm: "drizzle", dialect: "postgres", driver: "pglite", url: ".pglite", urlEnv: "DATABASE_URL" } };
  const SQLITE: DatabaseLookup = { found: true, target: { kind: "sqlite", file: ".data/auth.sqlite" } };
  const env = { AUTH_EMAIL_SERVER: "smtp://127.0.0.1:2525", AUTH_EMAIL_FROM: "app@example.com" };
  const all = (rest: string, database: DatabaseLookup) => diagnoseAll(config("Password", rest), env, database);
  const warning = (findings: { message: string }[]) => findings.filter((f) => f.message.startsWith("rateLimit counts sign-in attempts in each process's memory"));

  it("in memory on a PostgreSQL server (the adapter's own, or an ORM's): a warning that each instance counts for itself, with where the store goes", () => {
    for (const database of [POSTGRES, DRIZZLE_PG]) {
      expect(warning(all(", rateLimit: { ip: 100 }", database))).toEqual([
        {
          level: "warning",
          message:
            "rateLimit counts sign-in attempts in each process's memory, while the app's database is a PostgreSQL server: every instance of the app counts for itself, so two allow twice the attempts, and a restart forgets them",
          fix: "count them in the database: beside the adapter, `export const rateLimitStore = PostgresRateLimitStore(…)` (from @gatehouse/runtime/adapters/postgres, given what PostgresAdapter is given), and `store: rateLimitStore` in rateLimit in src/auth.ts, as auth-init writes them",
        },
      ]);
    }
  });

  it("in memory on the hosted store: the same warning, with the hosted store's own store", () => {
    const HOSTED: DatabaseLookup = { found: true, target: { kind: "hosted-store", url: "postgres://127.0.0.1/store", branch: "main" } };
    expect(warning(all(", rateLimit: { ip: 100 }", HOSTED))).toEqual([
      {
        level: "warning",
        message:
          "rateLimit counts sign-in attempts in each process's memory, while the app's database is the hosted store: every instance of the app counts for itself, so two allow twice the attempts, and a restart forgets them",
        fix: "count them in the database: beside the adapter, `export const rateLimitStore = HostedStoreRateLimitStore(…)` (from @gatehouse/runtime/adapters/hosted-store, given what HostedStoreAdapter is given), and `store: rateLimitStore` in rateLimit in src/auth.ts, as auth-init writes them",
      },
    ]);
  });

  it("with a store (as auth-init writes it, shorthand, or on lines of its own): ok, no warning", () => {
    for (const rest of [", rateLimit: { ip: 100, store: rateLimitStore }", ", rateLimit: { store }", ",\n  rateLimit: {\n    store: PostgresRateLimitStore(pool),\n    ip: 50,\n  }"]) {
      const findings = all(rest, POSTGRES);
      expect(warning(findings), rest).toEqual([]);
      expect(findings, rest).toContainEqual({ level: "ok", message: "rateLimit counts in a store (its `store`), not in each process's memory" });
    }
  });

  it("nothing to say: no rate limit; one it cannot read (a variable, a spread); memory on PGlite (one process opens it) or SQLite", () => {
    expect(warning(all("", POSTGRES))).toEqual([]);
    expect(warning(all(", rateLimit: limits", POSTGRES))).toEqual([]);
    expect(warning(all(", rateLimit: { ...limits }", POSTGRES))).toEqual([]);
    for (const database of [PGLITE, DRIZZLE_PGLITE, SQLITE]) expect(warning(all(", rateLimit: { ip: 100 }", database))).toEqual([]);
  });
});

/** Every finding, the ok ones included. */
function diagnoseAll(config: string, env: Record<string, string>, database: DatabaseLookup, packageJson?: string) {
  const input: DoctorInput = {
    detection: { hasPackageJson: true, frameworks: [{ id: "sveltekit", major: 2 }], packageManager: "npm", source: DEFAULT_SOURCE, envFiles: [".env"], existingAuth: [] },
    env: { AUTH_SECRET: "x".repeat(43), ...env },
    envFileExists: true,
    gitignore: ".env\n",
    authConfig: { path: "src/auth.ts", text: config },
    installedRuntime: "0.1.0",
    cliVersion: "0.1.0",
    database,
    ...(packageJson === undefined ? {} : { packageJson }),
  };
  return diagnose(input);
}
