/**
 * `auth add-provider email` and `auth add-provider passkey`: the plan in memory
 * (the import and entry, `experimental: { enableWebAuthn: true }` for passkeys,
 * env placeholders for email, the refusal without an adapter) and the real bin on
 * apps auth-init set up, each run twice.
 */
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { findProvider, type ProviderCatalogEntry } from "../../runtime/src/providers/catalog.js";
import { WEBAUTHN_COMMENT } from "../../src/ast/config-object.js";
import { readProject } from "../../src/engine/project.js";
import { packageTemplates } from "../../src/engine/templates.js";
import { planAddProviders, type AddProviderPlan } from "../../src/generators/add-provider.js";
import { detect, DETECT_PATHS } from "../../src/generators/detect.js";
import { initPaths, layoutFor, planInit } from "../../src/generators/init/plan.js";
import { DRIVER_VERSIONS } from "../../src/generators/init/versions.js";
import { authBin, authInitBin, cli, removeAll, root, snapshotDir, tempCopy } from "./support/cli.js";

const EMAIL: ProviderCatalogEntry = findProvider("email")!;
const PASSKEY: ProviderCatalogEntry = findProvider("passkey")!;
const GITHUB: ProviderCatalogEntry = findProvider("github")!;
const SERVER_COMMENT = "# Mail: the SMTP server the app's links go out through (sign-in, sign-up confirmation, password reset), e.g. smtp://user:password@smtp.example.com:587";
const FROM_COMMENT = '# Mail: the sender of those mails, e.g. "Example <no-reply@example.com>"';

const CONFIG = `import { SvelteKitAuth } from '@gatehouse/runtime/sveltekit';
import { Credentials } from '@gatehouse/runtime/providers';
import { adapter } from '$lib/server/db';

export const { handle, signIn, signOut } = SvelteKitAuth({
\tadapter,
\tproviders: [
\t\tCredentials({ authorize: async () => null }),
\t]
});
`;

function plan(entries: ProviderCatalogEntry[], files: Record<string, string>): AddProviderPlan {
  const layout = layoutFor("sveltekit");
  return planAddProviders({
    entries,
    configPath: "src/auth.ts",
    read: (path) => files[path] ?? null,
    authBaseUrl: "http://localhost:5173/auth",
    signIn: { page: layout.signInPage, button: layout.signInButton, clientModule: layout.clientModule },
  });
}

/** The files after a plan that must have succeeded. */
function applied(result: AddProviderPlan, files: Record<string, string>): Record<string, string> {
  if (!result.ok) throw new Error(result.reason);
  const out = { ...files };
  for (const change of result.plan.changes) out[change.path] = change.after;
  return out;
}

