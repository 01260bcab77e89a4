/**
 * `auth-init` for SolidStart through its real built binary, in temporary copies
 * of the SolidStart 2 and 1.x fixture apps (no install): the files it writes,
 * the config edit, `--dry-run`, re-runs, the app's own middleware, and a
 * SolidStart 2 app created in an empty folder.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readEnvValue } from "../../src/generators/dotenv.js";
import { authInitBin, cli, hasScript, onTerminal, removeAll, snapshotDir, tempCopy } from "./support/cli.js";

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const app = (version: "v2" | "v1") => tempCopy(`solid-start-${version}`, `init-solid-${version}`, dirs);
const init = (args: string[], cwd: string) => cli(authInitBin, args, cwd, {}, 60_000);
const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
/** Skips packing the checkout's runtime where a test does not need it. */
const RUNTIME = ["--runtime", "^0.1.0"];
const YES = ["--yes", "--no-install", ...RUNTIME];

const FILES = [
  "src/auth.ts",
  "src/routes/api/auth/[...solidauth].ts",
  "src/middleware.ts",
  "src/lib/session.ts",
  "src/lib/server/auth-handler.ts",
  "src/routes/signin.tsx",
  "src/routes/signup.tsx",
  "src/routes/forgot-password.tsx",
  "src/routes/reset-password.tsx",
  "src/lib/auth-messages.ts",
  "src/routes/signout.tsx",
  "src/routes/protected.tsx",
  "src/routes/account.tsx",
  "src/lib/auth-field.tsx",
  "src/lib/auth.css",
  "src/lib/server/db.ts",
];

