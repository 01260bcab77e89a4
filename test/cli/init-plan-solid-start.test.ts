/**
 * The `auth-init` generator for SolidStart, in memory: answers + a snapshot of a
 * SolidStart 2 (Vite + Nitro) or 1.x (vinxi) app -> Plan. Rendered files are
 * compared with stored snapshots; re-runs, files the user changed, the app's own
 * middleware and config shapes are checked one by one. Also the minimal SolidStart
 * 2 app written into an empty folder.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readProject, type ProjectSnapshot } from "../../src/engine/project.js";
import { packageTemplates } from "../../src/engine/templates.js";
import { detect, DETECT_PATHS } from "../../src/generators/detect.js";
import type { InitAnswers } from "../../src/generators/init/answers.js";
import { initPaths, layoutFor, planInit, type InitInput } from "../../src/generators/init/plan.js";
import { solidStart } from "../../src/generators/init/solid-start.js";
import { packageName, planSolidStartApp } from "../../src/generators/init/solid-start-app.js";
import type { Plan } from "../../src/plan/plan.js";
import { root } from "./support/cli.js";

const SECRET = "TEST_SECRET_0123456789_abcdefghijklmnopqrstu";
const RUNTIME = "^0.1.0";
const DEFAULTS: InitAnswers = { framework: "solid-start", providers: ["password"], strategy: "database", adapter: "pglite", databaseUrl: "" };
const START = "node --env-file=.env .output/server/index.mjs";
const MAIL_KEYS =
  '# Mail: the SMTP server the app\'s links go out through (sign-in, sign-up confirmation, password reset), e.g. smtp://user:password@smtp.example.com:587\nAUTH_EMAIL_SERVER=\n# Mail: the sender of those mails, e.g. "Example <no-reply@example.com>"\nAUTH_EMAIL_FROM=\n';

type Version = "v2" | "v1";

const ENTRY_SERVER = "src/entry-server.tsx";
const TITLE_LINE = /^[ \t]*<title>.*<\/title>\n/m;

/**
 * The fixture app, with its document's own <title> taken out (the pages' <Title> would be
 * hidden behind it, which auth-init reports: see "a <title> in src/entry-server.tsx"); `titled` keeps it.
 */
function fixture(version: Version, overrides: Record<string, string | null> = {}, { titled = false } = {}): ProjectSnapshot {
  const project = readProject(join(root, `test/cli/fixtures/solid-start-${version}`), [...DETECT_PATHS, ...initPaths("solid-start")]);
  const document = project.files[ENTRY_SERVER]!;
  return { ...project, files: { ...project.files, [ENTRY_SERVER]: titled ? document : document.replace(TITLE_LINE, ""), ...overrides } };
}

/** The plan as init-flow makes it: the major detected from package.json, on Node 20. */
function plan(project: ProjectSnapshot, answers: Partial<InitAnswers> = {}, extra: Partial<InitInput> = {}): Plan {
  const major = detect(project).frameworks.find((f) => f.id === "solid-start")?.major;
  return planInit({
    answers: { ...DEFAULTS, ...answers },
    project,
    packageManager: "npm",
    templates: packageTemplates,
    runtimeSpec: RUNTIME,
    cliSpec: RUNTIME,
    secret: SECRET,
    frameworkMajor: major,
    nodeVersion: "20.19.0",
    ...extra,
  });
}

function applied(project: ProjectSnapshot, p: Plan): ProjectSnapshot {
  const files = { ...project.files };
  for (const change of p.changes) files[change.path] = change.after;
  return { ...project, files };
}

const after = (p: Plan, path: string) => p.changes.find((c) => c.path === path)?.after;
const paths = (p: Plan) => p.changes.map((c) => c.path);
const withScripts = (project: ProjectSnapshot, scripts: Record<string, string>) => {
  const pkg = JSON.parse(project.files["package.json"]!);
  return { "package.json": `${JSON.stringify({ ...pkg, scripts }, null, 2)}\n` };
};

