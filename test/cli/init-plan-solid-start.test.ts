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

function fixture(version: Version, overrides: Record<string, string | null> = {}): ProjectSnapshot {
  const project = readProject(join(root, `test/cli/fixtures/solid-start-${version}`), [...DETECT_PATHS, ...initPaths("solid-start")]);
  return { ...project, files: { ...project.files, ...overrides } };
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
    // Nothing to trace without PGlite and without mail.
    expect(paths(plan(fixture("v2"), { adapter: "postgres", providers: ["github"] }))).not.toContain("nitro.config.ts");
  });

  it("SolidStart 1.x: the middleware is registered in defineConfig({...}) of app.config.ts; vinxi's Nitro keeps PGlite external by itself", () => {
    const p = plan(fixture("v1"));
    expect(after(p, "app.config.ts")).toBe(`import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({ middleware: "src/middleware.ts" });\n`);
    expect(paths(p)).not.toContain("nitro.config.ts");
    expect(paths(p)).not.toContain("vite.config.ts");
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
    // The link mailed at sign-up opens the page with ?email=&confirm=: the form sends the token back with the password.
    expect(signIn).toContain(`<Show when={confirm()}>{(token) => <input type="hidden" name="confirm" value={token()} />}</Show>`);
    expect(signIn).toContain(`<a href="/forgot-password">Forgot your password?</a>`);
    expect(signIn).toContain(`No account yet? <a href="/signup">Sign up</a>`);
    expect(signIn).toContain(`if (type === "CredentialsSignin") return signInMessage(code);`);
    expect(signIn).toContain(`import { signInMessage } from "../lib/auth-messages";`);
    expect(signIn).not.toContain("/api/auth/callback/credentials");
    expect(after(p, "src/routes/signout.tsx")).toContain(`<form method="post" action="/api/auth/signout">`);

    const signUp = after(p, "src/routes/signup.tsx")!;
    expect(signUp).toContain(`<form method="post" action="/api/auth/signup">\n        ${csrf}`);
    expect(signUp).toContain(`<Show when={text("code")}>{(code) => <p role="alert">{signUpMessage(code())}</p>}</Show>`);
    expect(signUp).toContain(`minlength={MIN_PASSWORD_LENGTH} maxlength={MAX_PASSWORD_LENGTH} required />`);
    const forgot = after(p, "src/routes/forgot-password.tsx")!;
    expect(forgot).toContain(`<form method="post" action="/api/auth/forgot-password">\n        ${csrf}`);
    expect(forgot).toContain(`<Show when={text("code")}>{(code) => <p role="alert">{resetMessage(code())}</p>}</Show>`);
    const reset = after(p, "src/routes/reset-password.tsx")!;
    expect(reset).toContain(`<form method="post" action="/api/auth/reset-password">\n              ${csrf}`);
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
    expect(after(p, "src/lib/server/db.ts")).toContain("new PGlite(process.env.PGLITE_DIR || '.pglite')");
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
    expect(after(v2, "nitro.config.ts")).toContain(`  plugins: ["./src/lib/server/startup-checks.ts"],`);
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
      `<form method="post" action="/api/auth/signin/keycloak">\n        <input type="hidden" name="csrfToken" value={csrfToken() ?? ""} />\n        <input type="hidden" name="callbackUrl" value={callbackUrl()} />\n        <button type="submit">Sign in with Keycloak</button>\n      </form>`,
    );
    expect(signIn).toContain(`if (type === "OAuthAccountNotLinked")`);
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
    expect(paths(p)).not.toContain("app.config.ts");
    expect(p.kept).toEqual([{ path: "app.config.ts", reason: expect.stringContaining("it registers another middleware file (./src/server/middleware.ts)") }]);
  });

  it("a config it cannot edit safely, or none, is reported with the entry to add by hand", () => {
    const config = `import { solidStart } from "@solidjs/start/config";\nimport { defineConfig } from "vite";\n\nconst options = {};\nexport default defineConfig({ plugins: [solidStart(options)] });\n`;
    expect(plan(fixture("v2", { "vite.config.ts": config })).kept).toEqual([
      { path: "vite.config.ts", reason: expect.stringContaining('add `middleware: "./src/middleware.ts"` to SolidStart\'s options by hand') },
    ]);
    expect(plan(fixture("v2", { "vite.config.ts": null })).kept).toEqual([
      { path: "vite.config.ts", reason: expect.stringContaining("no SolidStart config found") },
    ]);
  });

  it("the app's own nitro.config.ts (SolidStart 2, PGlite) is kept, with the traceDeps entries to add", () => {
    const own = `import { defineConfig } from "nitro/config";\n\nexport default defineConfig({ preset: "node-server" });\n`;
    const oauth = plan(fixture("v2", { "nitro.config.ts": own }), { providers: ["github"] });
    expect(paths(oauth)).not.toContain("nitro.config.ts");
    expect(oauth.kept).toEqual([{ path: "nitro.config.ts", reason: expect.stringContaining('`traceDeps: ["@electric-sql/pglite"]`') }]);
    // With passwords (the default), nodemailer too: the Password provider mails with it.
    const p = plan(fixture("v2", { "nitro.config.ts": own }));
    expect(paths(p)).not.toContain("nitro.config.ts");
    expect(p.kept).toEqual([{ path: "nitro.config.ts", reason: expect.stringContaining('`traceDeps: ["@electric-sql/pglite", "nodemailer"]`') }]);
    expect(p.kept[0]!.reason).toContain('add `plugins: ["./src/lib/server/startup-checks.ts"]` to it');
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
      "@solidjs/router": "0.16.3",
      "@solidjs/start": "2.0.5",
      nitro: "3.0.260610-beta",
      "solid-js": "1.9.19",
      vite: "8.3.8",
    });
    expect(detect(project).frameworks).toEqual([{ id: "solid-start", major: 2 }]);
  });

  it("auth-init then registers its middleware and adds the start script", () => {
    const p = plan(project);
    expect(after(p, "vite.config.ts")).toContain(`solidStart({ middleware: "./src/middleware.ts" })`);
    expect(JSON.parse(after(p, "package.json")!).scripts.start).toBe(START);
  });

  it("package names: lowercase, npm's characters only", () => {
    expect(packageName("My App!")).toBe("my-app");
    expect(packageName("_private")).toBe("private");
    expect(packageName("###")).toBe("solid-start-app");
  });
});
