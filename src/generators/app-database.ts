/**
 * Which database an app uses and where it is, from its package.json and env:
 * the driver it lists (`pg` or `@electric-sql/pglite`), then `DATABASE_URL` or
 * `PGLITE_DIR` (default `.pglite`, as the generated db module). Pure.
 */
import { listedDependencies } from "./package-json.js";

export type DatabaseTarget = { kind: "pglite"; dir: string } | { kind: "postgres"; url: string };

export type DatabaseLookup = { found: true; target: DatabaseTarget } | { found: false; reason: string; fix?: string };

export const DEFAULT_PGLITE_DIR = ".pglite";

export function appDatabase(packageJson: string, env: Record<string, string>, databaseUrl?: string): DatabaseLookup {
  const deps = listedDependencies(packageJson);
  if (databaseUrl) return { found: true, target: { kind: "postgres", url: databaseUrl } };
  if ("pg" in deps) {
    const url = env.DATABASE_URL;
    if (!url) return { found: false, reason: "DATABASE_URL is not set", fix: "set DATABASE_URL in .env (postgres://user:password@host:5432/database)" };
    return { found: true, target: { kind: "postgres", url } };
  }
  if ("@electric-sql/pglite" in deps) return { found: true, target: { kind: "pglite", dir: env.PGLITE_DIR || DEFAULT_PGLITE_DIR } };
  return { found: false, reason: "the app has no database driver (pg or @electric-sql/pglite) in package.json" };
}

/** A URL with its password hidden, for messages. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === "pglite") return `PGlite in ${target.dir}/`;
  try {
    const url = new URL(target.url);
    if (url.password) url.password = "***";
    return `PostgreSQL at ${url.href}`;
  } catch {
    return "PostgreSQL (DATABASE_URL is not a valid URL)";
  }
}
