/**
 * The `auth-init` generator, in memory: answers + a snapshot of sv's minimal app
 * -> Plan. Rendered files are compared with stored snapshots; re-runs, files the
 * user changed and existing env values are checked one by one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTED_STORE_ENV } from "../../runtime/src/adapters/hosted-store/index.js";
import * as providers from "../../runtime/src/providers/index.js";
import { findProvider, providerCatalog } from "../../runtime/src/providers/catalog.js";
import { readProject, type ProjectSnapshot } from "../../src/engine/project.js";
import { packageTemplates } from "../../src/engine/templates.js";
import { DETECT_PATHS } from "../../src/generators/detect.js";
import {
  checkAnswers,
  DATABASE_URL_KEYS,
  parseDatabaseUrl,
  parseProviders,
  UsageError,
  type InitAnswers,
} from "../../src/generators/init/answers.js";
import { initPaths, layoutFor, planInit } from "../../src/generators/init/plan.js";
import { DRIVER_VERSIONS } from "../../src/generators/init/versions.js";
import type { Plan } from "../../src/plan/plan.js";
import { root } from "./support/cli.js";

const SECRET = "TEST_SECRET_0123456789_abcdefghijklmnopqrstu";
const RUNTIME = "^0.1.0";
const DEFAULTS: InitAnswers = { framework: "sveltekit", providers: ["password"], strategy: "database", adapter: "pglite", databaseUrl: "" };
const SERVER_COMMENT = "# Mail: the SMTP server the app's links go out through (sign-in, sign-up confirmation, password reset), e.g. smtp://user:password@smtp.example.com:587";
const FROM_COMMENT = '# Mail: the sender of those mails, e.g. "Example <no-reply@example.com>"';
/** The mail keys the Password provider reads, as .env gets them: empty, each under its comment. */
const MAIL_KEYS = `${SERVER_COMMENT}\nAUTH_EMAIL_SERVER=\n${FROM_COMMENT}\nAUTH_EMAIL_FROM=\n`;
/** The next step on mail: in development the links go to the console and .gatehouse/mail/; production needs both keys. */
const MAIL_STEP =
  /^Sign-up and password reset mail a link\. In development, with AUTH_EMAIL_SERVER empty, the link is printed on the dev server's console \(and kept in \.gatehouse\/mail\/\); in production, set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM/;

function svApp(overrides: Record<string, string | null> = {}): ProjectSnapshot {
  const project = readProject(join(root, "test/cli/fixtures/sveltekit-minimal"), [...DETECT_PATHS, ...initPaths("sveltekit")]);
  return { ...project, files: { ...project.files, ...overrides } };
}

function plan(answers: Partial<InitAnswers> = {}, project = svApp()): Plan {
  return planInit({ answers: { ...DEFAULTS, ...answers }, project, packageManager: "npm", templates: packageTemplates, runtimeSpec: RUNTIME, cliSpec: RUNTIME, secret: SECRET });
}

/** The project as it is after the plan is applied. */
function applied(project: ProjectSnapshot, p: Plan): ProjectSnapshot {
  const files = { ...project.files };
  for (const change of p.changes) files[change.path] = change.after;
  return { ...project, files };
}

const after = (p: Plan, path: string) => p.changes.find((c) => c.path === path)?.after;

