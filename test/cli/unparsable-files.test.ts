/**
 * A user's file that does not parse is refused, never edited: through the real
 * built bins, every command that edits an existing file through the AST stops
 * before writing anything, names the file with line:column and the parser's
 * message on one line, exits 1 (the CLI's "cannot edit safely"), and leaves
 * every file of the app as it was, the other files of the plan included.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { authBin, authInitBin, cli, removeAll, snapshotDir, tempCopy } from "./support/cli.js";

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const INIT = ["--yes", "--no-install", "--runtime", "^0.1.0"];

/** A copy of `fixture` with `files` written over it. */
function appWith(fixture: string, files: Record<string, string>): string {
  const dir = tempCopy(fixture, "unparsable", dirs);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

/** Runs `bin` in `dir` and checks the refusal: exit 1, one line naming path:line:column, nothing changed. */
function expectRefused(bin: string, args: string[], dir: string, path: string, line: number, column: number): string {
  const before = snapshotDir(dir);
  const run = cli(bin, args, dir, {}, 60_000);
  expect(run.code, run.stderr + run.stdout).toBe(1);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^error: ${path.replace(/[.+$]/g, "\\$&")}:${line}:${column}: `));
  expect(lines[0]).toContain("nothing was changed");
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(snapshotDir(dir)).toEqual(before);
  return lines[0]!;
}

describe("auth-init refuses an app file that does not parse", () => {
  it("src/hooks.server.ts with an unclosed function: no `handle` inserted into it, no other file written", () => {
    const dir = appWith("sveltekit-minimal", { "src/hooks.server.ts": "export function x( {\n\treturn 1;\n" });
    const line = expectRefused(authInitBin, INIT, dir, "src/hooks.server.ts", 2, 9);
    expect(line).toMatch(/does not parse as TypeScript \(.+\)/);
  });

  it("the same with --dry-run: the plan is refused, not shown", () => {
    const dir = appWith("sveltekit-minimal", { "src/hooks.server.ts": "export function x( {\n" });
    expectRefused(authInitBin, [...INIT, "--dry-run"], dir, "src/hooks.server.ts", 2, 1);
  });

  it("src/app.d.ts", () => {
    const dir = appWith("sveltekit-minimal", { "src/app.d.ts": "declare global {\n\tnamespace App {\n\t\tinterface Locals {\n\t}\n}\n" });
    expectRefused(authInitBin, INIT, dir, "src/app.d.ts", 6, 1);
  });

  it("src/routes/+layout.svelte (svelte's parser): where it breaks, as line:column", () => {
    const dir = appWith("sveltekit-minimal", { "src/routes/+layout.svelte": "<script lang=\"ts\">\n\tlet { children } = $props();\n</script>\n\n<main>\n\t{#if children}\n\t{@render children()}\n</main>\n" });
    const line = expectRefused(authInitBin, INIT, dir, "src/routes/+layout.svelte", 8, 1);
    expect(line).toContain("does not parse as Svelte");
  });

  it("SolidStart 2: vite.config.ts (the middleware registration)", () => {
    const dir = appWith("solid-start-v2", { "vite.config.ts": 'import { solidStart } from "@solidjs/start/config";\nexport default defineConfig({\n  plugins: [solidStart(), nitro()],\n;\n' });
    expectRefused(authInitBin, INIT, dir, "vite.config.ts", 4, 1);
  });

  it("SolidStart 2: src/app.tsx (the MetaProvider and the header)", () => {
    const dir = appWith("solid-start-v2", { "src/app.tsx": 'import { Router } from "@solidjs/router";\nexport default function App() {\n  return <Router root={(props) => <div>{props.children}</Router>;\n}\n' });
    const line = expectRefused(authInitBin, INIT, dir, "src/app.tsx", 3, 58);
    expect(line).toMatch(/does not parse as TypeScript \(.+\)/);
  });

  it("SolidStart 1: app.config.ts", () => {
    const dir = appWith("solid-start-v1", { "app.config.ts": 'import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({\n' });
    expectRefused(authInitBin, INIT, dir, "app.config.ts", 4, 1);
  });
});

describe("auth add-provider refuses a config that does not parse", () => {
  const config = "import { SvelteKitAuth } from '@gatehouse/runtime/sveltekit';\n\nexport const { handle } = SvelteKitAuth({\n\tproviders: [\n\t\n});\n";

  it("src/auth.ts", () => {
    const dir = appWith("sveltekit-minimal", { "src/auth.ts": config, ".env": "AUTH_SECRET=x\n" });
    expectRefused(authBin, ["add-provider", "github"], dir, "src/auth.ts", 6, 1);
  });

  it("src/auth.ts, with passkey (the config-object edits)", () => {
    const dir = appWith("sveltekit-minimal", { "src/auth.ts": config, ".env": "AUTH_SECRET=x\n" });
    expectRefused(authBin, ["add-provider", "passkey"], dir, "src/auth.ts", 6, 1);
  });

  it("the module the providers array is imported from", () => {
    const dir = appWith("sveltekit-minimal", {
      "src/auth.ts": "import { SvelteKitAuth } from '@gatehouse/runtime/sveltekit';\nimport { providers } from './providers';\n\nexport const { handle } = SvelteKitAuth({ providers });\n",
      "src/providers.ts": "export const providers = [\n\tfoo(,\n];\n",
    });
    expectRefused(authBin, ["add-provider", "github"], dir, "src/providers.ts", 2, 6);
  });
});
