/**
 * Opening a fresh PGlite is slow (4-7 s, most of it initdb) and opening one per
 * test would dominate the run. `openPGlite()` gives a fresh in-memory database
 * that starts from a copy of an initialised data directory, kept in the temp dir
 * per PGlite version: the first open pays for initdb, later ones take under a
 * second. Still share one instance per test file.
 */
import { PGlite } from "@electric-sql/pglite";
import type { SqlClient } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { afterAll, beforeAll } from "vitest";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const version = (
  JSON.parse(readFileSync(new URL("../../../node_modules/@electric-sql/pglite/package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;
const cachePath = join(tmpdir(), `gatehouse-pglite-${version}-initdb.tar`);

export async function openPGlite(): Promise<PGlite> {
  const cached = readCache();
  if (cached) {
    try {
      return await PGlite.create({ loadDataDir: new Blob([cached]) });
    } catch {
      // An unreadable copy: make a new one below.
    }
  }
  const db = await PGlite.create();
  const dump = await db.dumpDataDir("none");
  // Written aside then renamed: test files open in parallel and must never read half a file.
  const partial = `${cachePath}.${process.pid}.${Date.now()}`;
  writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
  renameSync(partial, cachePath);
  return db;
}

/**
 * A fresh PGlite persisted in the folder `dir` (created, closed again), from the
 * same initialised copy: under a second or two where initdb takes 4-7 s.
 */
export async function createPGliteFolder(dir: string): Promise<void> {
  // The first use pays for initdb, and leaves the copy.
  if (!readCache()) await (await openPGlite()).close();
  const cached = readCache();
  const db = cached ? await PGlite.create(dir, { loadDataDir: new Blob([cached]) }) : await PGlite.create(dir);
  await db.close();
}

function readCache(): Uint8Array<ArrayBuffer> | undefined {
  try {
    return new Uint8Array(readFileSync(cachePath));
  } catch {
    return undefined;
  }
}

/** `run` in a transaction whose search path is `schema`: on one PGlite, each schema stands in for a database of its own. */
export function inSchema<T>(db: SqlClient, schema: string, run: (tx: SqlClient) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL search_path TO "${schema}"`);
    return run(tx);
  });
}

/**
 * One fresh PGlite for the calling file or describe block: opened before its
 * tests, closed after. `db` is its SqlClient, usable as soon as the tests run.
 */
export function usePGlite(): { db: SqlClient } {
  let client: SqlClient | undefined;
  let pglite: PGlite | undefined;
  beforeAll(async () => {
    pglite = await openPGlite();
    client = fromPGlite(pglite);
  }, 60_000);
  afterAll(() => pglite?.close());
  const opened = () => client ?? (() => { throw new Error("usePGlite: the database opens in beforeAll; use db inside tests or hooks"); })();
  return {
    db: {
      query: (text, params) => opened().query(text, params),
      transaction: (fn) => opened().transaction(fn),
    },
  };
}