describe("planInit for SvelteKit", () => {
  it.each([
    ["password, pglite, database sessions", {}],
    ["password, postgres, jwt", { adapter: "postgres", strategy: "jwt", databaseUrl: "postgres://app:pw@localhost:5432/app" }],
    ["password, sqlite, database sessions", { adapter: "sqlite" }],
    ["password, hosted-store, database sessions", { adapter: "hosted-store", databaseUrl: "postgres://app:pw@store.example.com:5432/app" }],
    ["password + keycloak, sqlite, database sessions", { adapter: "sqlite", providers: ["password", "keycloak"] }],
    ["github + keycloak (OAuth only), no database, jwt", { adapter: "none", strategy: "jwt", providers: ["github", "keycloak"] }],
  ] as const)("%s: every file as a snapshot", (_name, answers) => {
    const p = plan(answers as Partial<InitAnswers>);
    const files = Object.fromEntries(p.changes.map((c) => [c.path, c.before === null ? c.after : { before: c.before, after: c.after }]));
    expect(files).toMatchSnapshot();
    expect({ kept: p.kept, dependencies: p.dependencies, devDependencies: p.devDependencies, env: p.env, nextSteps: p.nextSteps }).toMatchSnapshot();
  });

  it("password: the account pages, their messages, db.ts and schema.ts; no password code of the app's own; nodemailer; the data folder and development mail git-ignored", () => {
    const p = plan();
    const paths = p.changes.map((c) => c.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "src/routes/signup/+page.svelte",
        "src/routes/forgot-password/+page.svelte",
        "src/routes/reset-password/+page.svelte",
        "src/lib/auth-messages.ts",
        "src/lib/server/schema.ts",
        "src/lib/server/db.ts",
      ]),
    );
    // The Password provider signs up, checks and resets passwords: no form action, no password module.
    for (const gone of ["src/routes/signup/+page.server.ts", "src/lib/server/passwords.ts", "src/lib/server/sign-up-errors.ts"]) expect(paths).not.toContain(gone);
    expect(after(p, ".gitignore")).toMatch(/\n# auth: secrets, the local database and development mail\n\.pglite\/\n\.gatehouse\/\n$/);
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, "@electric-sql/pglite": DRIVER_VERSIONS["@electric-sql/pglite"], nodemailer: DRIVER_VERSIONS.nodemailer });
    expect(JSON.parse(after(p, "package.json")!).dependencies.nodemailer).toBe(DRIVER_VERSIONS.nodemailer);
  });

  it("password needs a database: --adapter none is refused, naming why (credentials, its older id, too); OAuth alone still works without one", () => {
    const refusal =
      "password needs a database (Email and password keeps the accounts and their password hashes there): use --adapter pglite (embedded PostgreSQL, nothing to set up), or postgres, sqlite, hosted-store, instead of --adapter none";
    expect(() => checkAnswers({ ...DEFAULTS, adapter: "none", strategy: "jwt" })).toThrow(UsageError);
    expect(() => checkAnswers({ ...DEFAULTS, adapter: "none", strategy: "jwt" })).toThrow(refusal);
    expect(() => checkAnswers({ ...DEFAULTS, providers: parseProviders("credentials"), adapter: "none", strategy: "jwt" })).toThrow(refusal);
    expect(() => checkAnswers({ ...DEFAULTS, providers: ["password", "github"], adapter: "none", strategy: "jwt" })).toThrow(/^password needs a database/);
    expect(() => checkAnswers({ ...DEFAULTS, providers: ["github"], adapter: "none", strategy: "jwt" })).not.toThrow();
    for (const adapter of ["pglite", "postgres", "sqlite", "hosted-store"] as const) expect(() => checkAnswers({ ...DEFAULTS, adapter, strategy: "jwt" })).not.toThrow();
  });

  it("next steps: where the accounts are kept, /signup to start with, and how mail works in development and in production", () => {
    const steps = plan().nextSteps;
    expect(steps).toEqual([
      "password needs a database (Email and password keeps the accounts and their password hashes there): it uses the embedded PGlite database (.pglite/, created on the app's first start).",
      "Start the app with `npm run dev` and open http://localhost:5173/signup; http://localhost:5173/protected shows who is signed in, and http://localhost:5173/account is the user's account page.",
      expect.stringMatching(MAIL_STEP),
      expect.stringMatching(/^For production: /),
    ]);
    // No word about writing a password check: nothing is left to write.
    expect(steps.join("\n")).not.toMatch(/authorize|every sign-in is refused/);
    // Without passwords there is no mail to explain, and the page to open is /signin.
    const oauthOnly = plan({ providers: ["github"], adapter: "none", strategy: "jwt" }).nextSteps;
    expect(oauthOnly.filter((step) => MAIL_STEP.test(step))).toEqual([]);
    expect(oauthOnly.join("\n")).toContain("open http://localhost:5173/signin;");
  });

  it(".env gets a fresh AUTH_SECRET; .env.example the same keys without values; package.json a start script reading .env", () => {
    const p = plan({ adapter: "postgres", databaseUrl: "postgres://app:pw@localhost:5432/app" });
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\nDATABASE_URL="postgres://app:pw@localhost:5432/app"\n${MAIL_KEYS}`);
    expect(p.changes.find((c) => c.path === ".env")?.secret).toBe(true);
    expect(after(p, ".env.example")).toBe(`AUTH_SECRET=\nDATABASE_URL=\n${MAIL_KEYS}`);
    const pkg = JSON.parse(after(p, "package.json")!) as { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.scripts.start).toBe("node --env-file=.env build");
    expect(pkg.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, pg: DRIVER_VERSIONS.pg, nodemailer: DRIVER_VERSIONS.nodemailer });
    expect(pkg.devDependencies["@types/pg"]).toBe(DRIVER_VERSIONS["@types/pg"]);
    expect(p.env).toEqual([
      { key: "AUTH_SECRET", filled: true },
      { key: "DATABASE_URL", filled: true },
      { key: "AUTH_EMAIL_SERVER", filled: false },
      { key: "AUTH_EMAIL_FROM", filled: false },
    ]);
  });

  it("an empty DATABASE_URL is a placeholder, and the next steps ask for it", () => {
    const p = plan({ adapter: "postgres" });
    expect(after(p, ".env")).toContain("\nDATABASE_URL=\n");
    expect(p.env).toContainEqual({ key: "DATABASE_URL", filled: false });
    expect(p.nextSteps).toContainEqual(expect.stringMatching(/^Set DATABASE_URL in \.env/));
  });

  it("sqlite: better-sqlite3 and its types; the file's folder .data/ is git-ignored; SQLITE_PATH is read, not written", () => {
    const p = plan({ adapter: "sqlite" });
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, "better-sqlite3": DRIVER_VERSIONS["better-sqlite3"], nodemailer: DRIVER_VERSIONS.nodemailer });
    expect(p.devDependencies).toEqual({ "@gatehouse/cli": RUNTIME, "@types/better-sqlite3": DRIVER_VERSIONS["@types/better-sqlite3"], "@types/node": DRIVER_VERSIONS["@types/node"] });
    expect(after(p, ".gitignore")).toMatch(/\n\.data\/\n\.gatehouse\/\n$/);
    // No database key: only the secret and the mail keys.
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\n${MAIL_KEYS}`);
    const db = after(p, "src/lib/server/db.ts")!;
    expect(db).toContain("env.SQLITE_PATH || '.data/auth.sqlite'");
    expect(db).toContain("export const adapter = SqliteAdapter(database);");
    expect(db).not.toMatch(/\$\d/); // SQLite's placeholders are `?`
    expect(after(p, "src/lib/server/schema.ts")).toContain("from '@gatehouse/runtime/adapters/sqlite'");
    expect(p.nextSteps.join("\n")).not.toContain("Set ");
  });

  it("hosted-store: pg; HOSTED_STORE_DATABASE_URL from --database-url and HOSTED_STORE_BRANCH in .env; the password table is the runtime's", () => {
    const p = plan({ adapter: "hosted-store", databaseUrl: "postgres://app:pw@store.example.com:5432/app" });
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, pg: DRIVER_VERSIONS.pg, nodemailer: DRIVER_VERSIONS.nodemailer });
    expect(p.devDependencies).toEqual({ "@gatehouse/cli": RUNTIME, "@types/pg": DRIVER_VERSIONS["@types/pg"], "@types/node": DRIVER_VERSIONS["@types/node"] });
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\nHOSTED_STORE_DATABASE_URL="postgres://app:pw@store.example.com:5432/app"\nHOSTED_STORE_BRANCH="main"\n${MAIL_KEYS}`);
    expect(after(p, ".env.example")).toBe(`AUTH_SECRET=\nHOSTED_STORE_DATABASE_URL=\nHOSTED_STORE_BRANCH=\n${MAIL_KEYS}`);
    // .env is ignored already and there is no local database: only the development mail folder is added.
    expect(after(p, ".gitignore")).toBe(`${svApp().files[".gitignore"]}\n# auth: secrets and development mail\n.gatehouse/\n`);
    expect(after(plan({ adapter: "hosted-store", providers: ["github"] }), ".gitignore")).toBeUndefined();
    expect(after(p, "src/lib/server/db.ts")).toContain("export const adapter = HostedStoreAdapter(store);");
    const schema = after(p, "src/lib/server/schema.ts")!;
    expect(schema).toContain("from '@gatehouse/runtime/adapters/hosted-store'");
    expect(schema).toContain("(svc_user_passwords) included");
    expect(schema).not.toMatch(/CREATE TABLE|app_0001/);
    expect(p.env).toEqual([
      { key: "AUTH_SECRET", filled: true },
      { key: "HOSTED_STORE_DATABASE_URL", filled: true },
      { key: "HOSTED_STORE_BRANCH", filled: true },
      { key: "AUTH_EMAIL_SERVER", filled: false },
      { key: "AUTH_EMAIL_FROM", filled: false },
    ]);
  });

  it("hosted-store without --database-url: an empty HOSTED_STORE_DATABASE_URL placeholder, and the next steps ask for it", () => {
    const p = plan({ adapter: "hosted-store" });
    expect(after(p, ".env")).toContain("\nHOSTED_STORE_DATABASE_URL=\n");
    expect(p.env).toContainEqual({ key: "HOSTED_STORE_DATABASE_URL", filled: false });
    expect(p.nextSteps).toContainEqual(expect.stringMatching(/^Set HOSTED_STORE_DATABASE_URL in \.env .*HOSTED_STORE_BRANCH names the branch \(default main\)/));
  });

  it("the password SQL is the runtime adapter's on every database: db.ts opens the database and makes the adapter, nothing more; the schema adds no password table", () => {
    for (const adapter of ["pglite", "postgres", "sqlite", "hosted-store"] as const) {
      const p = plan({ adapter });
      const db = after(p, "src/lib/server/db.ts")!;
      expect(db, adapter).not.toMatch(/user_passwords|INSERT|UPDATE|SELECT|findPasswordUser|createPasswordUser|updatePasswordHash/);
      expect(db, adapter).toMatch(/^export const adapter = (PostgresAdapter\(database\)|SqliteAdapter\(database\)|HostedStoreAdapter\(store\));$/m);
      expect(after(p, "src/lib/server/schema.ts"), adapter).toMatch(/export const schema: readonly Migration\[\] = \[\n\t\.\.\.migrations,\n\];\n$/);
      // Nothing of the app hashes or checks passwords.
      for (const change of p.changes) expect(change.after, `${adapter}: ${change.path}`).not.toMatch(/@gatehouse\/runtime\/password|hashPassword|passwordMatches|node:crypto|scrypt/);
    }
    // The messages are the same whichever database.
    const messages = (["pglite", "postgres", "sqlite", "hosted-store"] as const).map((adapter) => after(plan({ adapter }), "src/lib/auth-messages.ts"));
    expect(new Set(messages).size).toBe(1);
  });

  it("src/auth.ts: the Password provider with development mail in dev, the app's own account pages, and a production server without mail settings stops at startup", () => {
    const config = after(plan(), "src/auth.ts")!;
    expect(config).toContain("import { Password } from '@gatehouse/runtime/providers';");
    expect(config).toContain("import { building, dev } from '$app/environment';");
    expect(config).toContain("import { env } from '$env/dynamic/private';");
    expect(config).toContain("import { adapter, closeDatabase } from '$lib/server/db';");
    expect(config).toMatch(/\tproviders: \[\n(\t\t\/\/[^\n]*\n)+\t\tPassword\(\{ developmentMail: dev \}\),\n\t\]/);
    expect(config).toContain("pages: { signIn: '/signin', signUp: '/signup', forgotPassword: '/forgot-password', resetPassword: '/reset-password' },");
    // At startup (not while `vite build` loads the module), never in dev.
    expect(config).toContain("if (!dev && !building && (!env.AUTH_EMAIL_SERVER || !env.AUTH_EMAIL_FROM)) {\n\tthrow new Error(");
    expect(config).toContain("'AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM must be set in production: sign-up and password reset mail their links. ' +");
    expect(config).toContain("rateLimit: { ip: 100 },");
    // No app code checks a password any more.
    expect(config).not.toMatch(/Credentials|authorize|verifyPassword|lib\/server\/passwords/);
    // OAuth alone: no mail, no Password, only the sign-in page.
    const oauthOnly = after(plan({ providers: ["github"], adapter: "none", strategy: "jwt" }), "src/auth.ts")!;
    expect(oauthOnly).not.toMatch(/Password|AUTH_EMAIL_SERVER|\$app\/environment/);
    expect(oauthOnly).toContain("pages: { signIn: '/signin' },");
  });

  it("the account pages are plain forms posting to the handler: sign-up, forgot and reset password, each showing a fixed message for ?code=", () => {
    const p = plan();
    const signUp = after(p, "src/routes/signup/+page.svelte")!;
    expect(signUp).toContain('<form method="POST" action="/auth/signup">');
    expect(signUp).toContain("import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, signUpMessage } from '$lib/auth-messages';");
    // A message about a field goes under it (AuthField), one about the whole form above the form.
    expect(signUp).toContain("const message = $derived(code ? signUpMessage(code) : undefined);");
    expect(signUp).toContain('{#if message && !message.field}<div class="auth-alert" role="alert">{message.text}</div>{/if}');
    expect(signUp).toContain("error={fieldError('email')}");
    expect(signUp).toMatch(/<AuthField\n\t\t\tid="signup-password"[^>]*name="password"\n\t\t\ttype="password"\n\t\t\tautocomplete="new-password"\n\t\t\tminlength=\{MIN_PASSWORD_LENGTH\}\n\t\t\tmaxlength=\{MAX_PASSWORD_LENGTH\}\n\t\t\trequired\n\t\t\terror=\{fieldError\('password'\)\}/);
    expect(signUp).toContain('<input type="hidden" name="callbackUrl" value={callbackUrl} />');
    expect(signUp).toContain('<a href="/signin">Sign in</a>');

    const forgot = after(p, "src/routes/forgot-password/+page.svelte")!;
    expect(forgot).toContain('<form method="POST" action="/auth/forgot-password">');
    expect(forgot).toContain('{#if message && !message.field}<div class="auth-alert" role="alert">{message.text}</div>{/if}');
    expect(forgot).toContain('<AuthField id="forgot-email" label="Email" name="email" type="email" autocomplete="username" required');

    const reset = after(p, "src/routes/reset-password/+page.svelte")!;
    expect(reset).toContain('<form method="POST" action="/auth/reset-password">');
    // The mailed link's email and token go back with the new password.
    expect(reset).toContain('<input type="hidden" name="email" value={email} />');
    expect(reset).toContain('<input type="hidden" name="token" value={token} />');
    expect(reset).toMatch(/id="reset-password"[^>]*name="password"\n\t+type="password"\n\t+autocomplete="new-password"\n\t+minlength=\{MIN_PASSWORD_LENGTH\}\n\t+maxlength=\{MAX_PASSWORD_LENGTH\}\n\t+required/);
    // Every page has a title, the shared stylesheet and the card.
    for (const page of [signUp, forgot, reset]) {
      expect(page).toMatch(/<svelte:head><title>[^<]+<\/title><\/svelte:head>/);
      expect(page).toContain("import '$lib/auth.css';");
      expect(page).toContain('<main class="auth">');
    }
    expect(reset).toContain('<a href="/forgot-password">Ask for one</a>');

    // Text from the URL is shown only through the fixed messages.
    for (const page of [signUp, forgot, reset]) expect(page).not.toMatch(/\{code\}/);
  });

  it("the sign-in page posts provider password (with the link's confirm token when there is one), shows fixed messages, and links the other account pages", () => {
    const p = plan();
    const page = after(p, "src/routes/signin/+page.svelte")!;
    expect(page).toContain('<SignIn provider="password" {redirectTo}>\n\t\t{#if confirm}<input type="hidden" name="confirm" value={confirm} />{/if}');
    expect(page).toContain("const confirm = $derived(page.url.searchParams.get('confirm'));");
    // The email the link carries fills the field.
    expect(page).toMatch(/<AuthField id="signin-email" label="Email" name="email" type="email" autocomplete="username" [a-zA-Z]*=\{confirmEmail\} required \/>/);
    expect(page).toContain('<p class="auth-links"><a href="/forgot-password">Forgot your password?</a></p>');
    expect(page).toContain('<p class="auth-links">No account yet? <a href="/signup">Sign up</a></p>');
    // One fixed message for an error in the URL; a refused password sign-in comes back through the form action.
    expect(page).toContain('{#if urlError}<div class="auth-alert" role="alert">Could not sign in. Try again.</div>{/if}');
    expect(page).toContain('{#if form?.error}<div class="auth-alert" role="alert">{form.error}</div>{/if}');
    // Without a destination, a sign-in lands on the account page.
    expect(page).toContain("page.url.searchParams.get('callbackUrl') ?? '/account');");
    expect(page).toContain("<svelte:head><title>Sign in</title></svelte:head>");
    expect(page).not.toContain('provider="credentials"');
    // A refused password sign-in: the message for its code (an unconfirmed address, say), never the URL's text.
    const action = after(p, "src/routes/signin/+page.server.ts")!;
    expect(action).toContain("import { signInMessage } from '$lib/auth-messages';");
    expect(action).toContain("if (error instanceof CredentialsSignin) return fail(400, { error: signInMessage(error.code) });");
  });

  it("src/lib/auth-messages.ts: a fixed message for each code the handler sends back (with the field it is about), a fallback for anything else, the password length limits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-auth-messages-"));
    type Message = { text: string; field?: string };
    try {
      const file = join(dir, "auth-messages.ts");
      writeFileSync(file, after(plan({ providers: ["password", "github", "passkey"] }), "src/lib/auth-messages.ts")!);
      const messages = (await import(file)) as {
        MIN_PASSWORD_LENGTH: number;
        MAX_PASSWORD_LENGTH: number;
        signUpMessage(code: unknown): Message;
        resetMessage(code: unknown): Message;
        signInMessage(code: unknown): string;
        accountMessage(form: unknown, code: unknown): Message;
        doneMessage(done: unknown): string | undefined;
      };
      expect(messages.MIN_PASSWORD_LENGTH).toBe(8);
      expect(messages.MAX_PASSWORD_LENGTH).toBe(1024);
      expect(messages.signUpMessage("invalid-email")).toEqual({ text: "Enter a valid email address.", field: "email" });
      expect(messages.signUpMessage("short-password")).toEqual({ text: "Choose a password of at least 8 characters.", field: "password" });
      expect(messages.signUpMessage("long-password")).toEqual({ text: "Choose a password of at most 1024 characters.", field: "password" });
      expect(messages.signUpMessage("mail-not-sent")).toEqual({ text: "Could not send the confirmation mail. Try again in a moment." });
      // Names follow one rule everywhere: sign-up refuses what the account page refuses, under the name field.
      expect(messages.signUpMessage("invalid-name")).toEqual({ text: "Use letters, digits, spaces and punctuation only.", field: "name" });
      expect(messages.signUpMessage("name-too-long")).toEqual({ text: "Use at most 100 characters.", field: "name" });
      expect(messages.resetMessage("invalid-link")).toEqual({ text: "That link has expired or was already used. Ask for a new one below." });
      expect(messages.resetMessage("short-password")).toEqual({ text: "Choose a password of at least 8 characters.", field: "password" });
      expect(messages.resetMessage("mail-not-sent")).toEqual({ text: "Could not send the mail. Try again in a moment." });
      expect(messages.signInMessage("credentials")).toBe("Invalid email or password.");
      expect(messages.signInMessage("unconfirmed")).toBe("Confirm your email address first: we have sent you a new link.");
      expect(messages.signInMessage("confirm-link-invalid")).toBe("That confirmation link has expired or was already used: we have sent you a new one.");
      // The account page: each refusal by form and code, under the field it concerns.
      expect(messages.accountMessage("ProfileUpdate", "invalid-name")).toEqual({ text: "Use letters, digits, spaces and punctuation only.", field: "name" });
      expect(messages.accountMessage("PasswordChange", "wrong-password")).toEqual({ text: "That is not your current password.", field: "currentPassword" });
      expect(messages.accountMessage("PasswordChange", "short-password")).toEqual({ text: "Choose a password of at least 8 characters.", field: "password" });
      expect(messages.accountMessage("AccountDelete", "wrong-password")).toEqual({ text: "That is not your password.", field: "password" });
      expect(messages.accountMessage("AccountDelete", "confirm-email")).toEqual({ text: "Type your account's email address exactly.", field: "confirm" });
      expect(messages.accountMessage("AccountUnlink", "last-sign-in-method").text).toBe("That is your last way to sign in: add another one first.");
      expect(messages.accountMessage("PasskeyRemove", "last-sign-in-method").text).toBe("That is your last way to sign in: add another one first.");
      expect(messages.doneMessage("sessions")).toBe("Every other session is signed out.");
      expect(messages.doneMessage("linked")).toBe("The account is connected: you can sign in with it too.");
      // Anything else, inherited names included, gets the fallback: words from the URL are never shown.
      for (const code of ["<script>", "constructor", "__proto__", "toString", undefined, 42]) {
        expect(messages.signUpMessage(code)).toEqual({ text: "Could not create the account. Try again." });
        expect(messages.resetMessage(code)).toEqual({ text: "Could not reset the password. Try again." });
        expect(messages.signInMessage(code)).toBe("Invalid email or password.");
        expect(messages.accountMessage(code, "invalid-name")).toEqual({ text: "That did not work. Try again." });
        expect(messages.accountMessage("ProfileUpdate", code)).toEqual({ text: "That did not work. Try again." });
        expect(messages.doneMessage(code)).toBeUndefined();
      }
      // No message says whether an address has an account.
      expect(after(plan(), "src/lib/auth-messages.ts")).not.toMatch(/already (has|have) an account|no account/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the account page: signed-in only, every form posts to the handler and comes back with ?done= or ?error=&code=, no text from the URL shown", () => {
    const p = plan({ providers: ["password", "github", "passkey"] });
    const load = after(p, "src/routes/account/+page.server.ts")!;
    expect(load).toContain("const account = await event.locals.account();");
    expect(load).toContain("if (!account) redirect(303, `/signin?redirectTo=${encodeURIComponent(event.url.pathname)}`);");
    const page = after(p, "src/routes/account/+page.svelte")!;
    for (const action of ["update-profile", "change-password", "forgot-password", "revoke-session", "revoke-other-sessions", "remove-passkey", "rename-passkey", "unlink-account", "delete-account"]) {
      expect(page, action).toContain(`<form method="POST" action="/auth/${action}">`);
    }
    expect(page).toContain("<SignIn provider={linkable.provider} redirectTo={back('linked')} class=\"auth-secondary\">");
    expect(page).toContain("signIn('passkey', { action: 'register', redirectTo: back('passkey-added') })");
    expect(page).not.toMatch(/searchParams\.get\('code'\)\}|\{refused\}/);
    // Without passkeys or OAuth providers, their sections are not there.
    const plain = after(plan(), "src/routes/account/+page.svelte")!;
    expect(plain).not.toMatch(/passkey|unlink-account|SignIn/);
    expect(plain).toContain('action="/auth/change-password"');
    // --no-account-page: none, and sign-in lands on the home page.
    const none = plan({ accountPage: false });
    expect(none.changes.map((c) => c.path).filter((path) => path.includes("account"))).toEqual([]);
    expect(after(none, "src/routes/signin/+page.svelte")).toContain("page.url.searchParams.get('callbackUrl') ?? '/');");
    expect(after(none, "src/routes/protected/+page.svelte")).not.toContain("/account");
  });

  it("the header: sv's root layout gets <AuthHeader /> above its pages (nothing else of it changes), a root server load gives it the session", () => {
    const p = plan();
    const layout = p.changes.find((c) => c.path === "src/routes/+layout.svelte")!;
    expect(layout.before).not.toBeNull();
    expect(layout.after).toBe(layout.before!.replace("\timport favicon from '$lib/assets/favicon.svg';\n", "\timport favicon from '$lib/assets/favicon.svg';\n\timport AuthHeader from '$lib/AuthHeader.svelte';\n").replace("{@render children()}", "<AuthHeader />\n{@render children()}"));
    expect(after(p, "src/routes/+layout.server.ts")).toContain("export const load: LayoutServerLoad = async (event) => ({ session: await event.locals.auth() });");
    const header = after(p, "src/lib/AuthHeader.svelte")!;
    expect(header).toContain("const user = $derived(page.data.session?.user);");
    expect(header).toContain('<a href="/account">Account</a>');
    expect(header).toContain('<SignOut redirectTo="/">');
    expect(header).toContain('<a href="/signup">Sign up</a>');
    // OAuth only: no sign-up, no account page.
    const oauth = after(plan({ providers: ["github"], adapter: "none", strategy: "jwt" }), "src/lib/AuthHeader.svelte")!;
    expect(oauth).not.toMatch(/signup|account/);
  });

  it("the header: an app without a root layout gets one; the app's own root loads are kept, naming what to add", () => {
    const bare = plan({}, svApp({ "src/routes/+layout.svelte": null }));
    expect(after(bare, "src/routes/+layout.svelte")).toContain("<AuthHeader />\n{@render children()}");
    const own = plan({}, svApp({ "src/routes/+layout.server.ts": "export const load = () => ({ theme: 'dark' });\n", "src/routes/+layout.ts": "export const load = ({ data }) => data;\n" }));
    expect(after(own, "src/routes/+layout.server.ts")).toBeUndefined();
    expect(own.kept).toContainEqual({ path: "src/routes/+layout.server.ts", reason: expect.stringContaining("add `session: await event.locals.auth()` to what its load returns") });
    expect(own.kept).toContainEqual({ path: "src/routes/+layout.ts", reason: expect.stringContaining("return the server load's `session: data.session`") });
    // A layout that does not parse is not kept: it stops the plan (refuseUnparsable), with where it breaks.
    const broken = plan({}, svApp({ "src/routes/+layout.svelte": "<div>\n{@render children()}\n" }));
    expect(broken.unparsable).toEqual([{ path: "src/routes/+layout.svelte", language: "Svelte", line: 1, column: 1, message: "`<div>` was left open" }]);
    expect(broken.kept.map((k) => k.path)).not.toContain("src/routes/+layout.svelte");
    expect(broken.changes.find((c) => c.path === "src/routes/+layout.svelte")).toBeUndefined();
  });

  it("running again on the result changes nothing", () => {
    const first = plan();
    const second = plan({}, applied(svApp(), first));
    expect(second.changes).toEqual([]);
    expect(second.kept).toEqual([]);
  });

  it("an existing AUTH_SECRET, other keys and comments are kept byte for byte; an empty one is filled in place", () => {
    // The file's own lines stay as they are (CRLF included); only the keys it lacks, the mail keys, are added after them.
    const env = "# mine\r\nAUTH_SECRET=keep-me # comment\r\nOTHER=1\r\n";
    expect(after(plan({}, svApp({ ".env": env })), ".env")).toBe(`${env}${MAIL_KEYS.replaceAll("\n", "\r\n")}`);
    const empty = "OTHER=1\nAUTH_SECRET=\nLAST=2";
    expect(after(plan({}, svApp({ ".env": empty })), ".env")).toBe(`OTHER=1\nAUTH_SECRET="${SECRET}"\nLAST=2\n${MAIL_KEYS}`);
    // With every key there, .env is left alone.
    const full = `${env}AUTH_EMAIL_SERVER=smtp://127.0.0.1:2525\r\nAUTH_EMAIL_FROM=app@example.com\r\n`;
    expect(after(plan({}, svApp({ ".env": full })), ".env")).toBeUndefined();
  });

  it("a file the user changed is kept, with the reason; the rest of the plan goes ahead", () => {
    const first = plan();
    const project = applied(svApp(), first);
    project.files["src/auth.ts"] = `${project.files["src/auth.ts"]}\n// my change\n`;
    const second = plan({ strategy: "jwt" }, project);
    expect(second.changes).toEqual([]);
    expect(second.kept).toEqual([{ path: "src/auth.ts", reason: expect.stringContaining("differs from what auth-init writes") }]);
  });

  it("an existing hooks.server.ts keeps its handle, sequenced after the auth handle", () => {
    const hooks = "import type { Handle } from '@sveltejs/kit';\n\nexport const handle: Handle = ({ event, resolve }) => resolve(event);\n";
    const text = after(plan({}, svApp({ "src/hooks.server.ts": hooks })), "src/hooks.server.ts")!;
    expect(text).toContain("const appHandle: Handle = ({ event, resolve }) => resolve(event);");
    expect(text).toContain("export const handle = sequence(authHandle, appHandle);");
  });

  it("a hooks.server.ts it cannot edit safely is kept, with what to do by hand", () => {
    const hooks = "const handle = ({ event, resolve }) => resolve(event);\nexport { handle };\n";
    const p = plan({}, svApp({ "src/hooks.server.ts": hooks }));
    expect(after(p, "src/hooks.server.ts")).toBeUndefined();
    expect(p.kept).toContainEqual({ path: "src/hooks.server.ts", reason: expect.stringContaining("by hand") });
  });

  it("an app without package.json cannot be planned", () => {
    expect(() => plan({}, svApp({ "package.json": null }))).toThrow(/package.json not found/);
  });
});

