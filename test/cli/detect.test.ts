/** Project detection: framework and major version, package manager (and its workspace), TypeScript, existing auth files. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { detect as libraryDetect } from "package-manager-detector/detect";
import { afterAll, describe, expect, it } from "vitest";
import { readProject, type ProjectSnapshot } from "../../src/engine/project.js";
import { detect, DETECT_PATHS, installFolder } from "../../src/generators/detect.js";

function project(files: Record<string, string>): ProjectSnapshot {
  return { dir: "/app", exists: true, empty: Object.keys(files).length === 0, files };
}

const pkg = (value: object) => JSON.stringify(value);

describe("detect", () => {
  it("finds SvelteKit in devDependencies and SolidStart (1.x and 2.x) in dependencies, with the major version", () => {
    expect(detect(project({ "package.json": pkg({ devDependencies: { "@sveltejs/kit": "^2.63.0" } }) })).frameworks).toEqual([
      { id: "sveltekit", major: 2 },
    ]);
    expect(detect(project({ "package.json": pkg({ dependencies: { "@solidjs/start": "2.0.5" } }) })).frameworks).toEqual([
      { id: "solid-start", major: 2 },
    ]);
    expect(detect(project({ "package.json": pkg({ dependencies: { "@solidjs/start": "~1.3.2" } }) })).frameworks).toEqual([
      { id: "solid-start", major: 1 },
    ]);
    expect(detect(project({ "package.json": pkg({ dependencies: { "@solidjs/start": "latest" } }) })).frameworks).toEqual([{ id: "solid-start" }]);
  });

  it("reports both frameworks, or none, so the command can ask", () => {
    const both = pkg({ dependencies: { "@solidjs/start": "^2" }, devDependencies: { "@sveltejs/kit": "^2" } });
    expect(detect(project({ "package.json": both })).frameworks.map((f) => f.id)).toEqual(["sveltekit", "solid-start"]);
    expect(detect(project({ "package.json": pkg({ dependencies: { react: "^19" } }) })).frameworks).toEqual([]);
    expect(detect(project({})).hasPackageJson).toBe(false);
  });

  it("takes the package manager from the packageManager field, then the lockfile, else npm", () => {
    const base = pkg({ devDependencies: { "@sveltejs/kit": "^2" } });
    expect(detect(project({ "package.json": base })).packageManager).toBe("npm");
    expect(detect(project({ "package.json": base, "pnpm-lock.yaml": "" })).packageManager).toBe("pnpm");
    expect(detect(project({ "package.json": base, "yarn.lock": "" })).packageManager).toBe("yarn");
    expect(detect(project({ "package.json": base, "bun.lock": "" })).packageManager).toBe("bun");
    expect(detect(project({ "package.json": base, "bun.lockb": "" })).packageManager).toBe("bun");
    expect(detect(project({ "package.json": base, "package-lock.json": "{}" })).packageManager).toBe("npm");
    const corepack = pkg({ devDependencies: { "@sveltejs/kit": "^2" }, packageManager: "pnpm@9.1.0" });
    expect(detect(project({ "package.json": corepack, "package-lock.json": "{}" })).packageManager).toBe("pnpm");
  });

  it("sees the language from tsconfig.json or jsconfig.json (checkJs: type-checked), lists env files and auth files that exist", () => {
    const base = pkg({ devDependencies: { "@sveltejs/kit": "^2" } });
    expect(detect(project({ "package.json": base, "tsconfig.json": "{}" })).source).toMatchObject({ language: "ts", typeChecked: true });
    expect(detect(project({ "package.json": base, "jsconfig.json": '{ "compilerOptions": { "checkJs": true } }' })).source).toMatchObject({ language: "js", typeChecked: true });
    expect(detect(project({ "package.json": base, "jsconfig.json": "{}" })).source).toMatchObject({ language: "js", typeChecked: false });
    expect(detect(project({ "package.json": base, ".env": "", ".env.local": "" })).envFiles).toEqual([".env", ".env.local"]);
    const withAuth = detect(project({ "package.json": base, "src/auth.ts": "", "src/hooks.server.ts": "export const handle = 1;" }));
    expect(withAuth.existingAuth).toEqual(["src/auth.ts", "src/hooks.server.ts"]);
  });

  it("a package.json that is not JSON is a clear error", () => {
    expect(() => detect(project({ "package.json": "{ nope" }))).toThrow(/package\.json is not valid JSON/);
  });
});

/**
 * Real folders in a temp dir: the engine reads the app's folder and those above
 * it, `detect` decides. Each case also asks package-manager-detector's own
 * `detect` (which walks the disk itself) and expects the same manager.
 */
