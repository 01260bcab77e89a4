/**
 * The app's database, reached the way the app reaches it: a small runner
 * (runner/database-task.ts) is copied into the app with its schema (transpiled
 * from TypeScript) and run with node there, so the app's own runtime and driver
 * do the work. Used by `auth migrate` and `auth doctor`.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import type { DatabaseTarget } from "../generators/app-database.js";

const RUNNER = fileURLToPath(new URL("./runner/database-task.js", import.meta.url));

export interface DatabaseTaskResult {
  ok: boolean;
  applied: string[];
  pending: string[];
  /** Migrations the ledger records that the app's schema does not have (status only). */
  unknown?: string[];
  /** What the applied migrations made and the database lacks (status only; runtimes with `checkSchema`). */
  missing?: MissingPiece[];
  error?: string;
}

/** A table, or a column or index of one, missing although its migration is applied. */
export interface MissingPiece {
  table: string;
  migration: string;
  column?: string;
  index?: string;
}

export async function runDatabaseTask(appDir: string, target: DatabaseTarget, mode: "status" | "migrate", schemaPath: string | undefined): Promise<DatabaseTaskResult> {
  const cache = join(appDir, "node_modules", ".cache", "gatehouse");
  if (!existsSync(join(appDir, "node_modules", "@gatehouse", "runtime"))) {
    return { ok: false, applied: [], pending: [], error: "@gatehouse/runtime is not installed in the app: install its dependencies first" };
  }
  mkdirSync(cache, { recursive: true });
  copyFileSync(RUNNER, join(cache, "database-task.mjs"));
  const hasSchema = schemaPath !== undefined && existsSync(join(appDir, schemaPath));
  if (hasSchema) writeFileSync(join(cache, "schema.mjs"), await transpile(readFileSync(join(appDir, schemaPath!), "utf8")));
  // Paths absolute: the runner's working directory is the app's, but say exactly which folder or file.
  const runnerTarget =
    target.kind === "pglite" ? { kind: "pglite", dir: join(appDir, target.dir) } : target.kind === "sqlite" ? { kind: "sqlite", file: resolve(appDir, target.file) } : target;
  const result = await execa(process.execPath, [join(cache, "database-task.mjs"), mode], {
    cwd: appDir,
    env: { GATEHOUSE_DB: JSON.stringify(runnerTarget), GATEHOUSE_SCHEMA: hasSchema ? "1" : "0" },
    reject: false,
    all: true,
    timeout: 120_000,
  });
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  try {
    const parsed = JSON.parse(line) as Partial<DatabaseTaskResult>;
    return {
      ok: parsed.ok === true,
      applied: parsed.applied ?? [],
      pending: parsed.pending ?? [],
      ...(parsed.unknown ? { unknown: parsed.unknown } : {}),
      ...(parsed.missing ? { missing: parsed.missing } : {}),
      ...(parsed.error ? { error: parsed.error } : {}),
    };
  } catch {
    return { ok: false, applied: [], pending: [], error: `the database task failed:\n${result.all ?? ""}` };
  }
}

/** TypeScript -> an ES module, types dropped (the schema file is plain data). */
async function transpile(source: string): Promise<string> {
  const { ts } = await import("ts-morph");
  return ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}
