/**
 * Secrets at rest in the database auth-init's db.ts opens: the PGlite folder and
 * the SQLite file hold sessions and password hashes, so they are owner-only from
 * their creation, whatever the umask (these tests run with umask 0, the loosest),
 * and one an older db.ts left loose is tightened on the next start.
 *
 * PGlite creates its own files 0666 inside the folder: the folder's 0700 is what
 * keeps others out. Run as root, the tests prove it as another user (nobody):
 * a file the test wrote beside the folder can be read, the folder's cannot.
 */
import type { PGlite } from "@electric-sql/pglite";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AdapterChoice } from "../../src/generators/init/answers.js";
import { root } from "./support/cli.js";
import { writeGeneratedServerLib } from "./support/generated-server-lib.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let umask: number;
const saved = { PGLITE_DIR: process.env.PGLITE_DIR, SQLITE_PATH: process.env.SQLITE_PATH };
beforeEach(() => {
  // The loosest umask: whatever is not created with an explicit mode is 0666 / 0777.
  umask = process.umask(0);
  delete (globalThis as { __authDatabase?: unknown }).__authDatabase;
});
afterEach(() => {
  process.umask(umask);
  delete (globalThis as { __authDatabase?: unknown }).__authDatabase;
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const mode = (path: string) => statSync(path).mode & 0o777;
const isWindows = process.platform === "win32";
const asRoot = process.getuid?.() === 0;

/** auth-init's lib files for `adapter` (SolidStart 2: its db.ts reads process.env), in an app folder others may enter (0755), as a project folder usually is. */
function render(adapter: AdapterChoice): string {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-db-modes-${adapter}-`));
  dirs.push(dir);
  chmodSync(dir, 0o755);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeGeneratedServerLib(adapter, dir);
  return dir;
}

interface DbModule {
  database(): Promise<unknown>;
}
const loadDb = async (dir: string) => (await import(join(dir, "src/lib/server/db.ts"))) as DbModule;

/** Whether the user nobody can read `path` (run as root only). */
function nobodyCanRead(path: string): boolean {
  const run = spawnSync(process.execPath, ["-e", `require("node:fs").readFileSync(${JSON.stringify(path)})`], { uid: 65534, gid: 65534, cwd: "/", encoding: "utf8" });
  if (run.status !== 0 && !/EACCES/.test(run.stderr)) throw new Error(`the check as nobody failed otherwise: ${run.stderr}`);
  return run.status === 0;
}

describe.skipIf(isWindows)("generated db.ts: the database is owner-only from its creation (umask 0)", () => {
  it("PGlite: the folder is created 0700, so nothing PGlite writes inside (0666) is reachable by others; a looser folder is tightened on the next start", async () => {
    const app = render("pglite");
    const folder = join(app, ".pglite");
    process.env.PGLITE_DIR = folder;
    const db = await loadDb(app);
    const first = (await db.database()) as PGlite;
    try {
      expect(mode(folder)).toBe(0o700);
      // What PGlite itself creates is open to anyone who reaches it: the folder must be what stops them.
      expect(mode(join(folder, "PG_VERSION"))).toBe(0o666);
      if (asRoot) {
        expect(nobodyCanRead(join(app, "src/lib/server/db.ts"))).toBe(true);
        expect(nobodyCanRead(join(folder, "PG_VERSION"))).toBe(false);
      }
    } finally {
      await first.close();
    }

    // An app whose older db.ts let PGlite create the folder with the umask's mode.
    chmodSync(folder, 0o755);
    delete (globalThis as { __authDatabase?: unknown }).__authDatabase;
    const second = (await db.database()) as PGlite;
    await second.close();
    expect(mode(folder)).toBe(0o700);
  }, 60_000);

  it("SQLite: the file is created 0600 before SQLite opens it, and its -wal and -shm take that mode; a looser file is tightened on the next start", async () => {
    const app = render("sqlite");
    const file = join(app, ".data", "auth.sqlite");
    process.env.SQLITE_PATH = file;
    const db = await loadDb(app);
    // The connections stay open until the test process ends, as the app's would.
    await db.database();
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(mode(path), path).toBe(0o600);
    if (asRoot) expect(nobodyCanRead(file)).toBe(false);

    // An app whose older db.ts let better-sqlite3 create the file with the umask's mode.
    for (const path of [file, `${file}-wal`, `${file}-shm`]) chmodSync(path, 0o644);
    delete (globalThis as { __authDatabase?: unknown }).__authDatabase;
    await db.database();
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(mode(path), path).toBe(0o600);
  });
});
