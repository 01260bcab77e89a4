/**
 * The `auth-init` generator with the passwordless providers, email links
 * (`email`, the runtime's `Nodemailer`) and passkeys (`passkey`), for SvelteKit
 * and SolidStart, in memory: the config (imports, bare entries, the WebAuthn
 * switch), the sign-in and protected pages, env placeholders with their
 * comments, next steps, and the rule that both need a database.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readProject, type ProjectSnapshot } from "../../src/engine/project.js";
import { packageTemplates } from "../../src/engine/templates.js";
import { detect, DETECT_PATHS } from "../../src/generators/detect.js";
import { checkAnswers, UsageError, type InitAnswers } from "../../src/generators/init/answers.js";
import { initPaths, layoutFor, planInit } from "../../src/generators/init/plan.js";
import { DRIVER_VERSIONS } from "../../src/generators/init/versions.js";
import type { Plan } from "../../src/plan/plan.js";
import { root } from "./support/cli.js";

const SECRET = "TEST_SECRET_0123456789_abcdefghijklmnopqrstu";
const SERVER_COMMENT = "# Mail: the SMTP server the app's links go out through (sign-in, sign-up confirmation, password reset), e.g. smtp://user:password@smtp.example.com:587";
const FROM_COMMENT = '# Mail: the sender of those mails, e.g. "Example <no-reply@example.com>"';
const WEBAUTHN_STEP = /^Passkeys \(WebAuthn\) are experimental in the runtime: `experimental: \{ enableWebAuthn: true \}` in the config turns them on\. Browsers make and use them only on https or on http:\/\/localhost — not on an IP address such as http:\/\/127\.0\.0\.1 —/;

type App = "sveltekit" | "solid-start-v2" | "solid-start-v1";
const FIXTURES: Record<App, string> = { sveltekit: "sveltekit-minimal", "solid-start-v2": "solid-start-v2", "solid-start-v1": "solid-start-v1" };

function project(app: App): ProjectSnapshot {
  const framework = app === "sveltekit" ? "sveltekit" : "solid-start";
  const snapshot = readProject(join(root, "test/cli/fixtures", FIXTURES[app]), [...DETECT_PATHS, ...initPaths(framework)]);
  // The SolidStart fixtures' document has a <title> of its own, which auth-init reports (init-plan-solid-start.test.ts): taken out here.
  const document = snapshot.files["src/entry-server.tsx"];
  return document ? { ...snapshot, files: { ...snapshot.files, "src/entry-server.tsx": document.replace(/^[ \t]*<title>.*<\/title>\n/m, "") } } : snapshot;
}

function plan(app: App, answers: Partial<InitAnswers>, snapshot = project(app)): Plan {
  const framework = app === "sveltekit" ? "sveltekit" : "solid-start";
  return planInit({
    answers: { framework, providers: ["password"], strategy: "database", adapter: "pglite", databaseUrl: "", ...answers },
    project: snapshot,
    packageManager: "npm",
    templates: packageTemplates,
    runtimeSpec: "^0.1.0",
    cliSpec: "^0.1.0",
    secret: SECRET,
    frameworkMajor: detect(snapshot).frameworks[0]?.major,
    nodeVersion: "22.12.0",
  });
}

function applied(snapshot: ProjectSnapshot, p: Plan): ProjectSnapshot {
  const files = { ...snapshot.files };
  for (const change of p.changes) files[change.path] = change.after;
  return { ...snapshot, files };
}

const after = (p: Plan, path: string) => p.changes.find((c) => c.path === path)?.after;
const paths = (p: Plan) => p.changes.map((c) => c.path);
const signInPage = (app: App) => (app === "sveltekit" ? "src/routes/signin/+page.svelte" : "src/routes/signin.tsx");
const protectedPage = (app: App) => (app === "sveltekit" ? "src/routes/protected/+page.svelte" : "src/routes/protected.tsx");

describe("planInit with email and passkey: every file as a snapshot", () => {
  it.each([
    ["SvelteKit: email, pglite, database sessions", "sveltekit", { providers: ["email"] }],
    ["SvelteKit: passkey, sqlite, jwt", "sveltekit", { providers: ["passkey"], adapter: "sqlite", strategy: "jwt" }],
    ["SvelteKit: password + email + passkey + github, pglite, database sessions", "sveltekit", { providers: ["password", "email", "passkey", "github"] }],
    ["SolidStart 2: email, pglite, database sessions", "solid-start-v2", { providers: ["email"] }],
    ["SolidStart 1.x: passkey, postgres, database sessions", "solid-start-v1", { providers: ["passkey"], adapter: "postgres" }],
    ["SolidStart 2: password + email + passkey, pglite, database sessions", "solid-start-v2", { providers: ["password", "email", "passkey"] }],
  ] as const)("%s", (_name, app, answers) => {
    const p = plan(app, { ...answers, providers: [...answers.providers] } as Partial<InitAnswers>);
    const files = Object.fromEntries(p.changes.map((c) => [c.path, c.before === null ? c.after : { before: c.before, after: c.after }]));
    expect(files).toMatchSnapshot();
    expect({ kept: p.kept, dependencies: p.dependencies, devDependencies: p.devDependencies, env: p.env, nextSteps: p.nextSteps }).toMatchSnapshot();
  });
});

describe.each(["sveltekit", "solid-start-v2"] as const)("planInit with email and passkey (%s)", (app) => {
  const q = app === "sveltekit" ? "'" : '"';
  const both = () => plan(app, { providers: ["email", "passkey"] });

  it("the config imports Nodemailer and Passkey and lists them bare; only passkeys turn on enableWebAuthn; refused sign-ins come back to /signin", () => {
    const config = after(both(), "src/auth.ts")!;
    expect(config).toContain(`import { Nodemailer, Passkey } from ${q}@gatehouse/runtime/providers${q};`);
    expect(config).toMatch(/providers: \[\n\s+Nodemailer,\n\s+Passkey,\n\s+\],?\n\s+\/\/ Passkeys \(WebAuthn\) are experimental in the runtime: it runs them only when this is on\.\n\s+experimental: \{ enableWebAuthn: true \},?\n\};?\)?;?\n$/);
    expect(config).toContain(`pages: { signIn: ${q}/signin${q} },`);
    expect(config).toContain("adapter,");
    expect(config).not.toContain("Credentials");
    const emailOnly = after(plan(app, { providers: ["email"] }), "src/auth.ts")!;
    expect(emailOnly).toContain(`import { Nodemailer } from ${q}@gatehouse/runtime/providers${q};`);
    expect(emailOnly).not.toContain("experimental");
  });

  it("a database without passwords: db.ts and schema.ts, no password pages, no password messages (only the account page's); the next steps open /signin", () => {
    const p = both();
    expect(paths(p)).toEqual(expect.arrayContaining(["src/lib/server/db.ts", "src/lib/server/schema.ts"]));
    expect(paths(p).filter((path) => /signup|forgot-password|reset-password|passwords|sign-up-errors/.test(path))).toEqual([]);
    const messages = after(p, "src/lib/auth-messages.ts")!;
    expect(messages).toContain("export function accountMessage(");
    expect(messages).not.toMatch(/PASSWORD|signUpMessage|resetMessage|PasswordChange/);
    expect(paths(plan(app, { providers: ["email", "passkey"], accountPage: false }))).not.toContain("src/lib/auth-messages.ts");
    expect(after(p, "src/auth.ts")).not.toContain("Password");
    expect(p.dependencies["@electric-sql/pglite"]).toBeDefined();
    expect(p.nextSteps.join("\n")).toMatch(/open http:\/\/localhost:5173\/signin;/);
  });

  it("email: nodemailer, passkeys: @simplewebauthn/server in the app's dependencies (optional peers the runtime imports when used)", () => {
    expect(both().dependencies.nodemailer).toBe(DRIVER_VERSIONS.nodemailer);
    expect(both().dependencies["@simplewebauthn/server"]).toBe(DRIVER_VERSIONS["@simplewebauthn/server"]);
    expect(JSON.parse(after(both(), "package.json")!).dependencies.nodemailer).toBe(DRIVER_VERSIONS.nodemailer);
    expect(plan(app, { providers: ["passkey"] }).dependencies.nodemailer).toBeUndefined();
    expect(plan(app, { providers: ["passkey"] }).dependencies["@simplewebauthn/server"]).toBe(DRIVER_VERSIONS["@simplewebauthn/server"]);
    expect(plan(app, { providers: ["email"] }).dependencies["@simplewebauthn/server"]).toBeUndefined();
    // The Password provider mails its confirmation and reset links the same way: one nodemailer for both.
    expect(plan(app, { providers: ["password"] }).dependencies.nodemailer).toBe(DRIVER_VERSIONS.nodemailer);
    expect(plan(app, { providers: ["password", "email"] }).dependencies.nodemailer).toBe(DRIVER_VERSIONS.nodemailer);
  });

  it(".env and .env.example: AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM as empty placeholders under a comment saying what goes there", () => {
    const p = both();
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\n${SERVER_COMMENT}\nAUTH_EMAIL_SERVER=\n${FROM_COMMENT}\nAUTH_EMAIL_FROM=\n`);
    expect(after(p, ".env.example")).toBe(`AUTH_SECRET=\n${SERVER_COMMENT}\nAUTH_EMAIL_SERVER=\n${FROM_COMMENT}\nAUTH_EMAIL_FROM=\n`);
    expect(p.env).toEqual([{ key: "AUTH_SECRET", filled: true }, { key: "AUTH_EMAIL_SERVER", filled: false }, { key: "AUTH_EMAIL_FROM", filled: false }]);
    // Passkeys read no env.
    expect(after(plan(app, { providers: ["passkey"] }), ".env")).toBe(`AUTH_SECRET="${SECRET}"\n`);
  });

  it("values already in .env are kept and not asked for; a comment is not written again", () => {
    const env = `AUTH_SECRET="keep-me-keep-me-keep-me-keep-me-keep-me"\n${SERVER_COMMENT}\nAUTH_EMAIL_SERVER=smtp://127.0.0.1:2525\n`;
    const p = plan(app, { providers: ["email"] }, { ...project(app), files: { ...project(app).files, ".env": env } });
    expect(after(p, ".env")).toBe(`${env}${FROM_COMMENT}\nAUTH_EMAIL_FROM=\n`);
    expect(p.nextSteps[0]).toBe('Set AUTH_EMAIL_FROM to the sender ("Sign in <no-reply@example.com>") in .env: the sign-in links are mailed that way.');
  });

  it("next steps: the SMTP URL and the sender to set, where passkeys work, and the database both use", () => {
    const steps = both().nextSteps;
    expect(steps[0]).toBe(
      'Set AUTH_EMAIL_SERVER to your SMTP server\'s URL (smtp://user:password@smtp.example.com:587; smtps:// for port 465) and AUTH_EMAIL_FROM to the sender ("Sign in <no-reply@example.com>") in .env: the sign-in links are mailed that way.',
    );
    expect(steps[1]).toMatch(WEBAUTHN_STEP);
    expect(steps[2]).toBe(
      "email and passkey need a database (Email link keeps its one-time sign-in tokens there, Passkey the passkeys): they use the embedded PGlite database (.pglite/, created on the app's first start).",
    );
    expect(plan(app, { providers: ["passkey"], adapter: "sqlite" }).nextSteps).toContain("passkey needs a database (Passkey keeps the passkeys there): it uses the SQLite file .data/auth.sqlite.");
    // Passwords need one too now; all three are named in one step.
    expect(plan(app, { providers: ["password", "email", "passkey"] }).nextSteps).toContain(
      "password, email and passkey need a database (Email and password keeps the accounts and their password hashes there, Email link its one-time sign-in tokens, Passkey the passkeys): they use the embedded PGlite database (.pglite/, created on the app's first start).",
    );
    // Nothing about databases for providers that need none.
    expect(plan(app, { providers: ["github"], adapter: "none", strategy: "jwt" }).nextSteps.join("\n")).not.toMatch(/needs? a database/);
  });

  it("the sign-in page: a form that mails a link, a passkey form whose email field offers passkeys (autocomplete username webauthn), fixed error messages", () => {
    const page = after(both(), signInPage(app))!;
    if (app === "sveltekit") {
      expect(page).toContain(`<SignIn provider="email" {redirectTo}>\n\t\t<AuthField id="link-email" label="Email" name="email" type="email" autocomplete="email" required />\n\t\t{#snippet submitButton()}Email me a sign-in link{/snippet}\n\t</SignIn>`);
      expect(page).toContain("import { signIn } from '@gatehouse/runtime/sveltekit/client';");
      expect(page).toContain("await signIn('passkey', { email: typeof email === 'string' && email !== '' ? email : undefined, redirectTo });");
      expect(page).toContain("<form onsubmit={signInWithPasskey}>");
      // Disabled until the page hydrates, so a click before cannot submit the form natively.
      expect(page).toMatch(/<button type="submit"[^>]* disabled=\{!hydrated\}>Sign in with a passkey<\/button>/);
      expect(page).toContain("if (type === 'EmailSignin')");
    } else {
      expect(page).toContain(`<form method="post" action="/api/auth/signin/email">`);
      expect(page).toContain(`import { signIn } from "@gatehouse/runtime/solid-start/client";`);
      expect(page).toContain(`import { createSignal, onMount, Show } from "solid-js";`);
      expect(page).toContain(`await signIn("passkey", { email: typeof email === "string" && email !== "" ? email : undefined, redirectTo: callbackUrl() });`);
      expect(page).toContain("<form onSubmit={signInWithPasskey}>");
      expect(page).toMatch(/<button type="submit"[^>]* disabled=\{!hydrated\(\)\}>Sign in with a passkey<\/button>/);
      expect(page).toContain(`if (type === "EmailSignin")`);
    }
    expect(page).toContain(`autocomplete="username webauthn"`);
    expect(page).toContain("Sign in with a passkey");
    expect(page).not.toContain("OAuthAccountNotLinked");
    // The form auth add-provider suggests for email added later is this one, in plain markup (a page without fields does not import AuthField).
    const suggested = layoutFor(app === "sveltekit" ? "sveltekit" : "solid-start").signInButton({ id: "email", name: "Email link", type: "email" });
    expect(suggested).toContain('<label for="link-email">Email</label><input id="link-email" name="email" type="email" autocomplete="email" required />');
    expect(page).toMatch(/<AuthField id="link-email" label="Email" name="email" type="email" autocomplete="email" required \/>/);
    // Email alone: no client module, no passkey form.
    const emailOnly = after(plan(app, { providers: ["email"] }), signInPage(app))!;
    expect(emailOnly).not.toContain("client");
    expect(emailOnly).not.toContain("webauthn");
  });

  it("the sign-in page: with two or more forms that each ask for an email, a heading says which way each signs in", () => {
    const headings = (providers: string[]) => [...after(plan(app, { providers }), signInPage(app))!.matchAll(/<h2>(.*)<\/h2>/g)].map((m) => m[1]);
    expect(headings(["password", "email", "passkey", "github"])).toEqual(["With a password", "With a link by email", "With a passkey", "With another account"]);
    expect(headings(["email", "passkey"])).toEqual(["With a link by email", "With a passkey"]);
    // One email field: the page's own heading is enough.
    expect(headings(["password", "github"])).toEqual([]);
    expect(headings(["email"])).toEqual([]);
    expect(headings(["passkey", "github"])).toEqual([]);
  });

  it("a database several processes can share (PostgreSQL, the hosted store, SQLite) holds the rate limit's counts: the db module exports rateLimitStore, the config counts in it; PGlite counts in memory", () => {
    const db = "src/lib/server/db.ts";
    const stores = [
      ["postgres", "PostgresRateLimitStore", "postgres", "database", "rate_limits"],
      ["sqlite", "SqliteRateLimitStore", "sqlite", "database", "rate_limits"],
      ["hosted-store", "HostedStoreRateLimitStore", "hosted-store", "store", "svc_rate_limits"],
    ] as const;
    for (const [adapter, store, module, on, table] of stores) {
      for (const providers of [["password"], ["email"]]) {
        const p = plan(app, { providers, adapter, databaseUrl: adapter === "postgres" ? "postgres://127.0.0.1:5432/app" : "" });
        const config = after(p, "src/auth.ts")!;
        expect(config, adapter).toMatch(/^\s+rateLimit: \{ ip: 100, store: rateLimitStore \},$/m);
        expect(config, adapter).toMatch(app === "sveltekit" ? /^import \{ adapter, closeDatabase, rateLimitStore \} from '\$lib\/server\/db';$/m : /^import \{ adapter, rateLimitStore \} from "\.\/lib\/server\/db";$/m);
        expect(config, adapter).toContain(`counted in the database (its ${table} table), so the limits hold however many`);
        expect(config, adapter).not.toContain("this process's memory");
        const dbModule = after(p, db)!;
        expect(dbModule, adapter).toContain(`export const rateLimitStore = ${store}(${on});`);
        expect(dbModule, adapter).toContain(`// The sign-in counts of \`rateLimit\` (the auth config), in this database's ${table} table\n`);
        // Below the adapter, where auth add-provider email adds it too.
        expect(dbModule, adapter).toMatch(/^export const adapter = .*;\n\n(\/\/ .*\n){3}export const rateLimitStore = /m);
        expect(dbModule, adapter).toMatch(new RegExp(`^import \\{[^}]*\\b${store}\\b[^}]*\\} from '@gatehouse/runtime/adapters/${module}';$`, "m"));
      }
      // Without passwords or email links nothing is limited: no store either.
      const oauth = plan(app, { providers: ["github"], adapter, databaseUrl: adapter === "postgres" ? "postgres://127.0.0.1:5432/app" : "" });
      expect(after(oauth, db), adapter).not.toContain("RateLimitStore");
      expect(after(oauth, "src/auth.ts"), adapter).not.toContain("rateLimit");
    }
    // PGlite: one process opens its folder, so its memory count is exact.
    const pglite = plan(app, { providers: ["password"] });
    expect(after(pglite, "src/auth.ts")).toMatch(/^\s+rateLimit: \{ ip: 100 \},$/m);
    expect(after(pglite, "src/auth.ts")).toContain("counted in this process's memory");
    expect(after(pglite, db)).not.toContain("RateLimitStore");
  });

  it("the config limits sign-in attempts per email address (not per client address) when there are passwords or email links", () => {
    const config = (providers: string[]) => after(plan(app, { providers }), "src/auth.ts")!;
    for (const providers of [["password"], ["email"], ["password", "email", "passkey", "github"]]) {
      // (On PGlite, in memory: see above.)
      expect(config(providers), providers.join(",")).toMatch(/^\s+rateLimit: \{ ip: 100 \},$/m);
    }
    // Passkeys are counted per client address only, OAuth not at all: nothing to limit per email.
    for (const providers of [["passkey"], ["github"], ["passkey", "github"]]) expect(config(providers), providers.join(",")).not.toContain("rateLimit");
    if (app === "sveltekit") {
      // The password form shows the handler's message instead of SvelteKit's 429 error page.
      expect(after(plan(app, { providers: ["password"] }), "src/routes/signin/+page.server.ts")).toContain(
        "if (isHttpError(error, 429)) return fail(429, { error: error.body.message });",
      );
    }
  });

  it("the protected page: an \"Add a passkey\" button (signIn('passkey', { action: 'register' })) with passkeys only", () => {
    const page = after(both(), protectedPage(app))!;
    expect(page).toContain(`await signIn(${q}passkey${q}, { action: ${q}register${q} });`);
    expect(page).toContain("Add a passkey</button>");
    expect(after(plan(app, { providers: ["email"] }), protectedPage(app))).not.toContain("passkey");
  });

  it("running again on the result changes nothing", () => {
    const first = both();
    const second = plan(app, { providers: ["email", "passkey"] }, applied(project(app), first));
    expect(second.changes).toEqual([]);
    expect(second.kept).toEqual([]);
  });

  it("a re-run adding them keeps the user's config and points to auth add-provider", () => {
    const first = applied(project(app), plan(app, {}));
    const p = plan(app, { providers: ["password", "email", "passkey"] }, first);
    expect(p.kept).toContainEqual({ path: "src/auth.ts", reason: expect.stringContaining("differs from what auth-init writes") });
    expect(p.nextSteps[0]).toBe("src/auth.ts is your own and was kept: if it lacks them, add the providers with `npx @gatehouse/cli add-provider email passkey`, which edits it in place.");
  });
});

describe("SolidStart 2 builds: nodemailer and @simplewebauthn/server stay packages of the server", () => {
  // [] without a traceDeps entry (or without the file).
  const traced = (text: string | undefined) => [...(/traceDeps: \[([^\]]*)\]/.exec(text ?? "")?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]);

  it("nitro.config.ts traces nodemailer and @simplewebauthn/server (with PGlite, or alone on another database); 1.x needs no config", () => {
    expect(traced(after(plan("solid-start-v2", { providers: ["email"] }), "nitro.config.ts"))).toEqual(["@electric-sql/pglite", "nodemailer"]);
    expect(traced(after(plan("solid-start-v2", { providers: ["email"], adapter: "postgres" }), "nitro.config.ts"))).toEqual(["nodemailer"]);
    expect(traced(after(plan("solid-start-v2", { providers: ["passkey"], adapter: "postgres" }), "nitro.config.ts"))).toEqual(["@simplewebauthn/server"]);
    expect(traced(after(plan("solid-start-v2", { providers: ["email", "passkey"] }), "nitro.config.ts"))).toEqual(["@electric-sql/pglite", "nodemailer", "@simplewebauthn/server"]);
    // The Password provider mails with nodemailer too: traced with it, once when email links come along.
    expect(traced(after(plan("solid-start-v2", { providers: ["password"] }), "nitro.config.ts"))).toEqual(["@electric-sql/pglite", "nodemailer"]);
    expect(traced(after(plan("solid-start-v2", { providers: ["password", "email"] }), "nitro.config.ts"))).toEqual(["@electric-sql/pglite", "nodemailer"]);
    expect(traced(after(plan("solid-start-v2", { providers: ["password"], adapter: "postgres" }), "nitro.config.ts"))).toEqual(["nodemailer"]);
    // Nothing to trace without PGlite and mail: the config lists only the plugin that closes the database.
    expect(traced(after(plan("solid-start-v2", { providers: ["github"], adapter: "postgres" }), "nitro.config.ts"))).toEqual([]);
    expect(paths(plan("solid-start-v1", { providers: ["email", "passkey"] }))).not.toContain("nitro.config.ts");
  });

  it("the app's own nitro.config.ts is kept, with the traceDeps entries it lacks", () => {
    const own = `import { defineConfig } from "nitro/config";\n\nexport default defineConfig({ plugins: ["./src/lib/server/close-database.ts"], traceDeps: ["@electric-sql/pglite"] });\n`;
    const withOwn = { ...project("solid-start-v2"), files: { ...project("solid-start-v2").files, "nitro.config.ts": own } };
    const p = plan("solid-start-v2", { providers: ["email"] }, withOwn);
    expect(p.kept).toEqual([{ path: "nitro.config.ts", reason: 'it is the app\'s own: add `traceDeps: ["nodemailer"]` to it, or the built server cannot send sign-in mails' }]);
    // Passwords alone: the same entry is missing (their confirmation and reset mails), and the plugin
    // that stops a production server without a mail server as it starts.
    expect(plan("solid-start-v2", { providers: ["password"] }, withOwn).kept).toEqual([
      {
        path: "nitro.config.ts",
        reason: expect.stringMatching(
          /^it is the app's own: add `traceDeps: \["nodemailer"\]` to it, or the built server cannot send .*; add `plugins: \["\.\/src\/lib\/server\/startup-checks\.ts"\]` to it, or a production server without a mail server starts and fails at its first request$/,
        ),
      },
    ]);
    // A config that has both says nothing.
    const complete = own.replace(`traceDeps: ["@electric-sql/pglite"]`, `plugins: ["./src/lib/server/startup-checks.ts", "./src/lib/server/close-database.ts"], traceDeps: ["@electric-sql/pglite", "nodemailer"]`);
    const withComplete = { ...withOwn, files: { ...withOwn.files, "nitro.config.ts": complete } };
    expect(plan("solid-start-v2", { providers: ["password"] }, withComplete).kept).toEqual([]);
  });
});

describe("email, passkey and password need a database", () => {
  const answers = (providers: string[], adapter: InitAnswers["adapter"] = "none"): InitAnswers => ({ framework: "sveltekit", providers, adapter, strategy: "jwt", databaseUrl: "" });

  it("--adapter none is refused, naming the provider, what it keeps and --adapter pglite", () => {
    expect(() => checkAnswers(answers(["email"]))).toThrow(UsageError);
    expect(() => checkAnswers(answers(["email"]))).toThrow(
      "email needs a database (Email link keeps its one-time sign-in tokens there): use --adapter pglite (embedded PostgreSQL, nothing to set up), or postgres, sqlite, hosted-store, instead of --adapter none",
    );
    expect(() => checkAnswers(answers(["github", "passkey"]))).toThrow(/^passkey needs a database \(Passkey keeps the passkeys there\): use --adapter pglite/);
    expect(() => checkAnswers(answers(["password", "email", "passkey"]))).toThrow(
      /^password, email and passkey need a database \(Email and password keeps the accounts and their password hashes there, Email link its one-time sign-in tokens, Passkey the passkeys\)/,
    );
    expect(() => checkAnswers(answers(["password", "github"]))).toThrow(/^password needs a database \(Email and password keeps the accounts and their password hashes there\): use --adapter pglite/);
  });

  it("any database will do, with either session strategy; OAuth still works without one", () => {
    for (const adapter of ["pglite", "postgres", "sqlite", "hosted-store"] as const) expect(() => checkAnswers(answers(["password", "email", "passkey"], adapter))).not.toThrow();
    expect(() => checkAnswers(answers(["github", "google"]))).not.toThrow();
  });
});