describe("planInit for SvelteKit with OAuth providers", () => {
  const oauth = (answers: Partial<InitAnswers> = {}, project = svApp()) => plan({ providers: ["password", "github", "keycloak"], ...answers }, project);

  it("the config imports each provider and lists it bare (the runtime reads AUTH_<ID>_* itself); refused sign-ins come back to /signin", () => {
    const config = after(oauth(), "src/auth.ts")!;
    expect(config).toContain("import { Password, GitHub, Keycloak } from '@gatehouse/runtime/providers';");
    expect(config).toMatch(/\t\tPassword\(\{ developmentMail: dev \}\),\n\t\tGitHub,\n\t\tKeycloak,\n\t\]/);
    // With passwords the account pages are the app's too; OAuth alone names only the sign-in page.
    expect(config).toContain("pages: { signIn: '/signin', signUp: '/signup', forgotPassword: '/forgot-password', resetPassword: '/reset-password' },");
    expect(after(plan({ providers: ["github", "keycloak"] }), "src/auth.ts")).toContain("pages: { signIn: '/signin' },");
  });

  it("the sign-in page: a plain form per provider next to the password form, and a fixed message per error type in the URL", () => {
    const page = after(oauth(), "src/routes/signin/+page.svelte")!;
    expect(page).toContain('<SignIn provider="github" {redirectTo} class="auth-secondary">\n\t\t{#snippet submitButton()}Sign in with GitHub{/snippet}\n\t</SignIn>');
    // Between the password form and the providers: "or".
    expect(page).toMatch(/<\/SignIn>\n\t<p class="auth-links"><a href="\/forgot-password">Forgot your password\?<\/a><\/p>\n\t<p class="auth-or">or<\/p>/);
    expect(page).toContain('<SignIn provider="keycloak" {redirectTo} class="auth-secondary">');
    expect(page).toContain('<SignIn provider="password" {redirectTo}>');
    expect(page).toContain('{#if urlError}<div class="auth-alert" role="alert">{errorMessage(urlError)}</div>{/if}');
    expect(page).not.toMatch(/\{urlError\}/); // never the URL's own text
    expect(page).toContain('<a href="/signup">Sign up</a>');
  });

  it(".env and .env.example get each provider's keys, empty; a value already there is kept and not asked for", () => {
    const p = oauth();
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\n${MAIL_KEYS}AUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n`);
    expect(after(p, ".env.example")).toBe(`AUTH_SECRET=\n${MAIL_KEYS}AUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n`);
    const mine = "AUTH_SECRET=keep-me-keep-me-keep-me-keep-me-keep-me\nAUTH_GITHUB_ID=mine\n";
    const again = oauth({}, svApp({ ".env": mine }));
    expect(after(again, ".env")).toBe(`${mine}${MAIL_KEYS}AUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n`);
    expect(again.nextSteps[0]).toContain(", then set AUTH_GITHUB_SECRET in .env.");
  });

  it("next steps, per provider: the callback URL to register, the console, the keys to fill and the catalog's note", () => {
    const steps = oauth().nextSteps;
    expect(steps[0]).toBe(
      "Register the callback URL http://localhost:5173/auth/callback/github for GitHub at https://github.com/settings/developers, then set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET in .env.",
    );
    expect(steps[1]).toBe(
      `Register the callback URL http://localhost:5173/auth/callback/keycloak for Keycloak, then set AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER in .env. ${findProvider("keycloak")!.callbackNote}`,
    );
    expect(steps.some((step) => step.includes("every auth route"))).toBe(false);
    // Issuer-based providers without a note on their issuer get a word on what it is.
    expect(plan({ providers: ["auth0"] }).nextSteps[0]).toMatch(/then set AUTH_AUTH0_ID, AUTH_AUTH0_SECRET and AUTH_AUTH0_ISSUER in \.env\. AUTH_AUTH0_ISSUER is the provider's issuer URL/);
    // Apple's return URL must be https on a real domain: the note says so next to the localhost URL.
    expect(plan({ providers: ["apple"] }).nextSteps[0]).toContain(findProvider("apple")!.callbackNote!);
  });

  it("OAuth providers only, no database: no sign-up, no database modules, no driver; JWT sessions; the next steps open /signin", () => {
    const p = plan({ providers: ["github"], adapter: "none", strategy: "jwt" });
    const paths = p.changes.map((c) => c.path);
    // The stylesheet only: no database, so no account page and nothing of it.
    expect(paths.filter((path) => path.startsWith("src/lib/") || path.includes("signup") || path.includes("account"))).toEqual(["src/lib/AuthHeader.svelte", "src/lib/auth.css"]);
    expect(after(p, "src/auth.ts")).toContain("import { GitHub } from '@gatehouse/runtime/providers';");
    expect(after(p, "src/auth.ts")).not.toContain("Credentials");
    expect(after(p, "src/routes/signin/+page.server.ts")).toContain("export const actions: Actions = { default: signIn };");
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME });
    expect(p.nextSteps.at(-2)).toContain("open http://localhost:5173/signin;");
  });

  it("the button auth add-provider suggests for a provider added later is the one auth-init writes", () => {
    const page = after(oauth(), "src/routes/signin/+page.svelte")!.replaceAll(" {redirectTo}", "").replace(/\n\s*/g, "");
    expect(page).toContain(layoutFor("sveltekit").signInButton({ id: "keycloak", name: "Keycloak" }));
  });

  it("a re-run with more providers keeps the user's config, and says how to add them to it", () => {
    const project = applied(svApp(), plan());
    const p = oauth({}, project);
    expect(p.kept).toContainEqual({ path: "src/auth.ts", reason: expect.stringContaining("differs from what auth-init writes") });
    expect(p.nextSteps[0]).toBe("src/auth.ts is your own and was kept: if it lacks them, add the providers with `npx @gatehouse/cli add-provider github keycloak`, which edits it in place.");
    expect(after(p, ".env")).toMatch(/\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n$/);
  });

  it("running again on the result changes nothing", () => {
    const first = oauth();
    expect(oauth({}, applied(svApp(), first)).changes).toEqual([]);
  });
});

