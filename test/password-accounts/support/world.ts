/**
 * What every password-account suite runs against: a real SMTP server on
 * 127.0.0.1 and the stores (memory, PGlite), opened once per file; the inbox is
 * emptied before each test.
 */
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { startMailServer, type MailServer } from "../../email/support/smtp.js";
import { openStores, type Store, type Stores } from "./stores.js";

export interface PasswordWorld {
  readonly mail: MailServer;
  readonly stores: Stores;
}

export function usePasswordWorld(): PasswordWorld {
  const world = {} as { mail: MailServer; stores: Stores };
  beforeAll(async () => {
    [world.mail, world.stores] = await Promise.all([startMailServer(), openStores()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([world.mail?.close(), world.stores?.close()]);
  });
  beforeEach(() => {
    world.mail.messages.length = 0;
  });
  return world;
}

/** What a test of `eachStoreAndStrategy` works with, fresh before each test. */
export interface StoreCase {
  /** The store the adapter is on (for its own helpers, e.g. `expireLinks`). */
  store: Store;
  adapter: Adapter;
  config: AuthConfig;
}

/**
 * Describes `body` once per store (memory, PostgreSQL on PGlite) and session
 * strategy (JWT, database): before each test, a fresh adapter of that store
 * and the config `configure` makes with it. `current()` gives both to a test.
 */
export function eachStoreAndStrategy(
  world: PasswordWorld,
  configure: (adapter: Adapter, strategy: "jwt" | "database") => AuthConfig,
  body: (current: () => StoreCase, strategy: "jwt" | "database") => void,
): void {
  describe.each(["memory", "PostgreSQL (PGlite)"])("%s", (storeName) => {
    describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
      let current: StoreCase;
      beforeEach(async () => {
        const store = world.stores.stores.find((candidate) => candidate.name === storeName)!;
        const adapter = await store.fresh();
        current = { store, adapter, config: configure(adapter, strategy) };
      });
      body(() => current, strategy);
    });
  });
}
