/** Project detection: framework and major version, package manager, TypeScript, existing auth files. */
import { describe, expect, it } from "vitest";
import type { ProjectSnapshot } from "../../src/engine/project.js";
import { detect } from "../../src/generators/detect.js";

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

  it("sees TypeScript from tsconfig.json or the dependency, and lists auth files that exist", () => {
    const base = pkg({ devDependencies: { "@sveltejs/kit": "^2" } });
    expect(detect(project({ "package.json": base })).typescript).toBe(false);
    expect(detect(project({ "package.json": base, "tsconfig.json": "{}" })).typescript).toBe(true);
    expect(detect(project({ "package.json": pkg({ devDependencies: { typescript: "^5" } }) })).typescript).toBe(true);
    const withAuth = detect(project({ "package.json": base, "src/auth.ts": "", "src/hooks.server.ts": "export const handle = 1;" }));
    expect(withAuth.existingAuth).toEqual(["src/auth.ts", "src/hooks.server.ts"]);
  });

  it("a package.json that is not JSON is a clear error", () => {
    expect(() => detect(project({ "package.json": "{ nope" }))).toThrow(/package\.json is not valid JSON/);
  });
});
