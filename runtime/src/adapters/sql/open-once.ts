/**
 * Opening a database on first use, for adapters given a connect function
 * instead of a client: the first call opens it, calls that arrive while it
 * opens share that one attempt, a failed attempt is not kept (a database that
 * was down is tried again by the next call), and once open the client is at
 * hand without awaiting anything.
 */

export interface OpenOnce<Client> {
  /** The client once open, else `undefined`. */
  readonly current: () => Client | undefined;
  /** The client, opening it if needed. */
  readonly get: () => Promise<Client>;
}

/**
 * `connect` opens the driver's database; `wrap` turns it into the adapter's
 * client (throwing a TypeError for something that is not a database).
 */
export function openOnce<Database, Client>(connect: () => Database | Promise<Database>, wrap: (database: Database) => Client, caller: string): OpenOnce<Client> {
  let opened: Client | undefined;
  let opening: Promise<Client> | undefined;

  async function open(): Promise<Client> {
    let database: Database;
    try {
      database = await connect();
    } catch (error) {
      throw new Error(`${caller}: could not open the database: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return (opened = wrap(database));
  }

  return {
    current: () => opened,
    get: () =>
      (opening ??= open().catch((error: unknown) => {
        opening = undefined;
        throw error;
      })),
  };
}
