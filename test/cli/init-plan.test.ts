/**
 * The `auth-init` generator, in memory: answers + a snapshot of sv's minimal app
 * -> Plan. Rendered files are compared with stored snapshots; re-runs, files the
 * user changed and existing env values are checked one by one.
 */
import { readFileSync } from "node:fs";
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
const DEFAULTS: InitAnswers = { framework: "sveltekit", providers: ["credentials"], strategy: "database", adapter: "pglite", databaseUrl: "" };

function svApp(overrides: Record<string, string | null> = {}): ProjectSnapshot {
  const project = readProject(join(root, "test/cli/fixtures/sveltekit-minimal"), [...DETECT_PATHS, ...initPaths("sveltekit")]);
  return { ...project, files: { ...project.files, ...overrides } };
}

function plan(answers: Partial<InitAnswers> = {}, project = svApp()): Plan {
  return planInit({ answers: { ...DEFAULTS, ...answers }, project, packageManager: "npm", templates: packageTemplates, runtimeSpec: RUNTIME, secret: SECRET });
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
    ["credentials, pglite, database sessions", {}],
    ["credentials, postgres, jwt", { adapter: "postgres", strategy: "jwt", databaseUrl: "postgres://app:pw@localhost:5432/app" }],
    ["credentials, no database, jwt", { adapter: "none", strategy: "jwt" }],
    ["credentials, sqlite, database sessions", { adapter: "sqlite" }],
    ["credentials, hosted-store, database sessions", { adapter: "hosted-store", databaseUrl: "postgres://app:pw@store.example.com:5432/app" }],
    ["credentials + keycloak, sqlite, database sessions", { adapter: "sqlite", providers: ["credentials", "keycloak"] }],
    ["github + keycloak (OAuth only), no database, jwt", { adapter: "none", strategy: "jwt", providers: ["github", "keycloak"] }],
  ] as const)("%s: every file as a snapshot", (_name, answers) => {
    const p = plan(answers as Partial<InitAnswers>);
    const files = Object.fromEntries(p.changes.map((c) => [c.path, c.before === null ? c.after : { before: c.before, after: c.after }]));
    expect(files).toMatchSnapshot();
    expect({ kept: p.kept, dependencies: p.dependencies, devDependencies: p.devDependencies, env: p.env, nextSteps: p.nextSteps }).toMatchSnapshot();
  });

  it("with a database: sign-up, the password module and the schema; the data folder is git-ignored", () => {
    const p = plan();
    expect(p.changes.map((c) => c.path)).toEqual(
      expect.arrayContaining(["src/routes/signup/+page.server.ts", "src/lib/server/passwords.ts", "src/lib/server/schema.ts", "src/lib/server/db.ts"]),
    );
    expect(after(p, ".gitignore")).toMatch(/\n\.pglite\/\n$/);
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, "@electric-sql/pglite": DRIVER_VERSIONS["@electric-sql/pglite"] });
  });

  it("without a database: no sign-up; authorize refuses every sign-in until written, and the next steps say so", () => {
    const p = plan({ adapter: "none", strategy: "jwt" });
    const paths = p.changes.map((c) => c.path);
    expect(paths).not.toContain("src/routes/signup/+page.svelte");
    expect(paths.filter((path) => path.startsWith("src/lib/"))).toEqual([]);
    expect(after(p, "src/auth.ts")).toContain("return null;");
    expect(after(p, "src/auth.ts")).not.toContain("$lib/server/db");
    expect(after(p, "src/routes/signin/+page.svelte")).not.toContain("/signup");
    expect(p.nextSteps.join("\n")).toContain("every sign-in is refused");
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME });
  });

  it(".env gets a fresh AUTH_SECRET; .env.example the same keys without values; package.json a start script reading .env", () => {
    const p = plan({ adapter: "postgres", databaseUrl: "postgres://app:pw@localhost:5432/app" });
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\nDATABASE_URL="postgres://app:pw@localhost:5432/app"\n`);
    expect(p.changes.find((c) => c.path === ".env")?.secret).toBe(true);
    expect(after(p, ".env.example")).toBe("AUTH_SECRET=\nDATABASE_URL=\n");
    const pkg = JSON.parse(after(p, "package.json")!) as { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.scripts.start).toBe("node --env-file=.env build");
    expect(pkg.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, pg: DRIVER_VERSIONS.pg });
    expect(pkg.devDependencies["@types/pg"]).toBe(DRIVER_VERSIONS["@types/pg"]);
    expect(p.env).toEqual([{ key: "AUTH_SECRET", filled: true }, { key: "DATABASE_URL", filled: true }]);
  });

  it("an empty DATABASE_URL is a placeholder, and the next steps ask for it", () => {
    const p = plan({ adapter: "postgres" });
    expect(after(p, ".env")).toContain("\nDATABASE_URL=\n");
    expect(p.env).toContainEqual({ key: "DATABASE_URL", filled: false });
    expect(p.nextSteps[0]).toContain("Set DATABASE_URL");
  });

  it("sqlite: better-sqlite3 and its types; the file's folder .data/ is git-ignored; SQLITE_PATH is read, not written", () => {
    const p = plan({ adapter: "sqlite" });
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, "better-sqlite3": DRIVER_VERSIONS["better-sqlite3"] });
    expect(p.devDependencies).toEqual({ "@types/better-sqlite3": DRIVER_VERSIONS["@types/better-sqlite3"], "@types/node": DRIVER_VERSIONS["@types/node"] });
    expect(after(p, ".gitignore")).toMatch(/\n\.data\/\n$/);
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\n`);
    const db = after(p, "src/lib/server/db.ts")!;
    expect(db).toContain("env.SQLITE_PATH || '.data/auth.sqlite'");
    expect(db).toContain("export const adapter = SqliteAdapter(database);");
    expect(db).not.toMatch(/\$\d/); // SQLite's placeholders are `?`
    expect(after(p, "src/lib/server/schema.ts")).toContain("from '@gatehouse/runtime/adapters/sqlite'");
    expect(p.nextSteps.join("\n")).not.toContain("Set ");
  });

  it("hosted-store: pg; HOSTED_STORE_DATABASE_URL from --database-url and HOSTED_STORE_BRANCH in .env; the password table is the runtime's", () => {
    const p = plan({ adapter: "hosted-store", databaseUrl: "postgres://app:pw@store.example.com:5432/app" });
    expect(p.dependencies).toEqual({ "@gatehouse/runtime": RUNTIME, pg: DRIVER_VERSIONS.pg });
    expect(p.devDependencies).toEqual({ "@types/pg": DRIVER_VERSIONS["@types/pg"], "@types/node": DRIVER_VERSIONS["@types/node"] });
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\nHOSTED_STORE_DATABASE_URL="postgres://app:pw@store.example.com:5432/app"\nHOSTED_STORE_BRANCH="main"\n`);
    expect(after(p, ".env.example")).toBe("AUTH_SECRET=\nHOSTED_STORE_DATABASE_URL=\nHOSTED_STORE_BRANCH=\n");
    expect(after(p, ".gitignore")).toBeUndefined(); // .env is ignored already; no local database
    expect(after(p, "src/lib/server/db.ts")).toContain("export const adapter = HostedStoreAdapter(store);");
    const schema = after(p, "src/lib/server/schema.ts")!;
    expect(schema).toContain("from '@gatehouse/runtime/adapters/hosted-store'");
    expect(schema).toContain("(svc_user_passwords) included");
    expect(schema).not.toMatch(/CREATE TABLE|app_0001/);
    expect(p.env).toEqual([{ key: "AUTH_SECRET", filled: true }, { key: "HOSTED_STORE_DATABASE_URL", filled: true }, { key: "HOSTED_STORE_BRANCH", filled: true }]);
  });

  it("hosted-store without --database-url: an empty HOSTED_STORE_DATABASE_URL placeholder, and the next steps ask for it", () => {
    const p = plan({ adapter: "hosted-store" });
    expect(after(p, ".env")).toContain("\nHOSTED_STORE_DATABASE_URL=\n");
    expect(p.env).toContainEqual({ key: "HOSTED_STORE_DATABASE_URL", filled: false });
    expect(p.nextSteps[0]).toMatch(/^Set HOSTED_STORE_DATABASE_URL in \.env .*HOSTED_STORE_BRANCH names the branch \(default main\)/);
  });

  it("one passwords module for every database: its SQL lives in db.ts", () => {
    const texts = (["pglite", "postgres", "sqlite", "hosted-store"] as const).map((adapter) => after(plan({ adapter }), "src/lib/server/passwords.ts"));
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).not.toMatch(/SELECT|INSERT|UPDATE/);
  });

  it("the password hashing is the runtime's: the module imports it and carries no scrypt of its own; the schema adds no password table", () => {
    for (const adapter of ["pglite", "postgres", "sqlite", "hosted-store"] as const) {
      const p = plan({ adapter });
      const passwords = after(p, "src/lib/server/passwords.ts")!;
      expect(passwords).toContain("import { hashPassword, passwordMatches, passwordNeedsRehash } from '@gatehouse/runtime/password';");
      expect(passwords).not.toMatch(/node:crypto|scrypt\(|timingSafeEqual/);
      expect(after(p, "src/lib/server/db.ts")).toContain("export async function updatePasswordHash(userId: string, previous: string, hash: string): Promise<boolean>");
      expect(after(p, "src/lib/server/schema.ts")).toMatch(/export const schema: readonly Migration\[\] = \[\n\t\.\.\.migrations,\n\];\n$/);
    }
  });

  it("running again on the result changes nothing", () => {
    const first = plan();
    const second = plan({}, applied(svApp(), first));
    expect(second.changes).toEqual([]);
    expect(second.kept).toEqual([]);
  });

  it("an existing AUTH_SECRET, other keys and comments are kept byte for byte; an empty one is filled in place", () => {
    const env = "# mine\r\nAUTH_SECRET=keep-me # comment\r\nOTHER=1\r\n";
    expect(after(plan({}, svApp({ ".env": env })), ".env")).toBeUndefined();
    const empty = "OTHER=1\nAUTH_SECRET=\nLAST=2";
    expect(after(plan({}, svApp({ ".env": empty })), ".env")).toBe(`OTHER=1\nAUTH_SECRET="${SECRET}"\nLAST=2`);
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
  const oauth = (answers: Partial<InitAnswers> = {}, project = svApp()) => plan({ providers: ["credentials", "github", "keycloak"], ...answers }, project);

  it("the config imports each provider and lists it bare (the runtime reads AUTH_<ID>_* itself); refused sign-ins come back to /signin", () => {
    const config = after(oauth(), "src/auth.ts")!;
    expect(config).toContain("import { Credentials, GitHub, Keycloak } from '@gatehouse/runtime/providers';");
    expect(config).toMatch(/\t\t\}\),\n\t\tGitHub,\n\t\tKeycloak,\n\t\]/);
    expect(config).toContain("pages: { signIn: '/signin' },");
    // Credentials alone never redirect to the page with an error: no pages option.
    expect(after(plan(), "src/auth.ts")).not.toContain("pages:");
  });

  it("the sign-in page: a plain form per provider next to the password form, and a fixed message per error type in the URL", () => {
    const page = after(oauth(), "src/routes/signin/+page.svelte")!;
    expect(page).toContain('<SignIn provider="github" {redirectTo}>\n\t{#snippet submitButton()}Sign in with GitHub{/snippet}\n</SignIn>');
    expect(page).toContain('<SignIn provider="keycloak" {redirectTo}>');
    expect(page).toContain('<SignIn provider="credentials" {redirectTo}>');
    expect(page).toContain("{#if urlError}<p role=\"alert\">{errorMessage(urlError)}</p>{/if}");
    expect(page).not.toMatch(/\{urlError\}/); // never the URL's own text
    expect(page).toContain('<a href="/signup">Sign up</a>');
  });

  it(".env and .env.example get each provider's keys, empty; a value already there is kept and not asked for", () => {
    const p = oauth();
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n`);
    expect(after(p, ".env.example")).toBe("AUTH_SECRET=\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n");
    const mine = "AUTH_SECRET=keep-me-keep-me-keep-me-keep-me-keep-me\nAUTH_GITHUB_ID=mine\n";
    const again = oauth({}, svApp({ ".env": mine }));
    expect(after(again, ".env")).toBe(`${mine}AUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n`);
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
    expect(paths.filter((path) => path.startsWith("src/lib/") || path.includes("signup"))).toEqual([]);
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
    expect(p.nextSteps[0]).toBe("src/auth.ts is your own and was kept: if it lacks them, add the providers with `npx auth add-provider github keycloak`, which edits it in place.");
    expect(after(p, ".env")).toMatch(/\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n$/);
  });

  it("running again on the result changes nothing", () => {
    const first = oauth();
    expect(oauth({}, applied(svApp(), first)).changes).toEqual([]);
  });
});

describe("answers", () => {
  it("--providers: ids from the runtime's catalog, deduplicated; unknown ids are named with the known ones", () => {
    expect(parseProviders(" Credentials,credentials ")).toEqual(["credentials"]);
    expect(() => parseProviders("credentials,nope")).toThrow(/unknown provider "nope": known ones are credentials, email, passkey, apple, auth0/);
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
