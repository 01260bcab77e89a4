/**
 * The public API of `@gatehouse/runtime`: every entry of its exports map and
 * every name (value or type) it exports, read by TypeScript from the built
 * declaration files, as an app's editor sees them. The list is stored
 * (`__snapshots__/public-api.test.ts.snap`): a name added, removed or an entry
 * that starts publishing internals shows as a change of it, to make on purpose
 * (`npx vitest run test/package/public-api.test.ts -u`). Entries are named one
 * by one: no pattern (`./providers/*`) publishes every module of a folder.
 * It reads runtime/dist as the global setup built it (not rebuilt here: another
 * test file rebuilding it at the same time would be read half-written).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const runtime = join(root, "runtime");
type Entry = string | { types?: string; default?: string; svelte?: string };
const exportsMap = (JSON.parse(readFileSync(join(runtime, "package.json"), "utf8")) as { exports: Record<string, Entry> }).exports;

/** Every exported name of each module, sorted: values and types alike, as the checker resolves re-exports. */
function exportedNames(files: Record<string, string>): Record<string, string[]> {
  const program = ts.createProgram(Object.values(files), { noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    Object.entries(files).map(([entry, file]) => {
      const source = program.getSourceFile(file);
      const symbol = source && checker.getSymbolAtLocation(source);
      return [entry, symbol ? checker.getExportsOfModule(symbol).map((s) => s.getName()).sort() : ["<no declarations>"]];
    }),
  );
}

describe("@gatehouse/runtime's public API", () => {
  it("names every entry one by one: no pattern publishes a folder's internals, and only the migrations' SQL files are shipped by pattern", () => {
    const patterns = Object.keys(exportsMap).filter((entry) => entry.includes("*"));
    expect(patterns).toEqual(["./migrations/postgres/*", "./migrations/sqlite/*", "./migrations/hosted-store/*"]);
  });

  it("exports these names from these entries", () => {
    const declarations = Object.fromEntries(
      Object.entries(exportsMap)
        .filter(([entry, target]) => !entry.includes("*") && typeof target === "object" && target.types)
        .map(([entry, target]) => [entry, join(runtime, (target as { types: string }).types)]),
    );
    expect(exportedNames(declarations)).toMatchSnapshot();
  });
});