describe("auth-init in a SolidStart app (built binary)", () => {
  it("SolidStart 2, --yes --no-install: detected from package.json; routes, middleware registered in vite.config.ts, .env, package.json", () => {
    const dir = app("v2");
    const run = init(YES, dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    for (const path of [...FILES, "nitro.config.ts"]) {
      expect(run.stdout).toContain(`created ${path}`);
      expect(existsSync(join(dir, path))).toBe(true);
    }
    expect(run.stdout).toContain("updated vite.config.ts");
    expect(read(dir, "vite.config.ts")).toContain(`plugins: [solidStart({ middleware: "./src/middleware.ts" }), nitro()],`);
    // The pages' <Title> needs a MetaProvider: the root layout of the app's Router gets one.
    expect(run.stdout).toContain("updated src/app.tsx");
    expect(read(dir, "src/app.tsx")).toContain(`import { MetaProvider } from "@solidjs/meta";`);
    expect(read(dir, "src/app.tsx")).toContain(`      root={(props) => (\n        <MetaProvider>\n          <AuthHeader />\n          <>`);
    // The fixture's document has a <title> of its own, which would hide the pages': said, and left to the user.
    expect(run.stdout).toMatch(/kept src\/entry-server\.tsx: it has a <title> of its own, which browsers show instead of each page's <Title>/);
    expect(read(dir, "src/auth.ts")).toContain("export const authConfig: SolidAuthConfig = {");
    expect(readEnvValue(read(dir, ".env"), "AUTH_SECRET")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(read(dir, ".gitignore")).toContain("\n.pglite/\n.gatehouse/\n");
    // The Password provider mails with nodemailer: a dependency, and a package of the built server.
    expect(read(dir, "nitro.config.ts")).toMatch(/traceDeps: \[\n {4}"@electric-sql\/pglite",\n {4}"nodemailer",\n {2}\],/);
    expect(read(dir, "src/auth.ts")).toContain("Password({ developmentMail: dev }),");
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg.dependencies["@gatehouse/runtime"]).toBe("^0.1.0");
    expect(pkg.dependencies.nodemailer).toBeDefined();
    expect(pkg.scripts.start).toBe("node .output/server/index.mjs");
    expect(run.stdout).toContain("http://localhost:5173/signup");
    expect(run.stdout).toContain("AUTH_URL");
  });

  it("SolidStart 1.x: the middleware and the Nitro plugin that closes the database go into app.config.ts; the dev server is vinxi's on port 3000", () => {
    const dir = app("v1");
    const run = init(YES, dir);
    expect(run.code).toBe(0);
    for (const path of FILES) expect(existsSync(join(dir, path))).toBe(true);
    expect(existsSync(join(dir, "nitro.config.ts"))).toBe(false);
    expect(read(dir, "app.config.ts")).toBe(
      `import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({ middleware: "src/middleware.ts", server: { plugins: ["./src/lib/server/close-database.ts"] } });\n`,
    );
    expect(read(dir, "src/lib/server/close-database.ts")).toContain(`nitroApp.hooks.hook("close", closeDatabase);`);
    expect(run.stdout).toContain("http://localhost:3000/signup");
    expect(run.stdout).not.toContain("Node.js 22");
  });

  it.each(["v2", "v1"] as const)("%s: a second run changes nothing (the secret included) and says so", (version) => {
    const dir = app(version);
    expect(init(YES, dir).code).toBe(0);
    const before = snapshotDir(dir);
    const again = init(YES, dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Nothing to change");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("--dry-run prints the files and the config diff, and writes nothing", () => {
    const dir = app("v2");
    const before = snapshotDir(dir);
    const run = init(["--yes", "--dry-run", ...RUNTIME], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("create src/routes/api/auth/[...solidauth].ts");
    expect(run.stdout).toContain("+export const { GET, POST } = SolidAuth(authConfig);");
    expect(run.stdout).toContain("edit vite.config.ts");
    expect(run.stdout).toContain("-  plugins: [solidStart(), nitro()],");
    expect(run.stdout).toContain('+  plugins: [solidStart({ middleware: "./src/middleware.ts" }), nitro()],');
    expect(run.stdout).toContain("+AUTH_SECRET=<hidden>");
    expect(run.stdout).toContain("would run `npm install`");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("the app's own src/middleware.ts is left alone, with how to add authMiddleware; a changed page is kept too", () => {
    const dir = app("v1");
    const own = `import { createMiddleware } from "@solidjs/start/middleware";\n\nexport default createMiddleware({ onRequest: [] });\n`;
    writeFileSync(join(dir, "src/middleware.ts"), own);
    writeFileSync(join(dir, "src/routes/signin.tsx"), "export default () => <p>mine</p>;\n");
    const run = init(YES, dir);
    expect(run.code).toBe(0);
    expect(read(dir, "src/middleware.ts")).toBe(own);
    expect(read(dir, "src/routes/signin.tsx")).toBe("export default () => <p>mine</p>;\n");
    expect(run.stdout).toMatch(/kept src\/middleware\.ts: it is the app's own: add `authMiddleware\(authConfig/);
    expect(run.stdout).toMatch(/kept src\/routes\/signin\.tsx: .*differs from what auth-init writes/);
    expect(existsSync(join(dir, "src/routes/signup.tsx"))).toBe(true);
  });

  it("--framework solid-start in an empty folder writes a SolidStart 2 app, then sets up auth in it", () => {
    const parent = tempCopy(null, "init-solid-empty", dirs);
    const run = init(["my-app", "--framework", "solid-start", ...YES], parent);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const dir = join(parent, "my-app");
    expect(run.stdout).toContain("Creating a solid-start app in my-app");
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg.name).toBe("my-app");
    expect(pkg.dependencies["@solidjs/start"]).toBe("2.0.5");
    expect(pkg.dependencies["@solidjs/meta"]).toBe("0.29.4");
    expect(pkg.scripts.start).toBe("node --env-file=.env .output/server/index.mjs");
    // Its app has the MetaProvider from the start (auth-init adds the header in it), and its document leaves the title to the pages.
    expect(run.stdout).not.toMatch(/kept src\/app\.tsx|entry-server/);
    expect(read(dir, "src/app.tsx")).toContain("<MetaProvider>\n          <AuthHeader />\n          <Title>my-app</Title>");
    expect(read(dir, "vite.config.ts")).toContain(`solidStart({ middleware: "./src/middleware.ts" })`);
    for (const path of [...FILES, "src/app.tsx", "src/entry-server.tsx", ".gitignore"]) expect(existsSync(join(dir, path))).toBe(true);
    expect(run.stdout).toContain("`npm run build`, then `npm run start` (it reads .env)");
  });

  it("--help says both frameworks", () => {
    const help = init(["--help"], dirs[0] ?? "/");
    expect(help.stdout).toContain("SvelteKit or SolidStart");
    expect(help.stdout).toContain("--framework solid-start");
  });
});

describe.runIf(hasScript)("auth-init on a terminal in an empty folder", () => {
  it("offers both frameworks; choosing SolidStart creates its app", async () => {
    const dir = tempCopy(null, "init-solid-ask", dirs);
    const run = await onTerminal(authInitBin, ["--no-install", ...RUNTIME], dir, [
      { when: "Which framework does this app use?", keys: "\u001b[B" },
      { when: "SolidStart", keys: "\r" },
      { when: "Create a minimal app there first?", keys: "\r" },
      { when: "Sign in with", keys: "\r" },
      { when: "Where should users and sessions be stored?", keys: "\r" },
      { when: "Session strategy", keys: "\r" },
      { when: "Add an account page", keys: "\r" },
    ], {}, 30_000);
    expect(run.output).toContain("SvelteKit");
    expect(run.code).toBe(0);
    expect(JSON.parse(read(dir, "package.json")).dependencies["@solidjs/start"]).toBe("2.0.5");
    expect(existsSync(join(dir, "src/routes/api/auth/[...solidauth].ts"))).toBe(true);
    expect(existsSync(join(dir, "src/routes/account.tsx"))).toBe(true);
  });
});
