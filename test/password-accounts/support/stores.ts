/** The stores the password-account suites run on: the memory adapter and PostgreSQL (PGlite), each with both session strategies. */
import type { PGlite } from "@electric-sql/pglite";
import type { Adapter } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { migrate, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { openPGlite } from "../../adapters/support/pglite.js";

export interface Store {
  name: string;
  fresh(): Promise<Adapter>;
  /** Moves the expiry of every stored link into the past (a clock an hour later). */
  expireLinks(adapter: Adapter): Promise<void>;
}

export interface Stores {
  stores: Store[];
  close(): Promise<void>;
}

/** Expires the memory adapter's links through its own methods: take each one and put it back expired. */
const memoryLinks = new WeakMap<Adapter, Map<string, { identifier: string; token: string; expires: Date }>>();

/** Wraps the memory adapter so the test can see its stored links (to expire them). */
function trackedMemoryAdapter(): Adapter {
  const adapter = MemoryAdapter();
  const links = new Map<string, { identifier: string; token: string; expires: Date }>();
  const create = adapter.createVerificationToken!.bind(adapter);
  const use = adapter.useVerificationToken!.bind(adapter);
  adapter.createVerificationToken = async (token) => {
    links.set(`${token.identifier}\u0000${token.token}`, token);
    return create(token);
  };
  adapter.useVerificationToken = async (key) => {
    links.delete(`${key.identifier}\u0000${key.token}`);
    return use(key);
  };
  memoryLinks.set(adapter, links);
  return adapter;
}

export async function openStores(): Promise<Stores> {
  const pglite: PGlite = await openPGlite();
  await migrate(fromPGlite(pglite));
  return {
    stores: [
      {
        name: "memory",
        fresh: async () => trackedMemoryAdapter(),
        async expireLinks(adapter) {
          const links = memoryLinks.get(adapter)!;
          for (const link of [...links.values()]) {
            await adapter.useVerificationToken!({ identifier: link.identifier, token: link.token });
            await adapter.createVerificationToken!({ ...link, expires: new Date(Date.now() - 1000) });
          }
        },
      },
      {
        name: "PostgreSQL (PGlite)",
        async fresh() {
          await pglite.exec("TRUNCATE users, accounts, sessions, verification_token, authenticators, user_passwords CASCADE");
          return PostgresAdapter(fromPGlite(pglite));
        },
        async expireLinks() {
          await pglite.exec("UPDATE verification_token SET expires = now() - interval '1 second'");
        },
      },
    ],
    close: () => pglite.close(),
  };
}
