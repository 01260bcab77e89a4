/**
 * The race the sign-out load found, made deterministic: a session read whose due
 * extension reaches the database only after a sign-out deleted the row. The
 * update finds nothing (the adapter answers `null`), so the read answers no
 * session and clears the cookie, instead of answering the ended session and
 * issuing its cookie again (which would put a browser that had just signed out
 * back into a signed-in state, until its next read). Runs on the memory adapter
 * everywhere, and on PostgreSQL when DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Adapter } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { captureLogger, CookieJar, csrfToken, isCleared, sessionSetCookies, signInWithCredentials, storesSession } from "../helpers.js";
import { NEEDS_POSTGRES, openLoadDatabase, SERVER_URL, type LoadDatabase } from "./support/database.js";
import { SESSION_COOKIE } from "./support/browsers.js";
import { getSession, sessionConfig, signOut } from "./support/sessions.js";

/** `adapter` whose next `updateSession` waits at a gate: `reached` resolves when it gets there, `open()` lets it through. */
function gatedUpdate(adapter: Adapter) {
  let reached!: () => void;
  let open!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  const updates: unknown[] = [];
  const gated: Adapter = {
    ...adapter,
    async updateSession(session) {
      reached();
      await gate;
      const updated = await adapter.updateSession!(session);
      updates.push(updated);
      return updated;
    },
  };
  return { adapter: gated, arrived, open, updates };
}

function extensionAfterSignOut(name: string, open: () => Promise<{ adapter: Adapter; close(): Promise<void> }>, skip = false) {
  describe.skipIf(skip)(`a due extension that lands after the sign-out, on ${name}`, () => {
    let store: { adapter: Adapter; close(): Promise<void> };
    beforeAll(async () => {
      store = await open();
    }, 30_000);
    afterAll(async () => {
      await store?.close();
    });

    it("answers no session and clears the cookie; the row stays gone and the browser ends signed out", async () => {
      const log = captureLogger();
      const { adapter, arrived, open: openGate, updates } = gatedUpdate(store.adapter);
      // updateAge 0: every read extends, so the read below is sure to write.
      const config = sessionConfig(adapter, log, { updateAge: 0 });
      const email = `late-${crypto.randomUUID()}@example.com`;
      await store.adapter.createUser!({ email, emailVerified: null } as never);
      const jar = new CookieJar();
      expect(storesSession(await signInWithCredentials(config, jar, { email }))).toBe(true);
      const token = jar.get(SESSION_COOKIE)!;
      const csrf = await csrfToken(config, jar);

      const read = getSession(config, jar);
      await arrived; // the read found the session and is about to extend it
      const signedOut = await signOut(config, jar, csrf);
      expect(sessionSetCookies(signedOut).every(isCleared)).toBe(true);
      openGate();
      const late = await read;

      expect(updates).toEqual([null]); // the update found no row, and made none
      expect(late.status).toBe(200);
      expect(await late.json()).toBeNull();
      const cookies = sessionSetCookies(late);
      expect(cookies.length).toBeGreaterThan(0);
      expect(cookies.every(isCleared)).toBe(true);
      expect(jar.get(SESSION_COOKIE)).toBeUndefined();
      expect(await store.adapter.getSessionAndUser!(token)).toBeNull();
      expect(log.errors).toEqual([]);
      expect(log.warnings).toEqual([]);
    }, 10_000);
  });
}

extensionAfterSignOut("the memory adapter", async () => ({ adapter: MemoryAdapter(), close: async () => {} }));

extensionAfterSignOut(
  `PostgreSQL (${NEEDS_POSTGRES})`,
  async () => {
    const db: LoadDatabase = await openLoadDatabase("late");
    return { adapter: db.adapter(), close: () => db.close() };
  },
  !SERVER_URL,
);
