/**
 * Writes migrations/<dialect>/NNNN_<step>.sql: each dialect's migrations as the
 * built runtime renders them from src/schema/auth-schema.ts, for users who apply
 * them with their own migration tool (the adapters' `migrate()` uses the same
 * SQL, rendered in memory). Runs after `tsc` in `build`; a file is rewritten
 * only when its text changes, and a .sql file no step renders is removed.
 *
 * `--check` writes nothing: it lists the files that differ and exits 1 if any
 * do (the test suite runs the same comparison on the sources).
 */
import { readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const runtimeDir = fileURLToPath(new URL("../", import.meta.url));
const { DIALECTS, migrationsFor } = await import(new URL("../dist/schema/migrations.js", import.meta.url).href);
const check = process.argv.includes("--check");

const stale = [];
for (const dialect of DIALECTS) {
  const dir = join(runtimeDir, "migrations", dialect);
  await mkdir(dir, { recursive: true });
  const wanted = new Map(migrationsFor(dialect).map((migration) => [`${migration.name}.sql`, migration.sql]));
  for (const file of (await readdir(dir)).filter((name) => name.endsWith(".sql") && !wanted.has(name))) {
    stale.push(`migrations/${dialect}/${file} (no step renders it)`);
    if (!check) await rm(join(dir, file));
  }
  for (const [file, sql] of wanted) {
    const path = join(dir, file);
    const current = await readFile(path, "utf8").catch(() => null);
    if (current === sql) continue;
    stale.push(`migrations/${dialect}/${file}`);
    if (!check) await writeFile(path, sql);
  }
}

if (check && stale.length > 0) {
  console.error(`These migration files differ from src/schema/auth-schema.ts; run \`npm run build --workspace runtime\`:\n  ${stale.join("\n  ")}`);
  process.exit(1);
}
if (!check && stale.length > 0) console.log(`wrote ${stale.join(", ")}`);