describe("planInit for SolidStart", () => {
  it.each([
    ["SolidStart 2: password, pglite, database sessions", "v2", {}],
    ["SolidStart 1.x: password, pglite, database sessions", "v1", {}],
    ["SolidStart 2: password, postgres, jwt", "v2", { adapter: "postgres", strategy: "jwt", databaseUrl: "postgres://app:pw@localhost:5432/app" }],
    ["SolidStart 2: password, sqlite, database sessions", "v2", { adapter: "sqlite" }],
    ["SolidStart 2: password, hosted-store, database sessions", "v2", { adapter: "hosted-store" }],
    ["SolidStart 2: password + keycloak, pglite, database sessions", "v2", { providers: ["password", "keycloak"] }],
    ["SolidStart 1.x: github (OAuth only), no database, jwt", "v1", { adapter: "none", strategy: "jwt", providers: ["github"] }],
  ] as const)("%s: every file as a snapshot", (_name, version, answers) => {
    const p = plan(fixture(version), answers as Partial<InitAnswers>);
    const files = Object.fromEntries(p.changes.map((c) => [c.path, c.before === null ? c.after : { before: c.before, after: c.after }]));
    expect(files).toMatchSnapshot();
    expect({ kept: p.kept, dependencies: p.dependencies, devDependencies: p.devDependencies, env: p.env, nextSteps: p.nextSteps }).toMatchSnapshot();
  });

  it("SolidStart 2: the middleware is registered in solidStart({...}) of vite.config.ts; PGlite and nodemailer stay packages of the server (nitro.config.ts)", () => {
    const p = plan(fixture("v2"));
    expect(after(p, "vite.config.ts")).toContain(`plugins: [solidStart({ middleware: "./src/middleware.ts" }), nitro()],`);
    expect(after(p, "nitro.config.ts")).toMatch(/traceDeps: \[\n {4}"@electric-sql\/pglite",\n {4}"nodemailer",\n {2}\],/);
    expect(after(p, "nitro.config.ts")).toContain("// nodemailer is imported by the runtime only when it sends a mail, by a name Nitro cannot follow.");
    expect(after(p, "src/middleware.ts")).toContain(`authMiddleware(authConfig, { protectedPaths: ["/protected"], signInPage: "/signin" })`);
    // Nitro bundles pg fine; nodemailer, which the Password provider mails with, still needs the entry.
    expect(paths(plan(fixture("v2"), { adapter: "postgres" }))).toContain("nitro.config.ts");
    expect(after(plan(fixture("v2"), { adapter: "postgres" }), "nitro.config.ts")).toMatch(/traceDeps: \[\n {4}"nodemailer",\n {2}\],/);
    // Nothing to trace without PGlite and without mail: the config lists only the plugin that closes the database.
    const oauthOnly = after(plan(fixture("v2"), { adapter: "postgres", providers: ["github"] }), "nitro.config.ts");
    expect(oauthOnly).toMatch(/plugins: \[\n\s*\/\/[^\n]*\n {4}"\.\/src\/lib\/server\/close-database\.ts",\n {2}\],/);
    expect(oauthOnly).not.toContain("startup-checks");
  });

  it("SolidStart 1.x: the middleware and the Nitro plugin that closes the database are registered in defineConfig({...}) of app.config.ts; vinxi's Nitro keeps PGlite external by itself", () => {
    const p = plan(fixture("v1"));
    expect(after(p, "app.config.ts")).toBe(
      `import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({ middleware: "src/middleware.ts", server: { plugins: ["./src/lib/server/close-database.ts"] } });\n`,
    );
    expect(paths(p)).not.toContain("nitro.config.ts");
    expect(paths(p)).not.toContain("vite.config.ts");
    // Nitro 2's plugin: a plain function of the Nitro app (nitropack is not the app's dependency), on its `close` hook.
    const plugin = after(p, "src/lib/server/close-database.ts")!;
    expect(plugin).toContain(`export default function closeDatabaseOnClose(nitroApp: NitroApp): void {\n  nitroApp.hooks.hook("close", closeDatabase);\n}`);
    expect(plugin).not.toMatch(/from "nitro"|definePlugin/);
    expect(after(p, "src/lib/server/db.ts")).toContain("The server calls it as it stops, after its last request: the Nitro plugin src/lib/server/close-database.ts calls it.");
    // No database, nothing to close.
    const none = plan(fixture("v1"), { providers: ["github"], adapter: "none", strategy: "jwt" });
    expect(paths(none)).not.toContain("src/lib/server/close-database.ts");
    expect(after(none, "app.config.ts")).not.toContain("server:");
  });

  it("SolidStart 1.x: the app's own server options and Nitro plugins are kept, the plugin added after them", () => {
    const config = `import { defineConfig } from "@solidjs/start/config";

export default defineConfig({
  server: {
    preset: "node-server",
    plugins: ["./src/plugins/metrics.ts"],
  },
});
`;
    const p = plan(fixture("v1", { "app.config.ts": config }));
    expect(after(p, "app.config.ts")).toBe(`import { defineConfig } from "@solidjs/start/config";

export default defineConfig({
  server: {
    preset: "node-server",
    plugins: ["./src/plugins/metrics.ts", "./src/lib/server/close-database.ts"],
  },
  middleware: "src/middleware.ts",
});
`);
    expect(p.kept).toEqual([]);
    // Server options without plugins get them.
    const own = plan(fixture("v1", { "app.config.ts": config.replace(`    plugins: ["./src/plugins/metrics.ts"],\n`, "") }));
    expect(after(own, "app.config.ts")).toContain(`  server: {\n    preset: "node-server",\n    plugins: ["./src/lib/server/close-database.ts"],\n  },\n`);
  });

  it("SolidStart 1.x: server options it cannot edit safely: the middleware is still registered; the plugin entry to add is said", () => {
    const config = `import { defineConfig } from "@solidjs/start/config";\n\nconst server = { preset: "node-server" };\nexport default defineConfig({ server });\n`;
    const p = plan(fixture("v1", { "app.config.ts": config }));
    expect(after(p, "app.config.ts")).toContain(`defineConfig({ server, middleware: "src/middleware.ts" })`);
    expect(p.kept).toEqual([
      {
        path: "app.config.ts",
        reason:
          "its server option is not an object literal: add \"./src/lib/server/close-database.ts\" to `server: { plugins: [...] }` in SolidStart's options by hand, or the server exits on SIGTERM or Ctrl-C with the database still open (a PGlite folder is left as after a crash)",
      },
    ]);
    // No config at all: both entries are said.
    expect(plan(fixture("v1", { "app.config.ts": null })).kept).toEqual([
      { path: "app.config.ts", reason: expect.stringContaining('and the Nitro plugin with `server: { plugins: ["./src/lib/server/close-database.ts"] }`') },
    ]);
  });

  it("the dev server's origin in the next steps is the major's: Vite's 5173 for 2, vinxi's 3000 for 1.x", () => {
    expect(plan(fixture("v2")).nextSteps.join("\n")).toContain("open http://localhost:5173/signup");
    expect(plan(fixture("v1")).nextSteps.join("\n")).toContain("open http://localhost:3000/signup");
  });

  it("SolidStart 2 on a Node older than 22: the next steps say dev and build need Node 22+; not on Node 22, not for 1.x", () => {
    expect(plan(fixture("v2")).nextSteps).toContain(
      "SolidStart 2 needs Node.js 22 or newer for `npm run dev` and `npm run build` (this is Node.js 20.19.0); the built server runs on Node.js 20 too.",
    );
    // Before the step that starts the dev server.
    const steps = plan(fixture("v2")).nextSteps;
    expect(steps.findIndex((step) => step.startsWith("SolidStart 2 needs Node.js 22"))).toBeLessThan(steps.findIndex((step) => step.startsWith("Start the app")));
    expect(plan(fixture("v2"), {}, { nodeVersion: "22.12.0" }).nextSteps.join("\n")).not.toContain("Node.js 22");
    expect(plan(fixture("v1")).nextSteps.join("\n")).not.toContain("Node.js 22");
  });

  it("an app's own start script is kept, and the next steps say how to run the build with .env and AUTH_URL", () => {
    const p = plan(fixture("v2"));
    expect(JSON.parse(after(p, "package.json")!).scripts.start).toBe("node .output/server/index.mjs");
    expect(p.nextSteps.at(-1)).toBe(
      "For production: `npm run build`, then `node --env-file=.env .output/server/index.mjs` (`node .output/server/index.mjs` alone does not read .env), with AUTH_URL set to the app's public URL (e.g. AUTH_URL=https://example.com): outside development the request's Host header is not trusted.",
    );
  });

  it("without a start script, one that reads .env is added, and the next steps use it", () => {
    const project = fixture("v1");
    const p = plan({ ...project, files: { ...project.files, ...withScripts(project, { dev: "vinxi dev", build: "vinxi build" }) } });
    expect(JSON.parse(after(p, "package.json")!).scripts.start).toBe(START);
    expect(p.nextSteps.at(-1)).toContain("`npm run build`, then `npm run start` (it reads .env), with AUTH_URL set");
  });

  it("a Nitro preset other than node-server: no start script; the next steps say which env the server needs", () => {
    const config = `import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({ server: { preset: "vercel" } });\n`;
    const project = fixture("v1", { "app.config.ts": config });
    const p = plan({ ...project, files: { ...project.files, ...withScripts(project, { dev: "vinxi dev" }) } });
    expect(JSON.parse(after(p, "package.json")!).scripts.start).toBeUndefined();
    expect(p.nextSteps.at(-1)).toContain("give the server AUTH_SECRET and AUTH_URL");
  });

  it("the pages post plain forms with the CSRF token to the handler: sign-in (provider password), sign-up, forgot and reset password", () => {
    const p = plan(fixture("v2"));
    const csrf = `<input type="hidden" name="csrfToken" value={csrfToken() ?? ""} />`;
    const signIn = after(p, "src/routes/signin.tsx")!;
    expect(signIn).toContain(`<form method="post" action="/api/auth/callback/password">\n        ${csrf}`);
    // Labels are elements of their own (Solid's JSX drops the space between a label's text and its input).
    expect(signIn).toContain(`<AuthField id="signin-password" label="Password" name="password" type="password" autocomplete="current-password" required />`);
    // The link mailed at sign-up opens the page with ?email=&confirm=: the form sends the token back with the password.
    expect(signIn).toContain(`<Show when={confirm()}>{(token) => <input type="hidden" name="confirm" value={token()} />}</Show>`);
    expect(signIn).toContain(`<p class="auth-links">\n        <a href="/forgot-password">Forgot your password?</a>`);
    expect(signIn).toContain(`No account yet? <a href="/signup">Sign up</a>`);
    expect(signIn).toContain(`if (type === "CredentialsSignin") return signInMessage(code);`);
    expect(signIn).toContain(`import { signInMessage } from "../lib/auth-messages";`);
    expect(signIn).not.toContain("/api/auth/callback/credentials");
    expect(after(p, "src/routes/signout.tsx")).toContain(`<form method="post" action="/api/auth/signout">`);

    const signUp = after(p, "src/routes/signup.tsx")!;
    expect(signUp).toContain(`<form method="post" action="/api/auth/signup">\n        ${csrf}`);
    // A message about a field goes under it; one about the whole form above the form.
    expect(signUp).toContain(`return code ? signUpMessage(code) : undefined;`);
    expect(signUp).toContain(`error={errorFor("email")} />`);
    expect(signUp).toContain(`          error={errorFor("password")}\n        />`);
    expect(signUp).toContain(`<Show when={errorFor()}>\n        {(error) => (\n          <div class="auth-alert" role="alert">`);
    expect(signUp).toContain(`          minlength={MIN_PASSWORD_LENGTH}\n          maxlength={MAX_PASSWORD_LENGTH}\n          required\n`);
    const forgot = after(p, "src/routes/forgot-password.tsx")!;
    expect(forgot).toContain(`<form method="post" action="/api/auth/forgot-password">\n        ${csrf}`);
    expect(forgot).toContain(`return code ? resetMessage(code) : undefined;`);
    expect(forgot).toContain(`<AuthField id="forgot-email" label="Email" name="email" type="email" autocomplete="username" required error={errorFor("email")} />`);
    const reset = after(p, "src/routes/reset-password.tsx")!;
    expect(reset).toContain(`<form method="post" action="/api/auth/reset-password">\n            ${csrf}`);
    expect(reset).toContain(`<input type="hidden" name="token" value={token()} />`);
    expect(reset).toContain(`<input type="hidden" name="email" value={text("email") ?? ""} />`);
    // Plain forms, no server actions of the app's own: the handler checks the token and does the work.
    for (const page of [signUp, forgot, reset]) {
      expect(page).not.toMatch(/"use server"|action\(|csrfTokenMatches|passwords/);
      expect(page).toContain(`import { getCsrfToken } from "../lib/session";`);
    }
    // Fixed messages from src/lib/auth-messages.ts (next to the pages, outside the server folder).
    expect(paths(p)).toContain("src/lib/auth-messages.ts");
    expect(signUp).toContain(`from "../lib/auth-messages";`);

    expect(after(p, "src/auth.ts")).toContain(`pages: { signIn: "/signin", signUp: "/signup", forgotPassword: "/forgot-password", resetPassword: "/reset-password" },`);
    expect(after(p, "src/lib/server/db.ts")).toContain("const dir = process.env.PGLITE_DIR || '.pglite';");
    expect(after(p, "src/lib/server/db.ts")).toContain("new PGlite(dir)");
  });

  it("src/auth.ts lists Password({ developmentMail: dev }), dev from NODE_ENV; in production a server without mail settings stops as it starts (2: a Nitro plugin)", () => {
    const v2 = plan(fixture("v2"));
    const config = after(v2, "src/auth.ts")!;
    expect(config).toContain(`import { Password } from "@gatehouse/runtime/providers";`);
    expect(config).toContain(`const dev = process.env.NODE_ENV === "development";`);
    // One check, in one module: the config calls it, and SolidStart 2's Nitro plugin calls it at startup.
    expect(config).toContain(`import { requireMailSettings } from "./lib/server/mail-settings";`);
    expect(config).toMatch(/\nrequireMailSettings\(\);\n/);
    const check = after(v2, "src/lib/server/mail-settings.ts")!;
    expect(check).toContain(`if (process.env.NODE_ENV === "development") return;`);
    expect(check).toContain("if (process.env.AUTH_EMAIL_SERVER && process.env.AUTH_EMAIL_FROM) return;");
    expect(check).toContain(`"AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM must be set in production: sign-up and password reset mail their links. " +`);
    expect(after(v2, "src/lib/server/startup-checks.ts")).toContain("export default definePlugin(() => {\n  requireMailSettings();\n});");
    expect(after(v2, "nitro.config.ts")).toContain(`    "./src/lib/server/startup-checks.ts",\n`);
    // 1.x (vinxi) loads src/auth.ts as the server starts: no plugin.
    const v1 = plan(fixture("v1"));
    expect(paths(v1)).toContain("src/lib/server/mail-settings.ts");
    expect(paths(v1)).not.toContain("src/lib/server/startup-checks.ts");
    expect(after(v1, "src/auth.ts")).toContain("The server loads this file as it starts.");
    // No passwords, no check.
    const oauth = plan(fixture("v2"), { providers: ["github"] });
    expect(paths(oauth).filter((path) => /mail-settings|startup-checks/.test(path))).toEqual([]);
    expect(after(oauth, "src/auth.ts")).not.toContain("requireMailSettings");
    expect(config).toMatch(/ {2}providers: \[\n( {4}\/\/[^\n]*\n)+ {4}Password\(\{ developmentMail: dev \}\),\n {2}\],/);
    expect(config).not.toMatch(/Credentials|authorize|verifyPassword/);
  });

  it("the app has no password code of its own: the auth handler module only reads the CSRF token, db.ts only makes the adapter; sign-up and reset pages need a database", () => {
    for (const adapter of ["pglite", "postgres", "sqlite", "hosted-store"] as const) {
      const p = plan(fixture("v2"), { adapter });
      expect(paths(p).filter((path) => /passwords|sign-up-errors/.test(path)), adapter).toEqual([]);
      expect(after(p, "src/lib/server/db.ts"), adapter).not.toMatch(/user_passwords|INSERT|UPDATE|SELECT/);
      const handler = after(p, "src/lib/server/auth-handler.ts")!;
      expect(handler, adapter).not.toMatch(/csrfTokenMatches|signInWithCredentials|POST|timingSafeEqual|@solidjs\/router/);
      expect(handler, adapter).toContain("export async function csrfToken(event: RequestEventLike): Promise<string> {");
    }
    // OAuth alone, no database: no account pages, no messages, no database modules.
    const oauth = plan(fixture("v2"), { providers: ["github"], adapter: "none", strategy: "jwt" });
    expect(paths(oauth).filter((path) => /signup|forgot-password|reset-password|auth-messages/.test(path))).toEqual([]);
    expect(paths(oauth).filter((path) => path.startsWith("src/lib/server/") && path !== "src/lib/server/auth-handler.ts")).toEqual([]);
    expect(after(oauth, "src/routes/signin.tsx")).not.toMatch(/\/signup|forgot-password|auth-messages/);
  });

  it("OAuth providers: imported and listed bare, a plain form with the CSRF token per provider, keys in .env, callback URLs under /api/auth", () => {
    const p = plan(fixture("v2"), { providers: ["password", "keycloak"] });
    const config = after(p, "src/auth.ts")!;
    expect(config).toContain(`import { Password, Keycloak } from "@gatehouse/runtime/providers";`);
    expect(config).toMatch(/ {4}Password\(\{ developmentMail: dev \}\),\n {4}Keycloak,\n {2}\],/);
    const signIn = after(p, "src/routes/signin.tsx")!;
    expect(signIn).toContain(
      `<form method="post" action="/api/auth/signin/keycloak" class="auth-secondary">\n        <input type="hidden" name="csrfToken" value={csrfToken() ?? ""} />\n        <input type="hidden" name="callbackUrl" value={callbackUrl()} />\n        <button type="submit">Sign in with Keycloak</button>\n      </form>`,
    );
    expect(signIn).toContain(`if (type === "OAuthAccountNotLinked")`);
    // After the password form, an "or", and the provider buttons outlined: a second choice.
    expect(signIn).toContain(`<p class="auth-or">or</p>`);
    // The button auth add-provider suggests for a provider added later is this one.
    expect(signIn.replace(/\n\s*/g, "")).toContain(layoutFor("solid-start").signInButton({ id: "keycloak", name: "Keycloak" }));
    expect(after(p, ".env")).toBe(`AUTH_SECRET="${SECRET}"\n${MAIL_KEYS}AUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n`);
    expect(after(p, ".env.example")).toBe(`AUTH_SECRET=\n${MAIL_KEYS}AUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n`);
    expect(p.nextSteps[0]).toMatch(/^Register the callback URL http:\/\/localhost:5173\/api\/auth\/callback\/keycloak for Keycloak, then set AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER in \.env\. Enter it as/);
    // 1.x: vinxi's dev server.
    expect(plan(fixture("v1"), { providers: ["github"], adapter: "none", strategy: "jwt" }).nextSteps[0]).toContain("http://localhost:3000/api/auth/callback/github for GitHub");
  });

  it("OAuth providers only, no database: no sign-up, no password, JWT sessions; running again changes nothing", () => {
    const answers = { providers: ["github"], adapter: "none", strategy: "jwt" } as const;
    const p = plan(fixture("v1"), { ...answers, providers: [...answers.providers] });
    expect(paths(p)).not.toContain("src/routes/signup.tsx");
    expect(after(p, "src/auth.ts")).not.toMatch(/Credentials|Password/);
    expect(after(p, "src/auth.ts")).toContain(`pages: { signIn: "/signin" },`);
    expect(after(p, "src/routes/signin.tsx")).not.toMatch(/\/api\/auth\/callback\/(credentials|password)/);
    expect(plan(applied(fixture("v1"), p), { ...answers, providers: [...answers.providers] }).changes).toEqual([]);
  });

  it.each(["v2", "v1"] as const)("%s: running again on the result changes nothing", (version) => {
    const first = plan(fixture(version));
    const second = plan(applied(fixture(version), first));
    expect(second.changes).toEqual([]);
    expect(second.kept).toEqual([]);
  });

  it("a file the user changed is kept, with the reason; the rest of the plan goes ahead", () => {
    const project = applied(fixture("v2"), plan(fixture("v2")));
    project.files["src/routes/signin.tsx"] = `${project.files["src/routes/signin.tsx"]}\n// my change\n`;
    project.files["src/routes/protected.tsx"] = null;
    const second = plan(project);
    expect(paths(second)).toEqual(["src/routes/protected.tsx"]);
    expect(second.kept).toEqual([{ path: "src/routes/signin.tsx", reason: expect.stringContaining("differs from what auth-init writes") }]);
  });

  it("the app's own src/middleware.ts is kept, with how to add authMiddleware to it; the config still registers it", () => {
    const own = `import { createMiddleware } from "@solidjs/start/middleware";\n\nexport default createMiddleware({ onRequest: [() => {}] });\n`;
    const p = plan(fixture("v2", { "src/middleware.ts": own }));
    expect(paths(p)).not.toContain("src/middleware.ts");
    expect(p.kept).toEqual([{ path: "src/middleware.ts", reason: expect.stringContaining("add `authMiddleware(authConfig, { protectedPaths: [\"/protected\"]") }]);
    expect(after(p, "vite.config.ts")).toContain(`solidStart({ middleware: "./src/middleware.ts" })`);
    // Once it runs authMiddleware, nothing is said.
    const done = plan(fixture("v2", { "src/middleware.ts": own.replace("[() => {}]", "[authMiddleware(authConfig, { protectedPaths: [\"/account\"] })]") }));
    expect(done.kept).toEqual([]);
  });

  it("a config registering another middleware file: no src/middleware.ts; the config is kept, with what to add to that file", () => {
    const config = `import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({ middleware: "./src/server/middleware.ts" });\n`;
    const p = plan(fixture("v1", { "app.config.ts": config }));
    expect(paths(p)).not.toContain("src/middleware.ts");
    expect(p.kept).toEqual([{ path: "app.config.ts", reason: expect.stringContaining("it registers another middleware file (./src/server/middleware.ts)") }]);
    // The Nitro plugin that closes the database is still registered; the middleware entry stays the app's.
    expect(after(p, "app.config.ts")).toBe(
      `import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({ middleware: "./src/server/middleware.ts", server: { plugins: ["./src/lib/server/close-database.ts"] } });\n`,
    );
    expect(paths(plan(fixture("v1", { "app.config.ts": config }), { providers: ["github"], adapter: "none", strategy: "jwt" }))).not.toContain("app.config.ts");
  });

  it("a config it cannot edit safely, or none, is reported with the entry to add by hand", () => {
    const config = `import { solidStart } from "@solidjs/start/config";\nimport { defineConfig } from "vite";\n\nconst options = {};\nexport default defineConfig({ plugins: [solidStart(options)] });\n`;
    expect(plan(fixture("v2", { "vite.config.ts": config })).kept).toEqual([
      { path: "vite.config.ts", reason: expect.stringContaining('add `middleware: "./src/middleware.ts"` to SolidStart\'s options by hand') },
    ]);
    expect(plan(fixture("v2", { "vite.config.ts": null })).kept).toEqual([
      { path: "vite.config.ts", reason: expect.stringContaining("it does not exist, nor does any other SolidStart config") },
    ]);
  });

  it("the app's own nitro.config.ts (SolidStart 2, PGlite) is kept, with the traceDeps entries to add", () => {
    const own = `import { defineConfig } from "nitro/config";\n\nexport default defineConfig({ preset: "node-server" });\n`;
    const oauth = plan(fixture("v2", { "nitro.config.ts": own }), { providers: ["github"] });
    expect(paths(oauth)).not.toContain("nitro.config.ts");
    expect(oauth.kept).toEqual([{ path: "nitro.config.ts", reason: expect.stringContaining('`traceDeps: ["@electric-sql/pglite"]`') }]);
    expect(oauth.kept[0]!.reason).toContain('add `"./src/lib/server/close-database.ts"` to its `plugins`, or the server does not exit on SIGTERM or Ctrl-C');
    // With passwords (the default), nodemailer too: the Password provider mails with it.
    const p = plan(fixture("v2", { "nitro.config.ts": own }));
    expect(paths(p)).not.toContain("nitro.config.ts");
    expect(p.kept).toEqual([{ path: "nitro.config.ts", reason: expect.stringContaining('`traceDeps: ["@electric-sql/pglite", "nodemailer"]`') }]);
    expect(p.kept[0]!.reason).toContain('add `plugins: ["./src/lib/server/startup-checks.ts"]` to it');
  });

  it("every page: the stylesheet, a card (main.auth), a <Title>; the field component and the account page only where used", () => {
    const routes = (p: Plan) => paths(p).filter((path) => path.startsWith("src/routes/") && path.endsWith(".tsx"));
    const all = plan(fixture("v2"), { providers: ["password", "email", "passkey", "github"] });
    expect(routes(all).sort()).toEqual(
      ["account", "forgot-password", "protected", "reset-password", "signin", "signout", "signup"].map((name) => `src/routes/${name}.tsx`),
    );
    const titles: Record<string, string> = {};
    for (const path of routes(all)) {
      const page = after(all, path)!;
      expect(page, path).toContain(`import { Title } from "@solidjs/meta";`);
      expect(page, path).toContain(`import "../lib/auth.css";`);
      expect(page, path).toMatch(/<main class="auth( auth-wide)?">/);
      titles[path] = /<Title>(.*)<\/Title>/.exec(page)![1]!;
    }
    expect(titles).toEqual({
      "src/routes/account.tsx": "Your account",
      "src/routes/forgot-password.tsx": "Forgot your password?",
      "src/routes/protected.tsx": "Protected",
      "src/routes/reset-password.tsx": "Choose a new password",
      "src/routes/signin.tsx": "Sign in",
      "src/routes/signout.tsx": "Sign out",
      "src/routes/signup.tsx": "Sign up",
    });
    expect(paths(all)).toEqual(expect.arrayContaining(["src/lib/auth-field.tsx", "src/lib/auth.css", "src/lib/auth-messages.ts"]));
    // No account page: no route, and sign-in lands on the home page.
    const noAccount = plan(fixture("v2"), { accountPage: false });
    expect(paths(noAccount)).not.toContain("src/routes/account.tsx");
    expect(paths(noAccount)).toContain("src/lib/auth-field.tsx");
    expect(after(noAccount, "src/routes/signin.tsx")).toContain(`typeof params.callbackUrl === "string" ? params.callbackUrl : "/");`);
    expect(after(noAccount, "src/routes/protected.tsx")).not.toContain("/account");
    expect(after(noAccount, "src/lib/session.ts")).not.toContain("requireAccount");
    // OAuth only, no database: no fields, no account, no messages; the stylesheet still.
    const oauth = plan(fixture("v2"), { providers: ["github"], adapter: "none", strategy: "jwt" });
    expect(paths(oauth).filter((path) => /auth-field|account|auth-messages/.test(path))).toEqual([]);
    expect(paths(oauth)).toContain("src/lib/auth.css");
    expect(after(oauth, "src/routes/signin.tsx")).not.toMatch(/AuthField|auth-or/);
    // OAuth with a database: the account page, with its field component and messages.
    const linked = plan(fixture("v2"), { providers: ["github"] });
    expect(paths(linked)).toEqual(expect.arrayContaining(["src/routes/account.tsx", "src/lib/auth-field.tsx", "src/lib/auth-messages.ts"]));
    expect(after(linked, "src/routes/signin.tsx")).not.toMatch(/AuthField|auth-or/);
  });

  it("the field component: label for the input, hint and error tied to it (aria-describedby, aria-invalid) only when present", () => {
    const field = after(plan(fixture("v2")), "src/lib/auth-field.tsx")!;
    expect(field).toContain(`const [own, input] = splitProps(props, ["id", "label", "hint", "error"]);`);
    expect(field).toContain(`<label for={own.id}>{own.label}</label>`);
    expect(field).toContain(`<input id={own.id} {...input} aria-invalid={own.error ? "true" : undefined} aria-describedby={describedBy()} />`);
    expect(field).toContain('const describedBy = () => [own.hint ? `${own.id}-hint` : "", own.error ? `${own.id}-error` : ""].filter(Boolean).join(" ") || undefined;');
    expect(field).toContain('<p class="auth-field-error" id={`${own.id}-error`} role="alert">');
  });

  it("the sign-in page: an \"or\" before each way after the first, the later ones outlined (auth-secondary); inputs with ids of their own", () => {
    const page = (providers: string[]) => after(plan(fixture("v2"), { providers }), "src/routes/signin.tsx")!;
    const all = page(["password", "email", "passkey", "github"]);
    expect(all.match(/<p class="auth-or">or<\/p>/g)).toHaveLength(3);
    expect(all).toContain(`<form method="post" action="/api/auth/signin/email" class="auth-secondary">`);
    expect(all).toContain(`<button type="submit" class="auth-secondary" disabled={!hydrated()}>Sign in with a passkey</button>`);
    expect(all).toContain(`error={passkeyFailed() ? "Could not sign in with a passkey. Try again." : undefined}`);
    const ids = [...all.matchAll(/<AuthField\s+id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(["signin-email", "signin-password", "link-email", "passkey-email"]);
    // The first way in is the main one.
    const emailFirst = page(["email", "passkey"]);
    expect(emailFirst.match(/auth-or/g)).toHaveLength(1);
    expect(emailFirst).toContain(`<form method="post" action="/api/auth/signin/email">`);
    expect(emailFirst).toContain(`<button type="submit" class="auth-secondary" disabled={!hydrated()}>Sign in with a passkey</button>`);
    expect(page(["github"])).not.toContain("auth-or");
    expect(page(["github"])).toContain(`<form method="post" action="/api/auth/signin/github" class="auth-secondary">`);
    // The form auth add-provider suggests for email added later: this page's field, in plain markup (a page may not import AuthField), outlined as a later way in.
    expect(layoutFor("solid-start").signInButton({ id: "email", name: "Email link", type: "email" })).toContain(
      `<form method="post" action="/api/auth/signin/email" class="auth-secondary"><input type="hidden" name="csrfToken" value={csrfToken() ?? ""} /><input type="hidden" name="callbackUrl" value={callbackUrl()} /><div class="auth-field"><label for="link-email">Email</label><input id="link-email" name="email" type="email" autocomplete="email" required /></div>`,
    );
  });

  it("sign-in without a destination lands on /account; the protected page links to it", () => {
    const p = plan(fixture("v2"));
    expect(after(p, "src/routes/signin.tsx")).toContain(`typeof params.callbackUrl === "string" ? params.callbackUrl : "/account");`);
    for (const page of ["signup", "forgot-password", "reset-password"]) expect(after(p, `src/routes/${page}.tsx`), page).toContain(`value={text("callbackUrl") ?? "/account"}`);
    expect(after(p, "src/routes/protected.tsx")).toContain(`<a href="/account">Your account</a>`);
  });

  it("the account page: loaded by a server query that sends visitors without a session to sign in; every form posts to the handler with the CSRF token", () => {
    const p = plan(fixture("v2"), { providers: ["password", "passkey", "github"] });
    const session = after(p, "src/lib/session.ts")!;
    expect(session).toContain(`import { getAccount, getSession } from "@gatehouse/runtime/solid-start";`);
    expect(session).toContain("export const requireAccount = query(async (path: string) => {\n  \"use server\";\n  const account = await getAccount(getRequestEvent()!, authConfig);");
    expect(session).toContain("if (!account) throw redirect(`/signin?${new URLSearchParams({ callbackUrl: path })}`);");
    const page = after(p, "src/routes/account.tsx")!;
    expect(page).toContain(`const account = createAsync(() => requireAccount("/account"), { deferStream: true });`);
    const actions = [...page.matchAll(/<form method="post" action=\{?["`]([^"`]+)["`]\}?/g)].map((m) => m[1]);
    expect(actions).toEqual([
      "/api/auth/update-profile",
      "/api/auth/forgot-password",
      "/api/auth/change-password",
      "/api/auth/revoke-session",
      "/api/auth/revoke-other-sessions",
      "/api/auth/remove-passkey",
      "/api/auth/rename-passkey",
      "/api/auth/unlink-account",
      "/api/auth/signin/${linkable.provider}",
      "/api/auth/delete-account",
    ]);
    // Each form carries the token, right after its opening tag.
    expect(page.match(/<form method="post"[^>]*>\n\s*<input type="hidden" name="csrfToken" value=\{csrfToken\(\) \?\? ""\} \/>/g)).toHaveLength(actions.length);
    expect(page).toContain(`<input type="hidden" name="callbackUrl" value={back("linked")} />`);
    expect(page).toContain(`await signIn("passkey", { action: "register", redirectTo: back("passkey-added") });`);
    // One date format on the server and in the browser.
    expect(page).toContain(`new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });`);
    expect(page).toContain("const when = (iso: string) => `${format.format(new Date(iso))} UTC`;");
    // What it says comes from auth-messages (fixed text per code).
    expect(page).toContain(`import { accountMessage, doneMessage, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../lib/auth-messages";`);
    // No passwords, no passkeys, no OAuth: none of their sections.
    const emailOnly = after(plan(fixture("v2"), { providers: ["email"] }), "src/routes/account.tsx")!;
    expect(emailOnly).not.toMatch(/change-password|forgot-password|passkey|signin\/|unlink|MIN_PASSWORD_LENGTH|signIn/);
    expect(emailOnly).toContain(`import { accountMessage, doneMessage } from "../lib/auth-messages";`);
    expect(emailOnly).toContain("/api/auth/delete-account");
  });

  it("src/app.tsx: the Router's root gets the MetaProvider the pages' <Title> needs; once only; @solidjs/meta is a page dependency", () => {
    for (const version of ["v2", "v1"] as const) {
      const p = plan(fixture(version));
      expect(after(p, "src/app.tsx"), version).toContain(`import { MetaProvider } from "@solidjs/meta";`);
      expect(after(p, "src/app.tsx"), version).toContain(`      root={(props) => (\n        <MetaProvider>\n          <AuthHeader />\n          <>\n            <nav>`);
      expect(after(p, "src/app.tsx"), version).toContain(`import { AuthHeader } from "./lib/auth-header";`);
      expect(plan(applied(fixture(version), p)).changes, version).toEqual([]);
    }
    expect(solidStart().dependencies!()).toEqual({ "@solidjs/meta": "^0.29.4" });
  });

  it("src/app.tsx it cannot edit, or none: kept, with what to add by hand", () => {
    const own = `import { Router } from "@solidjs/router";\nimport { FileRoutes } from "@solidjs/start/router";\nimport Layout from "./layout";\n\nexport default () => <Router root={Layout}><FileRoutes /></Router>;\n`;
    const p = plan(fixture("v2", { "src/app.tsx": own }));
    expect(paths(p)).not.toContain("src/app.tsx");
    expect(p.kept).toEqual([{ path: "src/app.tsx", reason: expect.stringMatching(/^its <Router>'s root is `Layout`, not an inline function: wrap what your app's root layout returns in <MetaProvider>.*; and put <AuthHeader \/> from \.\/lib\/auth-header at its top$/) }]);
    expect(plan(fixture("v2", { "src/app.tsx": null })).kept).toEqual([{ path: "src/app.tsx", reason: expect.stringContaining("it does not exist: wrap your app's root layout in <MetaProvider>") }]);
  });

  it("a <title> in src/entry-server.tsx (browsers show it instead of the pages'): kept, with what to do; it stays said until it is gone", () => {
    const p = plan(fixture("v2", {}, { titled: true }));
    const said = {
      path: ENTRY_SERVER,
      reason: "it has a <title> of its own, which browsers show instead of each page's <Title>: remove it, and give the app its default title with <Title> from @solidjs/meta in src/app.tsx's root layout",
    };
    expect(p.kept).toEqual([said]);
    expect(paths(p)).not.toContain(ENTRY_SERVER);
    expect(plan(applied(fixture("v2", {}, { titled: true }), p)).kept).toEqual([said]);
  });

  it("--framework solid-start without @solidjs/start in package.json: the config files say which major", () => {
    const project = fixture("v1");
    const p = plan(project, {}, { frameworkMajor: undefined });
    expect(after(p, "app.config.ts")).toContain(`middleware: "src/middleware.ts"`);
    expect(p.nextSteps.join("\n")).toContain("http://localhost:3000/");
  });
});

describe("planSolidStartApp (an empty folder)", () => {
  const app = planSolidStartApp("My App!", packageTemplates);
  const project: ProjectSnapshot = {
    dir: "/x",
    exists: true,
    empty: false,
    files: Object.fromEntries([...DETECT_PATHS, ...initPaths("solid-start")].map((path) => [path, app.changes.find((c) => c.path === path)?.after ?? null])),
  };

  it("writes a minimal SolidStart 2 app, pinned to the versions this repository tests", () => {
    expect(paths(app).sort()).toEqual(
      [".gitignore", "package.json", "src/app.tsx", "src/entry-client.tsx", "src/entry-server.tsx", "src/global.d.ts", "src/routes/index.tsx", "tsconfig.json", "vite.config.ts"].sort(),
    );
    const pkg = JSON.parse(after(app, "package.json")!);
    expect(pkg.name).toBe("my-app");
    expect(pkg.dependencies).toEqual({
      "@solidjs/meta": "0.29.4",
      "@solidjs/router": "0.16.3",
      "@solidjs/start": "2.0.5",
      nitro: "3.0.260610-beta",
      "solid-js": "1.9.19",
      vite: "8.3.8",
    });
    expect(detect(project).frameworks).toEqual([{ id: "solid-start", major: 2 }]);
  });

  it("auth-init then registers its middleware and adds the start script; its app has the MetaProvider already (the header goes in it), and no <title> of its own", () => {
    const p = plan(project);
    expect(after(p, "vite.config.ts")).toContain(`solidStart({ middleware: "./src/middleware.ts" })`);
    expect(JSON.parse(after(p, "package.json")!).scripts.start).toBe(START);
    expect(after(p, "src/app.tsx")).toContain(`<MetaProvider>\n          <AuthHeader />\n          <Title>my-app</Title>`);
    expect(p.kept).toEqual([]);
    expect(after(app, "src/app.tsx")).toContain(`<MetaProvider>\n          <Title>my-app</Title>\n          <Suspense>{props.children}</Suspense>\n        </MetaProvider>`);
    expect(after(app, "src/entry-server.tsx")).not.toContain("<title>");
    // The pinned version is in the range auth-init adds to an app without it.
    expect(solidStart().dependencies!()["@solidjs/meta"]).toBe(`^${JSON.parse(after(app, "package.json")!).dependencies["@solidjs/meta"]}`);
  });

  it("package names: lowercase, npm's characters only", () => {
    expect(packageName("My App!")).toBe("my-app");
    expect(packageName("_private")).toBe("private");
    expect(packageName("###")).toBe("solid-start-app");
  });
});