describe("planAddProviders: email and passkey", () => {
  it("email: the import and the entry, both keys in .env and .env.example under their comments, the SMTP step, no callback URL", () => {
    const files = { "src/auth.ts": CONFIG, ".env": 'AUTH_SECRET="s"\n', ".env.example": "AUTH_SECRET=\n" };
    const result = plan([EMAIL], files);
    const after = applied(result, files);
    expect(after["src/auth.ts"]).toContain("import { Credentials, Nodemailer } from '@gatehouse/runtime/providers';");
    expect(after["src/auth.ts"]).toContain("\t\tNodemailer,\n\t]");
    expect(after["src/auth.ts"]).not.toContain("experimental");
    expect(after[".env"]).toBe(`AUTH_SECRET="s"\n${SERVER_COMMENT}\nAUTH_EMAIL_SERVER=\n${FROM_COMMENT}\nAUTH_EMAIL_FROM=\n`);
    expect(after[".env.example"]).toBe(`AUTH_SECRET=\n${SERVER_COMMENT}\nAUTH_EMAIL_SERVER=\n${FROM_COMMENT}\nAUTH_EMAIL_FROM=\n`);
    expect(result.ok && result.callbackUrls).toEqual([]);
    expect(result.ok && result.plan.nextSteps).toEqual([
      'Set AUTH_EMAIL_SERVER to your SMTP server\'s URL (smtp://user:password@smtp.example.com:587; smtps:// for port 465) and AUTH_EMAIL_FROM to the sender ("Sign in <no-reply@example.com>") in .env: the sign-in links are mailed that way.',
    ]);
  });

  it("email: nodemailer added to package.json, with the step to install it; not again once listed", () => {
    const files = { "src/auth.ts": CONFIG, "package.json": '{\n\t"name": "app",\n\t"dependencies": {\n\t\t"@gatehouse/runtime": "^0.1.0"\n\t}\n}\n' };
    const result = planAddProviders({ entries: [EMAIL], configPath: "src/auth.ts", read: (path) => files[path as keyof typeof files] ?? null, authBaseUrl: "x", installCommand: "pnpm install" });
    const after = applied(result, files);
    expect(JSON.parse(after["package.json"]!).dependencies).toEqual({ "@gatehouse/runtime": "^0.1.0", nodemailer: DRIVER_VERSIONS.nodemailer });
    expect(result.ok && result.plan.nextSteps[0]).toBe("Install nodemailer (added to package.json; email sends its sign-in links with it): `pnpm install`.");
    const again = planAddProviders({ entries: [EMAIL], configPath: "src/auth.ts", read: (path) => after[path] ?? null, authBaseUrl: "x" });
    expect(again.ok && again.plan.changes).toEqual([]);
    expect(again.ok && again.plan.nextSteps.join("\n")).not.toContain("Install");
  });

  it("passkey: the import, the entry and experimental.enableWebAuthn; no env keys; the step on where passkeys work", () => {
    const files = { "src/auth.ts": CONFIG, ".env": 'AUTH_SECRET="s"\n' };
    const result = plan([PASSKEY], files);
    const after = applied(result, files);
    expect(after["src/auth.ts"]).toBe(
      CONFIG.replace("{ Credentials }", "{ Credentials, Passkey }").replace("\t]\n});", `\t\tPasskey,\n\t],\n\t// ${WEBAUTHN_COMMENT}\n\texperimental: { enableWebAuthn: true }\n});`),
    );
    expect(after[".env"]).toBe('AUTH_SECRET="s"\n');
    expect(result.ok && result.plan.nextSteps[0]).toMatch(/^Passkeys \(WebAuthn\) are experimental in the runtime/);
  });

  it("passkey and email together: both packages added to package.json, one install step saying why each", () => {
    const files = { "src/auth.ts": CONFIG, "package.json": '{\n\t"name": "app",\n\t"dependencies": {\n\t\t"@gatehouse/runtime": "^0.1.0"\n\t}\n}\n' };
    const result = planAddProviders({ entries: [EMAIL, PASSKEY], configPath: "src/auth.ts", read: (path) => files[path as keyof typeof files] ?? null, authBaseUrl: "x" });
    const after = applied(result, files);
    expect(JSON.parse(after["package.json"]!).dependencies).toEqual({
      "@gatehouse/runtime": "^0.1.0",
      nodemailer: DRIVER_VERSIONS.nodemailer,
      "@simplewebauthn/server": DRIVER_VERSIONS["@simplewebauthn/server"],
    });
    expect(result.ok && result.plan.nextSteps[0]).toBe(
      "Install nodemailer, @simplewebauthn/server (added to package.json; email sends its sign-in links with it; passkeys are verified with it): `npm install`.",
    );
  });

  it("in a SolidStart 2 app (nitro.config.ts), says which packages traceDeps must keep, unless it does", () => {
    const nitro = `import { defineConfig } from "nitro/config";\nexport default defineConfig({ traceDeps: ["@electric-sql/pglite"] });\n`;
    const steps = (files: Record<string, string>) => {
      const result = plan([EMAIL, PASSKEY], { "src/auth.ts": CONFIG, ...files });
      return result.ok ? result.plan.nextSteps.filter((step) => step.includes("traceDeps")) : [];
    };
    expect(steps({ "nitro.config.ts": nitro })).toEqual([
      'Add "nodemailer" to `traceDeps` in nitro.config.ts (the runtime imports it by a name Nitro cannot follow), or the built server fails when it is used.',
      'Add "@simplewebauthn/server" to `traceDeps` in nitro.config.ts (its reflect-metadata polyfill must run before its X.509 parser, an order Nitro\'s bundle does not keep), or the built server fails when it is used.',
    ]);
    expect(steps({ "nitro.config.ts": nitro.replace(`"@electric-sql/pglite"`, `"@electric-sql/pglite", "nodemailer", "@simplewebauthn/server"`) })).toEqual([]);
    expect(steps({})).toEqual([]);
  });

  it("twice changes nothing, for both at once; keys already set are not asked for again", () => {
    const files = { "src/auth.ts": CONFIG, ".env": "" };
    const once = applied(plan([EMAIL, PASSKEY], files), files);
    once[".env"] = once[".env"]!.replace("AUTH_EMAIL_SERVER=", "AUTH_EMAIL_SERVER=smtp://127.0.0.1:2525").replace("AUTH_EMAIL_FROM=", "AUTH_EMAIL_FROM=app@example.com");
    const twice = plan([EMAIL, PASSKEY], once);
    if (!twice.ok) throw new Error(twice.reason);
    expect(twice.plan.changes).toEqual([]);
    expect(twice.present).toEqual([EMAIL, PASSKEY]);
    expect(twice.plan.nextSteps.join("\n")).not.toContain("AUTH_EMAIL_SERVER");
  });

  it("Passkey listed without the switch: the switch is added (the runtime refuses the config without it)", () => {
    const config = CONFIG.replace("{ Credentials }", "{ Credentials, Passkey }").replace("\t]\n", "\t\tPasskey\n\t]\n");
    const result = plan([PASSKEY], { "src/auth.ts": config });
    expect(result.ok && result.present).toEqual([PASSKEY]);
    expect(applied(result, { "src/auth.ts": config })["src/auth.ts"]).toContain("\t\tPasskey\n\t],\n\t// Passkeys (WebAuthn)");
  });

  it("an existing `experimental` object gets `enableWebAuthn: true` added; twice changes nothing", () => {
    const config = CONFIG.replace("\t]\n});", "\t],\n\texperimental: { mine: true }\n});");
    const once = applied(plan([PASSKEY], { "src/auth.ts": config }), { "src/auth.ts": config });
    expect(once["src/auth.ts"]).toContain("\texperimental: { mine: true, enableWebAuthn: true }\n});");
    const twice = plan([PASSKEY], once);
    expect(twice.ok && twice.plan.changes).toEqual([]);
  });

  it("an `experimental` it cannot edit: refused with the reason and the switch to add by hand", () => {
    const config = CONFIG.replace("\t]\n});", "\t],\n\texperimental: flags\n});");
    const result = plan([PASSKEY], { "src/auth.ts": config });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("not written as an object"), byHand: expect.stringContaining("experimental: { enableWebAuthn: true }") });
  });

  it("a config without an adapter: refused before any edit, saying which provider needs one, why, and how to add one; OAuth still works", () => {
    const config = CONFIG.replace("import { adapter } from '$lib/server/db';\n", "").replace("\tadapter,\n", "");
    for (const entries of [[EMAIL], [PASSKEY], [GITHUB, EMAIL, PASSKEY]]) {
      const result = plan(entries, { "src/auth.ts": config });
      expect(result.ok).toBe(false);
      expect(!result.ok && "needsAdapter" in result).toBe(true);
    }
    const both = plan([EMAIL, PASSKEY], { "src/auth.ts": config });
    expect(!both.ok && both.reason).toContain(
      "email and passkey need a database (Email link keeps its one-time sign-in tokens there, Passkey the passkeys), and src/auth.ts sets no `adapter`: the runtime would refuse the whole config (every sign-in and session check). Nothing was changed.",
    );
    expect(!both.ok && both.reason).toContain("`npx @gatehouse/cli init --adapter pglite --yes`");
    expect(plan([GITHUB], { "src/auth.ts": config }).ok).toBe(true);
  });

  it("a config whose adapter cannot be told from the text (a spread): edited, with a next step saying an adapter is needed", () => {
    const config = `import { Credentials } from '@gatehouse/runtime/providers';\nexport const config = { ...shared, providers: [Credentials({ authorize })] };\n`;
    const result = plan([EMAIL], { "src/auth.ts": config });
    expect(result.ok && result.plan.nextSteps[0]).toBe(
      "email needs a database (Email link keeps its one-time sign-in tokens there): make sure src/auth.ts sets an `adapter` — without one the runtime refuses the whole config.",
    );
  });

  it("the sign-in page auth-init wrote: the email form and what a passkey button calls, unless the page has them", () => {
    const result = plan([EMAIL, PASSKEY], { "src/auth.ts": CONFIG, "src/routes/signin/+page.svelte": "<SignIn provider=\"credentials\" />\n" });
    const steps = result.ok ? result.plan.nextSteps : [];
    expect(steps).toContain(
      'Add the email sign-in form to src/routes/signin/+page.svelte: <SignIn provider="email" class="auth-secondary"><div class="auth-field"><label for="link-email">Email</label><input id="link-email" name="email" type="email" autocomplete="email" required /></div>{#snippet submitButton()}Email me a sign-in link{/snippet}</SignIn>',
    );
    expect(steps.join("\n")).toContain('Add a passkey button to src/routes/signin/+page.svelte: in the browser, `signIn("passkey", { email })` from @gatehouse/runtime/sveltekit/client signs in');
    const page = "<SignIn provider=\"email\" />\n<script>signIn('passkey', { email })</script>\n";
    const done = plan([EMAIL, PASSKEY], { "src/auth.ts": CONFIG, "src/routes/signin/+page.svelte": page });
    expect((done.ok ? done.plan.nextSteps : []).join("\n")).not.toContain("Add ");
  });
});

