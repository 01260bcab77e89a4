/**
 * `auth-init` through its real built binary, in temporary copies of sv's minimal
 * app (no install: `--no-install`, or an install that is meant to fail). Flags,
 * `--dry-run`, refusals without a terminal, re-runs and files the user changed.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { providerCatalog } from "../../runtime/src/providers/catalog.js";
import { readEnvValue } from "../../src/generators/dotenv.js";
import { ADAPTERS } from "../../src/generators/init/answers.js";
import { isAppOrm } from "../../src/generators/init/choices.js";
import { needsAdapter } from "../../src/generators/passwordless.js";
import { authBin, authInitBin, cli, hasScript, onTerminal, removeAll, snapshotDir, tempCopy } from "./support/cli.js";

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const app = () => tempCopy("sveltekit-minimal", "init", dirs);
const init = (args: string[], cwd: string, env: Record<string, string | undefined> = {}) => cli(authInitBin, args, cwd, env, 60_000);
const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
/** Skips packing the checkout's runtime where a test does not need it. */
const RUNTIME = ["--runtime", "^0.1.0"];
const ALL_FLAGS = ["--providers", "password", "--adapter", "pglite", "--strategy", "database", "--no-install", ...RUNTIME];
/** The Password provider's mail keys in .env and .env.example: empty, each under its comment. */
const MAIL_KEYS =
  '# Mail: the SMTP server the app\'s links go out through (sign-in, sign-up confirmation, password reset), e.g. smtp://user:password@smtp.example.com:587\nAUTH_EMAIL_SERVER=\n# Mail: the sender of those mails, e.g. "Example <no-reply@example.com>"\nAUTH_EMAIL_FROM=\n';