describe("detect in workspaces (folders on disk)", () => {
  const base = mkdtempSync(join(tmpdir(), "gatehouse-detect-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const app = pkg({ name: "web", devDependencies: { "@sveltejs/kit": "^2" } });

  /** Writes `files` (path -> text) under a fresh folder; returns its path. */
  function tree(name: string, files: Record<string, string>): string {
    const dir = join(base, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  async function detected(appDir: string) {
    const detection = detect(readProject(appDir, DETECT_PATHS));
    const library = await libraryDetect({ cwd: appDir });
    expect(detection.packageManager, "the library's own detect agrees").toBe(library?.name ?? "npm");
    return detection;
  }

  it("a pnpm workspace: the lockfile and pnpm-workspace.yaml at the root, the app in packages/web", async () => {
    const root = tree("pnpm", {
      "package.json": pkg({ name: "mono", private: true }),
      "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      "packages/web/package.json": app,
    });
    const detection = await detected(join(root, "packages/web"));
    expect(detection.packageManager).toBe("pnpm");
    expect(detection.workspace).toEqual({ packageManagerFrom: { dir: root, file: "pnpm-lock.yaml" }, root });
    expect(detection.frameworks).toEqual([{ id: "sveltekit", major: 2 }]);
    expect(installFolder(join(root, "packages/web"), detection)).toBe(root);
    // Not installed yet: pnpm-workspace.yaml alone says pnpm; and so for a folder auth-init is about to create an app in.
    const fresh = tree("pnpm-fresh", { "package.json": pkg({ private: true }), "pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n" });
    expect((await detected(join(fresh, "apps/new"))).workspace).toEqual({ packageManagerFrom: { dir: fresh, file: "pnpm-workspace.yaml" }, root: fresh });
  });

  it("a yarn workspace: yarn.lock and `workspaces` in the root package.json", async () => {
    const root = tree("yarn", { "package.json": pkg({ private: true, workspaces: ["packages/*"] }), "yarn.lock": "", "packages/web/package.json": app });
    const detection = await detected(join(root, "packages/web"));
    expect(detection.packageManager).toBe("yarn");
    expect(detection.workspace).toEqual({ packageManagerFrom: { dir: root, file: "yarn.lock" }, root });
    expect(installFolder(join(root, "packages/web"), detection), "yarn 1 runs at the root").toBe(root);
  });

  it("an npm workspace: package-lock.json at the root, or no lockfile yet (npm, the root still known)", async () => {
    const root = tree("npm", { "package.json": pkg({ private: true, workspaces: { packages: ["apps/*"] } }), "package-lock.json": "{}", "apps/web/package.json": app });
    expect((await detected(join(root, "apps/web"))).workspace).toEqual({ packageManagerFrom: { dir: root, file: "package-lock.json" }, root });
    const fresh = tree("npm-fresh", { "package.json": pkg({ private: true, workspaces: ["apps/*"] }), "apps/web/package.json": app });
    const detection = await detected(join(fresh, "apps/web"));
    expect(detection.packageManager).toBe("npm");
    expect(detection.workspace).toEqual({ root: fresh });
  });

  it("the root's packageManager field (Corepack) or devEngines says which; yarn berry and bun are yarn and bun", async () => {
    const yarnBerry = tree("field-yarn", { "package.json": pkg({ private: true, workspaces: ["packages/*"], packageManager: "yarn@4.5.0+sha512.abc" }), "packages/web/package.json": app });
    const detection = await detected(join(yarnBerry, "packages/web"));
    expect(detection.packageManager).toBe("yarn");
    expect(detection.workspace?.packageManagerFrom).toEqual({ dir: yarnBerry, file: "package.json" });
    const bun = tree("field-bun", { "package.json": pkg({ private: true, workspaces: ["packages/*"], packageManager: "bun@1.2.0" }), "packages/web/package.json": app });
    expect((await detected(join(bun, "packages/web"))).packageManager).toBe("bun");
    const devEngines = tree("dev-engines", { "package.json": pkg({ devEngines: { packageManager: { name: "pnpm", version: "^10" } } }), "web/package.json": app });
    expect((await detected(join(devEngines, "web"))).packageManager).toBe("pnpm");
    // In the folder with a lockfile, the field wins (the lockfile may be a stray one).
    const both = tree("field-and-lock", { "package.json": pkg({ packageManager: "pnpm@9.1.0" }), "package-lock.json": "{}", "web/package.json": app });
    expect((await detected(join(both, "web"))).packageManager).toBe("pnpm");
  });

  it("the nearest folder decides: the app's own field or lockfile before the root's", async () => {
    const root = tree("nearest", {
      "package.json": pkg({ private: true, workspaces: ["packages/*"] }),
      "yarn.lock": "",
      "packages/web/package.json": pkg({ name: "web", packageManager: "pnpm@9.0.0" }),
      "packages/bun-app/package.json": app,
      "packages/bun-app/bun.lock": "{}",
    });
    const web = await detected(join(root, "packages/web"));
    expect(web.workspace).toEqual({ packageManagerFrom: { dir: join(root, "packages/web"), file: "package.json" }, root });
    expect(installFolder(join(root, "packages/web"), web), "a manager of its own installs in the app").toBe(join(root, "packages/web"));
    expect((await detected(join(root, "packages/bun-app"))).packageManager).toBe("bun");
  });

  it("a workspace root counts only when its patterns take the app in (`*`, `**`, `!` exclusions)", async () => {
    const root = tree("members", {
      "package.json": pkg({ private: true, workspaces: ["packages/*", "apps/**", "!apps/legacy/*"] }),
      "yarn.lock": "",
      "tools/web/package.json": app,
      "packages/web/package.json": app,
      "apps/a/b/web/package.json": app,
      "apps/legacy/web/package.json": app,
    });
    expect((await detected(join(root, "packages/web"))).workspace?.root).toBe(root);
    expect((await detected(join(root, "apps/a/b/web"))).workspace?.root).toBe(root);
    for (const outside of ["tools/web", "apps/legacy/web"]) {
      const detection = await detected(join(root, outside));
      expect(detection.packageManager, "the lockfile above still says yarn").toBe("yarn");
      expect(detection.workspace?.root, outside).toBeUndefined();
      expect(installFolder(join(root, outside), detection)).toBe(join(root, outside));
    }
    const pnpm = tree("pnpm-members", {
      "pnpm-workspace.yaml": "# the apps\npackages:\n  - \"apps/*\" # web apps\n  - '!apps/old'\ncatalog:\n  vite: ^8\n",
      "apps/web/package.json": app,
      "apps/old/package.json": app,
    });
    expect((await detected(join(pnpm, "apps/web"))).workspace?.root).toBe(pnpm);
    expect((await detected(join(pnpm, "apps/old"))).workspace?.root).toBeUndefined();
  });

  it("a lone app: its own lockfile, or npm when it has none; no workspace", async () => {
    const lone = tree("lone", { "package.json": app });
    expect(await detected(lone)).toMatchObject({ packageManager: "npm", workspace: {} });
    expect(installFolder(lone, await detected(lone))).toBe(lone);
    const withLock = tree("lone-pnpm", { "package.json": app, "pnpm-lock.yaml": "" });
    expect(await detected(withLock)).toMatchObject({ packageManager: "pnpm", workspace: { packageManagerFrom: { dir: withLock, file: "pnpm-lock.yaml" } } });
    expect((await detected(withLock)).workspace?.root).toBeUndefined();
  });

  it("a package manager the CLI does not install with (deno) falls back to npm, saying where it was read", async () => {
    const deno = tree("deno", { "package.json": app, "deno.lock": "{}" });
    const detection = detect(readProject(deno, DETECT_PATHS));
    expect(detection.packageManager).toBe("npm");
    expect(detection.workspace?.packageManagerFrom).toEqual({ dir: deno, file: "deno.lock" });
  });
});
