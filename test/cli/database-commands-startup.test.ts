/**
 * What `auth doctor` and `auth migrate` load where they have nothing to ask a
 * database: no ts-morph (init's generators, the ORM readers, SvelteKit's config
 * reader), handlebars or execa (the database task). Which modules, not how long:
 * the CLI bench (test/bench/cli.mjs) measures the time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { authBin, cli, root } from "./support/cli.js";

const recordModules = pathToFileURL(join(root, "test/cli/support/record-modules.mjs")).href;
const HEAVY = /[\\/]node_modules[\\/](ts-morph|@ts-morph|handlebars|execa|diff|@clack|svelte)[\\/]/;
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-db-startup-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

function authRecordingModules(args: string[], cwd: string) {
  const log = join(folder({}), "modules.log");
  const run = cli(authBin, args, cwd, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${recordModules}`.trim(), GATEHOUSE_MODULE_LOG: log });
  return { run, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const SOLID_START_APP = {
  "package.json": JSON.stringify({ name: "app", dependencies: { "@solidjs/start": "^1.3.2", "@gatehouse/runtime": "0.1.0", "@electric-sql/pglite": "^0.5.16" } }),
  "tsconfig.json": "{}\n",
  ".env": 'AUTH_SECRET="0123456789abcdef0123456789abcdef0123"\n',
};

describe("auth doctor and auth migrate start light", () => {
  it.each([
    ["doctor in a folder without package.json", ["doctor"], {}, 1],
    ["migrate --dry-run in a folder without package.json", ["migrate", "--dry-run"], {}, 2],
    ["doctor in a SolidStart app whose PGlite folder does not exist yet", ["doctor"], SOLID_START_APP, 1],
    ["migrate --dry-run in a SolidStart app whose PGlite folder does not exist yet", ["migrate", "--dry-run"], SOLID_START_APP, 0],
  ] as const)("%s loads no ts-morph, handlebars, execa, diff, svelte or @clack/prompts", (_, args, files, code) => {
    const { run, modules } = authRecordingModules([...args], folder({ ...files }));
    expect(run.stderr).not.toMatch(/^node:|record-modules/m);
    expect(run.code).toBe(code);
    // The recorder works: it saw the command's module and commander through CommonJS.
    expect(modules).toContainEqual(expect.stringMatching(/dist\/commands\/database-flows\.js$/));
    expect(modules).toContainEqual(expect.stringMatching(/^cjs:.*node_modules[\\/]commander[\\/]lib[\\/]command\.js$/));
    expect(modules.filter((module) => HEAVY.test(module))).toEqual([]);
  });
});
