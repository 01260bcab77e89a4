/**
 * Reads file modes: `modeOf` for every command, and the modes `auth doctor`
 * judges: the app's env files and its embedded database (PGlite folder, SQLite
 * file with its -wal and -shm).
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { DatabaseTarget } from "../generators/app-database.js";
import type { FileModeFact } from "../generators/doctor-permissions.js";
import { readEnvValue } from "../generators/dotenv.js";
import { SECRET_KEY } from "../generators/secret.js";

/** The env files Vite (SvelteKit, SolidStart) loads; `.env.example` holds no values and is meant to be shared. */
const ENV_FILES = [".env", ".env.local", ".env.development", ".env.development.local", ".env.production", ".env.production.local"];

export function readFileModes(dir: string, database: DatabaseTarget | undefined): FileModeFact[] {
  // Windows reports 0666 for any writable file and 0777 for folders: who can read them is up to ACLs, which modes do not show.
  if (process.platform === "win32") return [];
  const facts: FileModeFact[] = [];
  for (const name of ENV_FILES) {
    const path = join(dir, name);
    const mode = modeOf(path);
    if (mode === undefined) continue;
    facts.push({ kind: "env", shown: shown(path), mode, holdsSecret: Boolean(readEnvValue(readFileSync(path, "utf8"), SECRET_KEY)) });
  }
  const orm = database?.kind === "app-orm" ? database : undefined;
  const pgliteDir = database?.kind === "pglite" ? database.dir : orm?.driver === "pglite" ? orm.url : undefined;
  if (pgliteDir !== undefined) {
    const path = resolve(dir, pgliteDir);
    const mode = modeOf(path);
    if (mode !== undefined) facts.push({ kind: "pglite", shown: shown(path), mode });
  }
  // An ORM app's SQLite file holds the sessions and password hashes too (its auth-db module tightens it at first use).
  const sqliteFile = database?.kind === "sqlite" ? database.file : orm?.dialect === "sqlite" ? orm.url : undefined;
  if (sqliteFile !== undefined) {
    const file = resolve(dir, sqliteFile);
    for (const path of [file, `${file}-wal`, `${file}-shm`]) {
      const mode = modeOf(path);
      if (mode !== undefined) facts.push({ kind: "sqlite", shown: shown(path), mode });
    }
  }
  return facts;
}

/**
 * The permission bits of a file or folder (`0o644`), or `undefined` when there is
 * none there (a missing path, or one under a file). The one place the CLI reads a
 * mode: doctor judges it, apply and the env writer keep it, protect it, or refuse.
 */
export function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** Relative to where the user ran doctor when inside it (so the printed chmod works there), else absolute. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
