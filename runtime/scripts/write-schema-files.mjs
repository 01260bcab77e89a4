/**
 * Writes what the built runtime renders from src/schema/auth-schema.ts:
 * migrations/<dialect>/NNNN_<step>.sql, for users who apply the SQL with their
 * own migration tool (the adapters' `migrate()` uses the same SQL, rendered in
 * memory), and orm/<orm>/<dialect>.ts (.prisma), the Drizzle, Kysely and
 * Prisma schemas of the auth tables. Runs after `tsc` in `build`; a file is
 * rewritten only when its text changes, and a .sql file no step renders is
 * removed.
 *
 * `--check` writes nothing: it lists the files that differ and exits 1 if any
 * do (the test suite runs the same comparison on the sources).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const runtimeDir = fileURLToPath(new URL("../", import.meta.url));
const { DIALECTS, migrationsFor, ormFiles } = await import(new URL("../dist/schema/migrations.js", import.meta.url).href);
const check = process.argv.includes("--check");

const stale = [];

async function want(path, text) {
  const current = await readFile(join(runtimeDir, path), "utf8").catch(() => null);
  if (current === text) return;
  stale.push(path);
  if (check) return;
  await mkdir(dirname(join(runtimeDir, path)), { recursive: true });
  await writeFile(join(runtimeDir, path), text);
}

for (const dialect of DIALECTS) {
  const dir = join(runtimeDir, "migrations", dialect);
  const wanted = new Map(migrationsFor(dialect).map((migration) => [`${migration.name}.sql`, migration.sql]));
  const present = await readdir(dir).catch(() => []);
  for (const file of present.filter((name) => name.endsWith(".sql") && !wanted.has(name))) {
    stale.push(`migrations/${dialect}/${file} (no step renders it)`);
    if (!check) await rm(join(dir, file));
  }
  for (const [file, sql] of wanted) await want(`migrations/${dialect}/${file}`, sql);
}
for (const { path, text } of ormFiles()) await want(path, text);

if (check && stale.length > 0) {
  console.error(`These files differ from src/schema/auth-schema.ts; run \`npm run build --workspace runtime\`:\n  ${stale.join("\n  ")}`);
  process.exit(1);
}
if (!check && stale.length > 0) console.log(`wrote ${stale.join(", ")}`);