describe("auth-init (built binary)", () => {
  it("--yes --no-install sets up the app: the Password provider, its pages, hooks, db, .env with a 43-char secret and the mail keys, .gitignore, package.json", () => {
    const dir = app();
    const run = init(["--yes", "--no-install", ...RUNTIME], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const pages = ["src/routes/signin/+page.svelte", "src/routes/signup/+page.svelte", "src/routes/forgot-password/+page.svelte", "src/routes/reset-password/+page.svelte", "src/routes/account/+page.svelte"];
    for (const path of ["src/auth.ts", "src/hooks.server.ts", ...pages, "src/lib/auth-messages.ts", "src/lib/auth.css", "src/lib/AuthField.svelte", "src/lib/server/db.ts"]) {
      expect(run.stdout).toContain(`created ${path}`);
      expect(existsSync(join(dir, path))).toBe(true);
    }
    // The runtime's Password provider does the work: no password module or sign-up action of the app's own.
    for (const path of ["src/routes/signup/+page.server.ts", "src/lib/server/passwords.ts", "src/lib/server/sign-up-errors.ts"]) expect(existsSync(join(dir, path))).toBe(false);
    expect(read(dir, "src/auth.ts")).toContain("Password({ developmentMail: dev }),");
    expect(readEnvValue(read(dir, ".env"), "AUTH_SECRET")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(read(dir, ".env")).toMatch(/\nAUTH_EMAIL_SERVER=\n[^\n]*\nAUTH_EMAIL_FROM=\n$/);
    expect(read(dir, ".env.example")).toBe(`AUTH_SECRET=\n${MAIL_KEYS}`);
    // Development mail (.gatehouse/mail/) holds sign-in links: never committed.
    expect(read(dir, ".gitignore")).toContain("\n.pglite/\n.gatehouse/\n");
    expect(JSON.parse(read(dir, "package.json")).dependencies).toEqual({ "@electric-sql/pglite": expect.any(String), "@gatehouse/runtime": "^0.1.0", nodemailer: expect.any(String) });
    expect(run.stdout).toContain("Next steps:");
    expect(run.stdout).toContain("http://localhost:5173/signup");
    expect(run.stdout).toContain("In development, with AUTH_EMAIL_SERVER empty, the link is printed on the dev server's console (and kept in .gatehouse/mail/)");
  });

  it("--no-account-page: no /account page, sign-in lands on the home page; a later run without the flag adds the page and keeps the rest", () => {
    const dir = app();
    const run = init(["--yes", "--no-install", "--no-account-page", ...RUNTIME], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(dir, "src/routes/account"))).toBe(false);
    expect(read(dir, "src/routes/signin/+page.svelte")).toContain("?? '/')");
    expect(run.stdout).not.toContain("/account");
    // Asked for later: the page comes; the pages already written stay as they are (kept, with a message).
    const again = init(["--yes", "--no-install", ...RUNTIME], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("created src/routes/account/+page.svelte");
    expect(again.stdout).toMatch(/kept src\/routes\/signin\/\+page\.svelte: .*differs from what auth-init writes/);
  });

  it("a second run changes nothing (the secret included) and says so", () => {
    const dir = app();
    expect(init(["--yes", "--no-install", ...RUNTIME], dir).code).toBe(0);
    const before = snapshotDir(dir);
    const again = init(["--yes", "--no-install", ...RUNTIME], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Nothing to change");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it.skipIf(process.platform === "win32")("an existing .env others can read (0644) is made 0600 as the secrets go in, with a warning whose command replaces the exposed AUTH_SECRET", () => {
    const dir = app();
    const old = "old-secret-0123456789-abcdefghijklmnopqrstuvw";
    writeFileSync(join(dir, ".env"), `AUTH_SECRET="${old}"\nDATABASE_URL=postgres://app:pw@db/app\n`);
    chmodSync(join(dir, ".env"), 0o644);
    const run = init(["--yes", "--no-install", ...RUNTIME], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    // auth-init keeps an existing secret: the one others could read is still the one in use.
    expect(readEnvValue(read(dir, ".env"), "AUTH_SECRET")).toBe(old);
    expect(run.stderr).toContain("Warning: .env was readable by other users of this machine (mode 0644); it is now 0600 (only its owner can read it).");
    expect(run.stderr).toContain("A secret that was in it before may have been read.");
    expect(run.stderr).toContain("--rotate would keep the exposed secret valid");
    expect(run.stderr).not.toContain(old);

    // The printed command works as printed (npx @gatehouse/cli = this checkout's bin) and leaves nothing exposed.
    const command = /Replace its AUTH_SECRET: `([^`]+)`/.exec(run.stderr)?.[1];
    expect(command).toBe("npx @gatehouse/cli secret --yes");
    const replace = cli(authBin, command!.split(" ").slice(2), dir);
    expect(replace.code, replace.stderr).toBe(0);
    expect(readEnvValue(read(dir, ".env"), "AUTH_SECRET")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(read(dir, ".env")).not.toContain(old);
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
  });

  it("a file the user changed is left alone with a message; the rest is still set up", () => {
    const dir = app();
    writeFileSync(join(dir, "src/auth.ts"), "// my own config\n");
    const run = init(["--yes", "--no-install", ...RUNTIME], dir);
    expect(run.code).toBe(0);
    expect(read(dir, "src/auth.ts")).toBe("// my own config\n");
    expect(run.stdout).toMatch(/kept src\/auth\.ts: .*differs from what auth-init writes/);
    expect(existsSync(join(dir, "src/routes/signin/+page.server.ts"))).toBe(true);
    // Each kept line names its file once.
    const kept = run.stdout.split("\n").filter((line) => line.startsWith("kept "));
    expect(kept).toContain("kept src/auth.ts: it exists and differs from what auth-init writes");
    for (const line of kept) expect(line.split(line.slice(5, line.indexOf(": "))).length, line).toBe(2);
  });

  it("--dry-run on an app with nothing to do says only that; with only an install to run, it lists just that (no packages or env keys already there)", () => {
    const dir = app();
    expect(init(["--yes", "--no-install", ...RUNTIME], dir).code).toBe(0);
    const before = snapshotDir(dir);
    const nothing = init(["--yes", "--no-install", "--dry-run", ...RUNTIME], dir);
    expect(nothing).toMatchObject({ code: 0, stderr: "", stdout: "Nothing to change: the app is already set up.\n" });

    const install = init(["--yes", "--dry-run", ...RUNTIME], dir);
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/^No file to change\.\nwould run `npm install`\n\nNext steps:/);
    expect(install.stdout).not.toMatch(/Nothing to change|dependencies:|env keys:/);

    // A new provider: the files, the env keys, and only the packages package.json lacks.
    const more = init(["--yes", "--no-install", "--dry-run", ...RUNTIME, "--providers", "password,passkey,github"], dir);
    expect(more.code).toBe(0);
    expect(more.stdout).not.toContain("Nothing to change");
    expect(more.stdout).toContain("edit .env\n");
    expect(more.stdout).toMatch(/^dependencies: @simplewebauthn\/server@\S+$/m);
    expect(more.stdout).not.toMatch(/^devDependencies:/m);
    expect(more.stdout).toContain("env keys: AUTH_SECRET, ");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("an existing hooks.server.ts is composed with sequence, in the file's own quotes", () => {
    const dir = app();
    writeFileSync(join(dir, "src/hooks.server.ts"), "import type { Handle } from '@sveltejs/kit';\n\nexport const handle: Handle = ({ event, resolve }) => resolve(event);\n");
    expect(init(["--yes", "--no-install", ...RUNTIME], dir).code).toBe(0);
    const hooks = read(dir, "src/hooks.server.ts");
    expect(hooks).toContain("import { handle as authHandle } from './auth';");
    expect(hooks).toContain("export const handle = sequence(authHandle, appHandle);");
  });

  it("--dry-run prints every file with a diff, hides secret values, and writes nothing", () => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = init(["--yes", "--dry-run", ...RUNTIME], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("create src/auth.ts");
    expect(run.stdout).toContain("+export const { handle, signIn, signOut } = SvelteKitAuth({");
    expect(run.stdout).toContain("edit src/app.d.ts");
    expect(run.stdout).toContain("-\t\t// interface Locals {}");
    expect(run.stdout).toContain("+AUTH_SECRET=<hidden>");
    expect(run.stdout).not.toMatch(/AUTH_SECRET="/);
    expect(run.stdout).toContain("dependencies: @gatehouse/runtime@^0.1.0, @electric-sql/pglite@");
    expect(run.stdout).toContain("would run `npm install`");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("not on a terminal and without --yes: exit 2 naming the missing flags; nothing written", () => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = init(["--no-install"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not running in a terminal");
    expect(run.stderr).toContain("--providers, --adapter, --strategy");
    expect(run.stderr).toContain("--yes");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("not on a terminal but with every answer as a flag: no --yes needed", () => {
    const dir = app();
    const run = init(ALL_FLAGS, dir);
    expect(run.code).toBe(0);
    expect(read(dir, "src/auth.ts")).toContain("strategy: 'database'");
  });

  it("--adapter postgres --database-url: DATABASE_URL in .env, pg and @types/pg in package.json", () => {
    const dir = app();
    const run = init(["--yes", "--no-install", ...RUNTIME, "--adapter", "postgres", "--database-url", "postgres://app:pw@127.0.0.1:5432/app"], dir);
    expect(run.code).toBe(0);
    expect(readEnvValue(read(dir, ".env"), "DATABASE_URL")).toBe("postgres://app:pw@127.0.0.1:5432/app");
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg.dependencies.pg).toBeDefined();
    expect(pkg.devDependencies["@types/pg"]).toBeDefined();
    expect(read(dir, ".gitignore")).not.toContain(".pglite");
  });

  it("--adapter sqlite: better-sqlite3 and its types in package.json, .data/ git-ignored, no database URL in .env", () => {
    const dir = app();
    const run = init(["--yes", "--no-install", ...RUNTIME, "--adapter", "sqlite"], dir);
    expect(run.code, run.stderr).toBe(0);
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg.dependencies["better-sqlite3"]).toBeDefined();
    expect(pkg.devDependencies["@types/better-sqlite3"]).toBeDefined();
    expect(read(dir, ".gitignore")).toContain("\n.data/\n");
    // No database key in .env: SQLITE_PATH is read when set, never written.
    expect(read(dir, ".env.example")).toBe(`AUTH_SECRET=\n${MAIL_KEYS}`);
    expect(read(dir, "src/lib/server/db.ts")).toContain("new BetterSqlite3(file)");
    expect(existsSync(join(dir, ".data"))).toBe(false);
  });

  it("--adapter hosted-store --database-url: HOSTED_STORE_DATABASE_URL and HOSTED_STORE_BRANCH in .env, pg in package.json", () => {
    const dir = app();
    const run = init(["--yes", "--no-install", ...RUNTIME, "--adapter", "hosted-store", "--database-url", "postgres://app:pw@127.0.0.1:5432/store"], dir);
    expect(run.code, run.stderr).toBe(0);
    const env = read(dir, ".env");
    expect(readEnvValue(env, "HOSTED_STORE_DATABASE_URL")).toBe("postgres://app:pw@127.0.0.1:5432/store");
    expect(readEnvValue(env, "HOSTED_STORE_BRANCH")).toBe("main");
    expect(readEnvValue(env, "DATABASE_URL")).toBeUndefined();
    expect(JSON.parse(read(dir, "package.json")).dependencies.pg).toBeDefined();
    expect(run.stdout).not.toContain("Set HOSTED_STORE_DATABASE_URL");
  });

  it("not on a terminal: --adapter hosted-store, like postgres, needs --database-url too; --yes leaves a placeholder to fill in", () => {
    const dir = app();
    const flags = ["--providers", "password", "--adapter", "hosted-store", "--strategy", "database", "--no-install", ...RUNTIME];
    const missing = init(flags, dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("pass --database-url");
    const placeholder = init([...flags, "--yes"], dir);
    expect(placeholder.code, placeholder.stderr).toBe(0);
    expect(placeholder.stdout).toContain("Set HOSTED_STORE_DATABASE_URL in .env");
  });

  it("--providers password,keycloak: the provider listed in the config, empty keys in .env and .env.example, and what to register where", () => {
    const dir = app();
    const run = init(["--yes", "--no-install", ...RUNTIME, "--providers", "password,keycloak"], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(read(dir, "src/auth.ts")).toContain("import { Password, Keycloak } from '@gatehouse/runtime/providers';");
    expect(read(dir, "src/routes/signin/+page.svelte")).toContain('<SignIn provider="keycloak" {redirectTo} class="auth-secondary">');
    for (const file of [".env", ".env.example"]) expect(read(dir, file)).toMatch(/\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n$/);
    expect(run.stdout).toContain("1. Register the callback URL http://localhost:5173/auth/callback/keycloak for Keycloak, then set AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER in .env. Enter it as a valid redirect URI");
    // Until the issuer is set only Keycloak's own sign-in refuses; passwords work meanwhile.
    expect(run.stdout).not.toContain("every auth route");
    // A value the user already set is kept, and the next run asks only for what is still empty.
    writeFileSync(join(dir, ".env"), read(dir, ".env").replace("AUTH_KEYCLOAK_ISSUER=", "AUTH_KEYCLOAK_ISSUER=https://sso.example.com/realms/app"));
    // credentials, the older id of email + password accounts, is the same provider: nothing to change.
    const again = init(["--yes", "--no-install", ...RUNTIME, "--providers", "credentials,keycloak"], dir);
    expect(again.stdout).toContain("Nothing to change");
    expect(read(dir, ".env")).toContain("AUTH_KEYCLOAK_ISSUER=https://sso.example.com/realms/app\n");
    expect(again.stdout).toContain("then set AUTH_KEYCLOAK_ID and AUTH_KEYCLOAK_SECRET in .env.");
    expect(again.stdout).not.toContain("Until AUTH_KEYCLOAK_ISSUER");
  });

  it("--providers email,passkey --yes: PGlite (the default) holds their tokens and passkeys, and the next steps say so; the SMTP keys in .env", () => {
    const dir = app();
    const run = init(["--yes", "--no-install", ...RUNTIME, "--providers", "email,passkey"], dir);
    expect(run.code, run.stderr).toBe(0);
    const config = read(dir, "src/auth.ts");
    expect(config).toContain("import { Nodemailer, Passkey } from '@gatehouse/runtime/providers';");
    expect(config).toContain("experimental: { enableWebAuthn: true }");
    expect(config).toContain("import { adapter, closeDatabase } from '$lib/server/db';");
    for (const file of [".env", ".env.example"]) expect(read(dir, file)).toMatch(/\nAUTH_EMAIL_SERVER=\n# [^\n]*\nAUTH_EMAIL_FROM=\n$/);
    expect(JSON.parse(read(dir, "package.json")).dependencies).toEqual({ "@electric-sql/pglite": expect.any(String), "@gatehouse/runtime": "^0.1.0", nodemailer: expect.any(String), "@simplewebauthn/server": expect.any(String) });
    expect(run.stdout).toContain("email and passkey need a database (Email link keeps its one-time sign-in tokens there, Passkey the passkeys): they use the embedded PGlite database (.pglite/");
    expect(run.stdout).toContain("Set AUTH_EMAIL_SERVER to your SMTP server's URL");
    expect(run.stdout).toContain("open http://localhost:5173/signin");
  });

  it.each([
    [["--adapter", "mysql"], /argument 'mysql' is invalid/],
    [["--framework", "next"], /argument 'next' is invalid/],
    [["--providers", "password,nope"], /unknown provider "nope": known ones are password, email, passkey/],
    [["--strategy", "database", "--adapter", "none"], /choose an --adapter/],
    [["--database-url", "postgres://x/y"], /only used with --adapter postgres or hosted-store/],
    [["--adapter", "sqlite", "--database-url", "postgres://x/y"], /not used with --adapter sqlite: .*set SQLITE_PATH in \.env/],
    [["--adapter", "hosted-store", "--database-url", "mysql://x/y"], /postgres:\/\/ or postgresql:\/\//],
    [["--adapter", "none", "--strategy", "database"], /choose an --adapter \(pglite, postgres, sqlite, hosted-store\)/],
    [["--adapter", "postgres", "--database-url", "mysql://x/y"], /postgres:\/\/ or postgresql:\/\//],
    [["--providers", "email", "--adapter", "none"], /email needs a database \(Email link keeps its one-time sign-in tokens there\): use --adapter pglite/],
    [["--providers", "github,passkey", "--adapter", "none", "--strategy", "jwt"], /passkey needs a database \(Passkey keeps the passkeys there\): use --adapter pglite .*instead of --adapter none/],
    [["--adapter", "none", "--strategy", "jwt"], /password needs a database \(Email and password keeps the accounts and their password hashes there\): use --adapter pglite .*instead of --adapter none/],
    [["--providers", "credentials,github", "--adapter", "none", "--strategy", "jwt"], /^error: password needs a database \(Email and password keeps the accounts and their password hashes there\)/],
    [["--bogus"], /unknown option '--bogus'/],
  ])("bad input %j: exit 2 with the reason, nothing written", (args, message) => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = init(["--yes", "--no-install", ...RUNTIME, ...args], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("a folder with files but no package.json: exit 2, nothing written", () => {
    const dir = tempCopy(null, "init-nopkg", dirs);
    writeFileSync(join(dir, "notes.txt"), "hello\n");
    const run = init(["--yes", "--no-install", ...RUNTIME], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("has no package.json");
    expect(snapshotDir(dir)).toEqual({ "notes.txt": "hello\n" });
  });

  it("an empty folder with --dry-run: exit 2 (there is no app to show a plan for), nothing created", () => {
    const dir = tempCopy(null, "init-empty", dirs);
    const run = init(["--yes", "--dry-run"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--dry-run cannot show a plan");
    expect(snapshotDir(dir)).toEqual({});
  });

  it("[dir] and --cwd: the app folder is [dir] resolved against --cwd; `auth init` is the same command", () => {
    const dir = app();
    const parent = join(dir, "..");
    const name = dir.slice(parent.length + 1);
    const run = cli(authBin, ["init", name, "--cwd", parent, "--yes", "--no-install", ...RUNTIME], "/", {}, 60_000);
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, "src/auth.ts"))).toBe(true);
  });

  it("by default the app gets this checkout's runtime, packed into vendor/", () => {
    const dir = app();
    const run = init(["--yes", "--no-install"], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(read(dir, "package.json")).dependencies["@gatehouse/runtime"]).toBe("file:vendor/gatehouse-runtime-0.1.0.tgz");
    expect(existsSync(join(dir, "vendor/gatehouse-runtime-0.1.0.tgz"))).toBe(true);
  });

  it("a failing install: exit 1 with the package manager's output; the files are written", () => {
    const dir = app();
    const run = init(["--yes", "--runtime", "file:./does-not-exist.tgz"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/npm install` failed/);
    expect(run.stderr).toMatch(/does-not-exist/);
    expect(existsSync(join(dir, "src/auth.ts"))).toBe(true);
  });

  it("--help documents every flag with examples", () => {
    const help = init(["--help"], dirs[0] ?? "/");
    expect(help.code).toBe(0);
    for (const flag of ["--framework", "--providers", "--strategy", "--adapter", "--database-url", "--no-install", "--runtime", "--yes", "--dry-run", "--cwd"]) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).toContain("Examples:");
  });
});

