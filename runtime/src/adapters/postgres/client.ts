/**
 * The one interface the PostgreSQL adapter and the migrator talk to. Drivers are
 * wrapped into it (`fromPg`, `fromPGlite`), so the adapter's SQL is written once
 * and runs on node-postgres, PGlite, or anything else that can send a query.
 */

/** Rows of one statement. */
export interface SqlResult<Row> {
  rows: Row[];
}

/**
 * A PostgreSQL connection or pool, reduced to what the adapter needs.
 *
 * `query` with `params` runs ONE statement with `$1, $2, ...` placeholders.
 * Without `params` the text may hold several statements (as PostgreSQL's simple
 * query protocol allows; migrations need it), and the rows are the last one's.
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<Row>>;
  /**
   * Runs `fn` in a transaction: committed when `fn` resolves, rolled back when
   * it throws. Every query of the transaction goes through `tx`.
   */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
}

/**
 * A `SqlClient` for a connection already inside a transaction: a nested
 * `transaction()` becomes a savepoint, so a failing inner step can be undone
 * without aborting the outer transaction.
 */
export function inTransaction(query: SqlClient["query"]): SqlClient {
  let savepoints = 0;
  const tx: SqlClient = {
    query,
    async transaction(fn) {
      const name = `gatehouse_savepoint_${++savepoints}`;
      await query(`SAVEPOINT ${name}`);
      try {
        const result = await fn(tx);
        await query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
  };
  return tx;
}
