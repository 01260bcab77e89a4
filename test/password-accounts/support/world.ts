/**
 * What every password-account suite runs against: a real SMTP server on
 * 127.0.0.1 and the stores (memory, PGlite), opened once per file; the inbox is
 * emptied before each test.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startMailServer, type MailServer } from "../../email/support/smtp.js";
import { openStores, type Stores } from "./stores.js";

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