describe.each([
  ["sveltekit", "sveltekit-minimal"],
  ["solid-start", "solid-start-v2"],
] as const)("add-provider on auth-init's config gives auth-init's own (%s)", (framework, fixture) => {
  const initFiles = (providers: string[], adapter: "pglite" | "postgres" | "hosted-store" | "sqlite" = "pglite") => {
    const project = readProject(join(root, "test/cli/fixtures", fixture), [...DETECT_PATHS, ...initPaths(framework)]);
    const p = planInit({
      answers: { framework, providers, strategy: "database", adapter, databaseUrl: adapter === "postgres" ? "postgres://localhost:5432/app" : "" },
      project,
      packageManager: "npm",
      templates: packageTemplates,
      runtimeSpec: "^0.1.0",
      cliSpec: "^0.1.0",
      secret: "s".repeat(43),
      frameworkMajor: detect(project).frameworks[0]?.major,
    });
    return Object.fromEntries(p.changes.map((c) => [c.path, c.after]));
  };
  const initConfig = (providers: string[]) => initFiles(providers)["src/auth.ts"]!;

  it("password, then add-provider email passkey = password,email,passkey", () => {
    const files = { "src/auth.ts": initConfig(["password"]) };
    const added = applied(planAddProviders({ entries: [EMAIL, PASSKEY], configPath: "src/auth.ts", read: (path) => files[path as keyof typeof files] ?? null, authBaseUrl: "x" }), files);
    // The Password provider's config names the app's pages already (the sign-in page with them): add-provider changes no option but the WebAuthn switch.
    expect(added["src/auth.ts"]).toBe(initConfig(["password", "email", "passkey"]));
  });

  it("GitHub alone, then add-provider email = github,email: the rate limit comes with the email links", () => {
    const files = { "src/auth.ts": initConfig(["github"]) };
    expect(files["src/auth.ts"]).not.toContain("rateLimit");
    const added = applied(planAddProviders({ entries: [EMAIL], configPath: "src/auth.ts", read: (path) => files[path as keyof typeof files] ?? null, authBaseUrl: "x" }), files);
    expect(added["src/auth.ts"]).toBe(initConfig(["github", "email"]));
    // Passkeys alone are not limited per email address: nothing is added for them.
    const passkey = applied(planAddProviders({ entries: [PASSKEY], configPath: "src/auth.ts", read: (path) => files[path as keyof typeof files] ?? null, authBaseUrl: "x" }), files);
    expect(passkey["src/auth.ts"]).not.toContain("rateLimit");
  });

  it.each(["postgres", "hosted-store", "sqlite"] as const)(
    "on %s, GitHub alone, then add-provider email = github,email: the db module gets auth-init's rateLimitStore, the config counts in it",
    (adapter) => {
      const DB = "src/lib/server/db.ts";
      const files = initFiles(["github"], adapter);
      expect(files[DB]).not.toContain("rateLimitStore");
      const read = (path: string) => files[path] ?? null;
      const added = applied(planAddProviders({ entries: [EMAIL], configPath: "src/auth.ts", read, authBaseUrl: "x", dbModule: { path: DB, addStore: true } }), files);
      const expected = initFiles(["github", "email"], adapter);
      expect(added["src/auth.ts"]).toBe(expected["src/auth.ts"]);
      expect(added[DB]).toBe(expected[DB]);
      // Again: both have it, nothing changes.
      const again = planAddProviders({ entries: [EMAIL], configPath: "src/auth.ts", read: (path) => added[path] ?? null, authBaseUrl: "x", dbModule: { path: DB, addStore: true } });
      expect(again.ok && again.plan.changes.filter((c) => c.path === "src/auth.ts" || c.path === DB)).toEqual([]);
    },
  );

  it("on PGlite (one process opens it) the count stays in memory, the db module untouched; a store the module exports already is used", () => {
    const DB = "src/lib/server/db.ts";
    const files = initFiles(["github"]);
    const read = (path: string) => files[path] ?? null;
    const added = applied(planAddProviders({ entries: [EMAIL], configPath: "src/auth.ts", read, authBaseUrl: "x", dbModule: { path: DB, addStore: false } }), files);
    expect(added["src/auth.ts"]).toBe(initConfig(["github", "email"]));
    expect(added[DB]).toBe(files[DB]);
    // An ORM's auth-db module (addStore false) that exports a store: the config counts in it.
    const withStore: Record<string, string> = { ...files, [DB]: `${files[DB]}\nexport const rateLimitStore = PostgresRateLimitStore(database);\n` };
    const used = applied(planAddProviders({ entries: [EMAIL], configPath: "src/auth.ts", read: (path) => withStore[path] ?? null, authBaseUrl: "x", dbModule: { path: DB, addStore: false } }), withStore);
    expect(used["src/auth.ts"]).toContain("rateLimit: { ip: 100, store: rateLimitStore }");
    expect(used["src/auth.ts"]).toContain("counted in the database (its rate_limits table)");
    expect(used["src/auth.ts"]).toMatch(/^import \{ adapter(, closeDatabase)?, rateLimitStore \} from ['"](\$lib|\.\/lib)\/server\/db['"];$/m);
    expect(used[DB]).toBe(withStore[DB]);
  });
});

describe("auth add-provider email / passkey (built binary)", () => {
  const dirs: string[] = [];
  afterAll(() => removeAll(dirs));
  const app = (fixture: string, args: string[] = []) => {
    const dir = tempCopy(fixture, "add-passwordless", dirs);
    const init = cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0", ...args], dir, {}, 60_000);
    expect(init.code, init.stderr).toBe(0);
    return dir;
  };
  const auth = (args: string[], cwd: string) => cli(authBin, args, cwd, {}, 60_000);
  const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

  it("SvelteKit on PGlite: email passkey edits the config (the mail keys are in .env since auth-init's password), prints the steps; a second run changes nothing", () => {
    const dir = app("sveltekit-minimal");
    // The Password provider reads the same mail keys, and mails with nodemailer too: both are there already.
    const env = read(dir, ".env");
    expect(JSON.parse(read(dir, "package.json")).dependencies.nodemailer).toBe(DRIVER_VERSIONS.nodemailer);
    const run = auth(["add-provider", "email", "passkey"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const config = read(dir, "src/auth.ts");
    expect(config).toContain("import { Password, Nodemailer, Passkey } from '@gatehouse/runtime/providers';");
    expect(config).toMatch(/\t\tNodemailer,\n\t\tPasskey,\n\t\],\n\t\/\/ Passkeys \(WebAuthn\)[^\n]*\n\texperimental: \{ enableWebAuthn: true \}\n\}\);\n$/);
    expect(read(dir, ".env")).toBe(env);
    expect(read(dir, ".env")).toMatch(/\n# Mail: the SMTP server[^\n]*\nAUTH_EMAIL_SERVER=\n# Mail: the sender[^\n]*\nAUTH_EMAIL_FROM=\n$/);
    expect(run.stdout).toContain("Set AUTH_EMAIL_SERVER to your SMTP server's URL");
    expect(run.stdout).toContain("Browsers make and use them only on https or on http://localhost");
    expect(run.stdout).toContain("Add the email sign-in form to src/routes/signin/+page.svelte");
    expect(run.stdout).toContain("Install @simplewebauthn/server (added to package.json; passkeys are verified with it): `npm install`.");
    expect(JSON.parse(read(dir, "package.json")).dependencies).toMatchObject({ nodemailer: DRIVER_VERSIONS.nodemailer, "@simplewebauthn/server": DRIVER_VERSIONS["@simplewebauthn/server"] });
    const before = snapshotDir(dir);
    const again = auth(["add-provider", "passkey", "email"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Passkey is already in src/auth.ts.");
    expect(again.stdout).toContain("Email link is already in src/auth.ts.");
    expect(again.stdout).not.toContain("updated");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("SolidStart 2: passkey adds the switch in the config's style; --dry-run first shows it and writes nothing", () => {
    const dir = app("solid-start-v2");
    const before = snapshotDir(dir);
    const dry = auth(["add-provider", "passkey", "--dry-run"], dir);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("+  experimental: { enableWebAuthn: true },");
    expect(snapshotDir(dir)).toEqual(before);
    expect(auth(["add-provider", "passkey"], dir).code).toBe(0);
    expect(read(dir, "src/auth.ts")).toMatch(/\n {4}Passkey,\n {2}\],\n {2}\/\/ Passkeys \(WebAuthn\)[^\n]*\n {2}experimental: \{ enableWebAuthn: true \},\n\};\n$/);
    const done = snapshotDir(dir);
    expect(auth(["add-provider", "passkey"], dir).code).toBe(0);
    expect(snapshotDir(dir)).toEqual(done);
  });

  it("SvelteKit on a PostgreSQL server, made with GitHub alone: email adds the rate limit store to the db module and counts in it; doctor says so", () => {
    const dir = app("sveltekit-minimal", ["--providers", "github", "--adapter", "postgres", "--database-url", "postgres://app@127.0.0.1:9/app"]);
    expect(read(dir, "src/lib/server/db.ts")).not.toContain("rateLimitStore");
    const run = auth(["add-provider", "email"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("src/lib/server/db.ts");
    expect(read(dir, "src/lib/server/db.ts")).toContain("export const rateLimitStore = PostgresRateLimitStore(database);");
    expect(read(dir, "src/lib/server/db.ts")).toContain("import { migrate, PostgresAdapter, PostgresRateLimitStore } from '@gatehouse/runtime/adapters/postgres';");
    const config = read(dir, "src/auth.ts");
    expect(config).toContain("import { adapter, closeDatabase, rateLimitStore } from '$lib/server/db';");
    expect(config).toMatch(/^\trateLimit: \{ ip: 100, store: rateLimitStore \},$/m);
    // The server is not there (port 9): doctor fails on that, but reads where the counts go.
    const doctor = auth(["doctor"], dir);
    expect(doctor.stdout).toContain("rateLimit counts in a store (its `store`), not in each process's memory");
    expect(doctor.stdout).not.toContain("in each process's memory, while");
  });

  it("an app without a database: exit 1 saying email needs one and how to add it; nothing written", () => {
    const dir = app("sveltekit-minimal", ["--providers", "github", "--adapter", "none", "--strategy", "jwt"]);
    const before = snapshotDir(dir);
    const run = auth(["add-provider", "email"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error: email needs a database (Email link keeps its one-time sign-in tokens there), and src/auth.ts sets no `adapter`");
    expect(run.stderr).toContain("npx @gatehouse/cli init --adapter pglite --yes");
    expect(snapshotDir(dir)).toEqual(before);
  });
});
