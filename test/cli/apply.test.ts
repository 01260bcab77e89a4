/** The engine's writes: atomic, never over a file that changed since the plan, modes kept. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StalePlanError, applyPlan } from "../../src/engine/apply.js";
import { readProject } from "../../src/engine/project.js";
import { addEdit, addNewFile, emptyPlan } from "../../src/plan/plan.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "auth-apply-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("plans", () => {
  it("a new file that already exists with the same text is nothing to do; with other text it is kept, with the reason", () => {
    const plan = emptyPlan();
    addNewFile(plan, "a.ts", null, "new", "yours");
    addNewFile(plan, "b.ts", "same", "same", "yours");
    addNewFile(plan, "c.ts", "user's", "ours", "c.ts is yours: add the handle by hand");
    expect(plan.changes).toEqual([{ path: "a.ts", before: null, after: "new" }]);
    expect(plan.kept).toEqual([{ path: "c.ts", reason: "c.ts is yours: add the handle by hand" }]);
    addEdit(plan, ".env", "A=1\n", "A=1\n");
    expect(plan.changes).toHaveLength(1);
  });
});

describe("applyPlan", () => {
  it("creates files in new folders and updates existing ones, leaving no temporary files", () => {
    writeFileSync(join(dir, "package.json"), "{}\n");
    const plan = emptyPlan();
    addNewFile(plan, "src/routes/signin/+page.svelte", null, "<h1>Sign in</h1>\n", "");
    addEdit(plan, "package.json", "{}\n", '{ "x": 1 }\n');
    expect(applyPlan(dir, plan)).toEqual({ created: ["src/routes/signin/+page.svelte"], updated: ["package.json"], tightened: [] });
    expect(readFileSync(join(dir, "src/routes/signin/+page.svelte"), "utf8")).toBe("<h1>Sign in</h1>\n");
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe('{ "x": 1 }\n');
    expect(readdirSync(dir).filter((name) => name.includes(".tmp"))).toEqual([]);
  });

  it("creates secret files owner-only and keeps the mode of an existing file", () => {
    const plan = emptyPlan();
    addEdit(plan, ".env", null, "AUTH_SECRET=x\n", true);
    writeFileSync(join(dir, "script.sh"), "echo\n");
    chmodSync(join(dir, "script.sh"), 0o755);
    addEdit(plan, "script.sh", "echo\n", "echo hi\n");
    applyPlan(dir, plan);
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "script.sh")).mode & 0o777).toBe(0o755);
  });

  it("writes nothing when any file changed after the plan was made", () => {
    writeFileSync(join(dir, "a.ts"), "one\n");
    const plan = emptyPlan();
    addNewFile(plan, "new.ts", null, "new\n", "");
    addEdit(plan, "a.ts", "one\n", "two\n");
    writeFileSync(join(dir, "a.ts"), "edited meanwhile\n");
    expect(() => applyPlan(dir, plan)).toThrow(StalePlanError);
    expect(readFileSync(join(dir, "a.ts"), "utf8")).toBe("edited meanwhile\n");
    expect(readdirSync(dir)).toEqual(["a.ts"]);
  });

  it("never replaces a file that appeared where the plan expected none", () => {
    const plan = emptyPlan();
    addNewFile(plan, "src/auth.ts", readProject(dir, ["src/auth.ts"]).files["src/auth.ts"], "ours\n", "");
    // The user creates the file between planning and applying.
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/auth.ts"), "theirs\n");
    expect(() => applyPlan(dir, plan)).toThrow(/changed while auth was planning/);
    expect(readFileSync(join(dir, "src/auth.ts"), "utf8")).toBe("theirs\n");
  });
});

describe("readProject", () => {
  it("reads the listed files (null when absent) and calls a folder with only dotfiles empty", () => {
    writeFileSync(join(dir, ".DS_Store"), "");
    const project = readProject(dir, ["package.json"]);
    expect(project).toMatchObject({ dir, exists: true, empty: true, files: { "package.json": null } });
    // The folders above it too (for the package manager and the workspace), the app's own first.
    expect(project.folders?.[0]).toEqual({ dir, markers: [], packageJson: null, pnpmWorkspace: null });
    writeFileSync(join(dir, "package.json"), "{}");
    expect(readProject(dir, ["package.json"])).toMatchObject({ empty: false, files: { "package.json": "{}" } });
    expect(readProject(join(dir, "missing"), ["package.json"])).toMatchObject({ exists: false, empty: true });
  });
});