describe.runIf(hasScript)("auth-init on a terminal asks what the flags leave open", () => {
  it("asks for the providers, the database and the session strategy; Enter takes the defaults", async () => {
    const dir = app();
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [
      { when: "Sign in with", keys: "\r" },
      { when: "Where should users and sessions be stored?", keys: "\r" },
      { when: "Session strategy", keys: "\r" },
      { when: "Add an account page", keys: "\r" },
    ], {}, 30_000);
    expect(run.answered).toBe(4);
    expect(run.code).toBe(0);
    expect(read(dir, "src/auth.ts")).toContain("strategy: 'database'");
    expect(existsSync(join(dir, "src/lib/server/db.ts"))).toBe(true);
    // The account page is on by default, and sign-in lands there.
    expect(existsSync(join(dir, "src/routes/account/+page.svelte"))).toBe(true);
    expect(read(dir, "src/routes/signin/+page.svelte")).toContain("?? '/account'");
  });

  it("no to the account page: none is written, and sign-in lands on the home page", async () => {
    const dir = app();
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [
      { when: "Sign in with", keys: "\r" },
      { when: "Where should users and sessions be stored?", keys: "\r" },
      { when: "Session strategy", keys: "\r" },
      // clack's confirm: the arrow moves to "No".
      { when: "Add an account page", keys: "\u001b[C\r" },
    ], {}, 30_000);
    expect(run.answered).toBe(4);
    expect(run.code, run.output).toBe(0);
    expect(existsSync(join(dir, "src/routes/account"))).toBe(false);
    expect(read(dir, "src/routes/signin/+page.svelte")).toContain("?? '/'");
    expect(run.output).not.toContain("/account is the user's account page");
  });

  it("the hosted store, chosen from the list, asks for HOSTED_STORE_DATABASE_URL and writes it to .env", async () => {
    const dir = app();
    const down = "\u001b[B";
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [
      { when: "Sign in with", keys: "\r" },
      { when: "Where should users and sessions be stored?", keys: `${down}${down}${down}\r` },
      { when: "Session strategy", keys: "\r" },
      { when: "HOSTED_STORE_DATABASE_URL (leave empty to fill in .env later)", keys: "postgres://app:pw@127.0.0.1:5432/store\r" },
      { when: "Add an account page", keys: "\r" },
    ], {}, 30_000);
    expect(run.answered).toBe(5);
    expect(run.code, run.output).toBe(0);
    expect(readEnvValue(read(dir, ".env"), "HOSTED_STORE_DATABASE_URL")).toBe("postgres://app:pw@127.0.0.1:5432/store");
    expect(read(dir, "src/lib/server/db.ts")).toContain("HostedStoreAdapter(store)");
  });

  it("providers are a multiselect of the catalog: GitHub next to email and password; passwords leave out \"No database\"", async () => {
    const dir = app();
    const down = "\u001b[B";
    const github = providerCatalog.findIndex((entry) => entry.id === "github");
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [
      // Space ticks the option under the cursor; email and password stays ticked (the default).
      { when: "Sign in with", keys: `${down.repeat(github)} \r` },
      { when: "Where should users and sessions be stored?", keys: "\r" },
      { when: "Session strategy", keys: "\r" },
      { when: "Add an account page", keys: "\r" },
    ], {}, 30_000);
    expect(run.answered).toBe(4);
    expect(run.code, run.output).toBe(0);
    const question = run.output.slice(run.output.indexOf("Where should users and sessions be stored?"), run.output.indexOf("Session strategy"));
    expect(question).toContain('password needs a database (Email and password keeps the accounts and their password hashes there), so "No database" is not offered');
    expect(question).not.toMatch(/[○●][^\n]*No database/);
    const config = read(dir, "src/auth.ts");
    expect(config).toContain("import { Password, GitHub } from '@gatehouse/runtime/providers';");
    expect(config).toContain("strategy: 'database'");
    expect(read(dir, ".env")).toContain("\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\n");
    expect(run.output).toContain("http://localhost:5173/auth/callback/github");
  });

  it("GitHub alone (email and password unticked): \"No database\" is offered, and without a database sessions are JWT", async () => {
    const dir = app();
    const down = "\u001b[B";
    const github = providerCatalog.findIndex((entry) => entry.id === "github");
    // "This app's Drizzle database" and "This app's Prisma database" are offered only in an app with them: not here.
    const none = ADAPTERS.filter((adapter) => !isAppOrm(adapter)).indexOf("none");
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [
      // Space on the first option unticks email and password; then GitHub is ticked.
      { when: "Sign in with", keys: ` ${down.repeat(github)} \r` },
      { when: "Where should users and sessions be stored?", keys: `${down.repeat(none)}\r` },
    ], {}, 30_000);
    expect(run.answered).toBe(2);
    expect(run.code, run.output).toBe(0);
    // No session question without a database: JWT; and no account page to offer.
    expect(run.output).not.toContain("Session strategy");
    expect(run.output).not.toContain("Add an account page");
    const config = read(dir, "src/auth.ts");
    expect(config).toContain("import { GitHub } from '@gatehouse/runtime/providers';");
    expect(config).toContain("strategy: 'jwt'");
    expect(existsSync(join(dir, "src/routes/signup/+page.svelte"))).toBe(false);
  });

  it("email ticked: the database question leaves out \"No database\" and says why; PGlite then holds its tokens", async () => {
    const dir = app();
    const down = "\u001b[B";
    const email = providerCatalog.findIndex((entry) => entry.id === "email");
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [
      { when: "Sign in with", keys: `${down.repeat(email)} \r` },
      { when: "Where should users and sessions be stored?", keys: "\r" },
      { when: "Session strategy", keys: "\r" },
      { when: "Add an account page", keys: "\r" },
    ], {}, 30_000);
    expect(run.answered).toBe(4);
    expect(run.code, run.output).toBe(0);
    // The multiselect shows what email needs next to it.
    expect(run.output).toContain("a sign-in link by mail: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM; needs a database");
    const question = run.output.slice(run.output.indexOf("Where should users and sessions be stored?"), run.output.indexOf("Session strategy"));
    // Email and password (ticked by default) and email: both named (the question wraps at the terminal's width).
    expect(question.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/\s*\n│\s*/g, " ")).toContain(
      'password and email need a database (Email and password keeps the accounts and their password hashes there, Email link its one-time sign-in tokens), so "No database" is not offered',
    );
    expect(question).toContain("PGlite");
    // An option is a line with its radio mark; the question's own line has none.
    expect(question).toMatch(/○[^\n]*SQLite/);
    expect(question).not.toMatch(/[○●][^\n]*No database/);
    expect(read(dir, "src/auth.ts")).toContain("import { Password, Nodemailer } from '@gatehouse/runtime/providers';");
  });

  it("--adapter none given: email and password, email and passkey cannot be ticked, and say why; what can be ticked is set up", async () => {
    const dir = app();
    const down = "\u001b[B";
    // The cursor skips the options that cannot be ticked.
    const github = providerCatalog.filter((entry) => !needsAdapter(entry)).findIndex((entry) => entry.id === "github");
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME, "--adapter", "none"], dir, [{ when: "Sign in with", keys: `${down.repeat(github)} \r` }], {}, 30_000);
    const output = run.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
    for (const name of ["Email and password", "Email link", "Passkey"]) expect(output).toContain(`◻ ${name} (needs a database: not with --adapter none)`);
    // The default (email and password) cannot be ticked here, so it is not what Enter takes.
    expect(run.code, run.output).toBe(0);
    expect(read(dir, "src/auth.ts")).toContain("import { GitHub } from '@gatehouse/runtime/providers';");
    expect(read(dir, "src/auth.ts")).toContain("strategy: 'jwt'");
  });

  it("Ctrl-C at a question: exit 1, nothing written", async () => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [{ when: "Sign in with", keys: "\u0003" }]);
    expect(run.code).toBe(1);
    expect(run.output).toContain("cancelled: nothing was written");
    expect(snapshotDir(dir)).toEqual(before);
  });
});
