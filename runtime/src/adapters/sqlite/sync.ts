/**
 * `fromSyncDriver`: a synchronous SQLite driver (better-sqlite3, node:sqlite) as
 * the asynchronous `SqliteClient`. The driver modules reduce their driver to a
 * `SyncDriver`; what is the same for every driver is here: connection set-up,
 * transactions that other calls wait for, savepoints, waiting for the write lock.
 */
import type { SqliteClient, SqliteResult, SqliteValue } from "./client.js";

/** A driver's synchronous calls, as the driver modules provide them. */
export interface SyncDriver {
  /** Runs one statement; returns its rows as plain objects, [] when it returns none. */
  all(sql: string, params: readonly SqliteValue[]): Record<string, unknown>[];
  /** Runs several statements. */
  exec(sql: string): void;
  /** Whether `error` is SQLITE_BUSY: another connection holds the write lock. */
  isBusy(error: unknown): boolean;
}

/** Waits between attempts to take the write lock: short first, then at most this. */
const FIRST_WAIT_MS = 2;
const MAX_WAIT_MS = 100;

/**
 * Wraps a driver's connection. Call it once per connection (the driver modules
 * keep one client per connection): the transaction bookkeeping is per client.
 */
export function fromSyncDriver(driver: SyncDriver): SqliteClient {
  enableForeignKeys(driver);

  // While a transaction is open (`open` is set), its statements go through its
  // own `tx`; every other call waits here, instead of running inside it.
  let open: Promise<void> | undefined;

  return {
    async query<Row>(sql: string, params: readonly SqliteValue[] = []): Promise<SqliteResult<Row>> {
      while (open) await open;
      return { rows: driver.all(sql, params) as Row[] };
    },

    async exec(sql) {
      while (open) await open;
      driver.exec(sql);
    },

    async transaction(fn) {
      while (open) await open;
      let end!: () => void;
      // Set in the same tick the wait above ended: no other call can start in between.
      open = new Promise((resolve) => (end = resolve));
      const scope = transactionScope(driver);
      try {
        await beginImmediate(driver);
        try {
          const result = await fn(scope.tx);
          driver.exec("COMMIT");
          return result;
        } catch (error) {
          rollback(driver, "ROLLBACK");
          throw error;
        }
      } finally {
        scope.close();
        open = undefined;
        end();
      }
    },
  };
}

/**
 * SQLite starts every connection with foreign keys off, and then ON DELETE
 * CASCADE does nothing. The pragma is ignored inside a transaction, so check
 * that it took.
 */
function enableForeignKeys(driver: SyncDriver): void {
  driver.exec("PRAGMA foreign_keys = ON");
  if (Number(firstValue(driver.all("PRAGMA foreign_keys", []))) !== 1) {
    throw new Error(
      "SQLite: `PRAGMA foreign_keys = ON` did not take effect on this connection (is a transaction open on it?). " +
        "Wrap the connection while no transaction is open: without foreign keys, deleting a user would not delete its sessions.",
    );
  }
}

/** The `tx` a transaction's callback gets; unusable once the transaction has ended. */
function transactionScope(driver: SyncDriver): { tx: SqliteClient; close(): void } {
  let closed = false;
  let savepoints = 0;
  const check = () => {
    if (closed) throw new Error("SQLite: this transaction has ended; use the client, not its `tx`.");
  };
  const tx: SqliteClient = {
    async query<Row>(sql: string, params: readonly SqliteValue[] = []): Promise<SqliteResult<Row>> {
      check();
      return { rows: driver.all(sql, params) as Row[] };
    },
    async exec(sql) {
      check();
      driver.exec(sql);
    },
    async transaction(fn) {
      check();
      const name = `gatehouse_savepoint_${++savepoints}`;
      driver.exec(`SAVEPOINT ${name}`);
      try {
        const result = await fn(tx);
        driver.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        // ROLLBACK TO keeps the savepoint open; RELEASE then removes it.
        rollback(driver, `ROLLBACK TO ${name}; RELEASE ${name}`);
        throw error;
      }
    },
  };
  return {
    tx,
    close: () => {
      closed = true;
    },
  };
}

/**
 * BEGIN IMMEDIATE takes the database's one write lock. If another connection
 * holds it, the driver would wait synchronously (its busy timeout), blocking
 * this thread, and with it a transaction of another connection in this same
 * process that needs the thread to finish: so the attempt is made with no
 * timeout and the waiting is done here, asynchronously, for as long as the
 * connection's busy timeout. The timeout is restored before any other code runs.
 */
async function beginImmediate(driver: SyncDriver): Promise<void> {
  const timeout = Number(firstValue(driver.all("PRAGMA busy_timeout", [])) ?? 0);
  let waited = 0;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
    driver.exec("PRAGMA busy_timeout = 0");
    try {
      driver.exec("BEGIN IMMEDIATE");
      return;
    } catch (error) {
      if (!driver.isBusy(error) || waited >= timeout) throw error;
    } finally {
      driver.exec(`PRAGMA busy_timeout = ${timeout}`);
    }
    // Counted, not clocked: a test that fakes Date must not make this wait forever.
    const ms = Math.min(wait, timeout - waited);
    waited += ms;
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

function rollback(driver: SyncDriver, sql: string): void {
  try {
    driver.exec(sql);
  } catch {
    // SQLite already rolled the whole transaction back (it does after e.g.
    // SQLITE_FULL or an interrupt): nothing is left to undo, and the caller
    // gets the error that caused it, not this one.
  }
}

/** The first column of the first row: what a `PRAGMA name` query answers. */
function firstValue(rows: Record<string, unknown>[]): unknown {
  const row = rows[0];
  return row === undefined ? undefined : Object.values(row)[0];
}