describe("answers", () => {
  it("--providers: ids from the runtime's catalog, deduplicated; unknown ids are named with the known ones", () => {
    expect(parseProviders(" Password,password ")).toEqual(["password"]);
    // credentials, the id of email + password accounts before the Password provider, is taken as password.
    expect(parseProviders(" Credentials,password,credentials ")).toEqual(["password"]);
    expect(parseProviders("github,credentials")).toEqual(["github", "password"]);
    expect(() => parseProviders("password,nope")).toThrow(/unknown provider "nope": known ones are password, email, passkey, apple, auth0/);
    // A typo gets the id it was probably meant to be, as add-provider does.
    expect(() => parseProviders("password,gihub")).toThrow(/unknown provider "gihub" \(did you mean github\?\): known ones are password, email/);
    expect(() => parseProviders("credentials,nope")).toThrow(/unknown provider "nope": known ones are password, email/);
    expect(parseProviders("email,Passkey,github")).toEqual(["email", "passkey", "github"]);
    expect(() => parseProviders(",")).toThrow(UsageError);
  });

  it("--database-url: postgres URLs only; `$` is percent-encoded so dotenv expansion leaves it alone", () => {
    expect(parseDatabaseUrl("postgres://u:pa$s@localhost/db")).toBe("postgres://u:pa%24s@localhost/db");
    expect(() => parseDatabaseUrl("mysql://localhost/db")).toThrow(/postgres:\/\//);
    expect(() => parseDatabaseUrl("not a url")).toThrow(/not a URL/);
  });

  it("combinations that cannot work are refused with the flag that fixes them", () => {
    expect(() => checkAnswers({ ...DEFAULTS, adapter: "none", strategy: "database" })).toThrow(/--strategy jwt/);
    expect(() => checkAnswers({ ...DEFAULTS, databaseUrl: "postgres://x/y" })).toThrow(/only used with --adapter postgres or hosted-store/);
    expect(() => checkAnswers({ ...DEFAULTS, adapter: "sqlite", databaseUrl: "postgres://x/y" })).toThrow(/set SQLITE_PATH in \.env/);
    expect(() => checkAnswers({ ...DEFAULTS, adapter: "none", strategy: "database" })).toThrow(/\(pglite, postgres, sqlite, hosted-store\)/);
    for (const adapter of ["postgres", "hosted-store"] as const) expect(() => checkAnswers({ ...DEFAULTS, adapter, databaseUrl: "postgres://x/y" })).not.toThrow();
    // The key the prompt names is the one the runtime's HostedStoreClient reads (answers.ts does not import the runtime's adapter).
    expect(DATABASE_URL_KEYS["hosted-store"]).toBe(HOSTED_STORE_ENV.databaseURL);
  });

  it("the catalog lists exactly providers the runtime exports", () => {
    for (const entry of providerCatalog) expect(typeof (providers as Record<string, unknown>)[entry.importName]).toBe("function");
  });

  it("the driver versions apps get are the ones this repository tests with", () => {
    const devDependencies = (path: string) => (JSON.parse(readFileSync(join(root, path), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;
    // The runtime's own devDependencies hold its optional peers that @auth/core (at the root) peers on in another major.
    const tested = { ...devDependencies("package.json"), ...devDependencies("runtime/package.json") };
    for (const [name, version] of Object.entries(DRIVER_VERSIONS)) expect(tested[name]).toBe(version);
  });
});
