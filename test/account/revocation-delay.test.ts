/**
 * `session.revocationDelay`: a JWT session read reuses a user's session version
 * for that long instead of asking the database on every request. Two instances
 * of an app on one store are two handler configs on two adapter objects over
 * the same data (PGlite: two adapters on one database; memory: a copy of the
 * adapter's methods, which share its maps). What is proven:
 *
 * - the instance that revoked ends the other sessions at their next request;
 * - another instance within the delay (5 s by default), not before it: the
 *   documented limit;
 * - a newer sign-in read where an older version is kept is not refused;
 * - acting on the account (GET account) always asks, on every instance;
 * - `revocationDelay: 0` asks on every read; reads that miss together share
 *   one query; a failed read is not kept; bad values are refused.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { call, captureLogger, CookieJar, fetchSession } from "../helpers.js";
import { confirmedUser, passwordProvider, post, sessionEmail, signIn } from "../password-accounts/support/flow.js";
import { usePasswordWorld } from "../password-accounts/support/world.js";
import { ACCOUNT_PAGE, accountConfig, ADA, PASSWORD } from "./support/config.js";

vi.mock("../../runtime/src/core/password/scrypt.js", () => import("../password-accounts/support/quick-scrypt.js"));

const world = usePasswordWorld();

/** Another adapter object over the same data: what a second instance of the app holds. */
function sameStore(adapter: Adapter): Adapter {
  return { ...adapter };
}

/** `adapter` with its `getUserSessionVersion` calls counted (and, with `failNext`, the next one failing). */
function counted(adapter: Adapter) {
  const read = adapter.getUserSessionVersion!.bind(adapter);
  const counter = { calls: 0, failNext: false };
  const wrapped: Adapter = {
    ...adapter,
    async getUserSessionVersion(userId) {
      counter.calls++;
      if (counter.failNext) {
        counter.failNext = false;
        throw new Error("connection reset");
      }
      return read(userId);
    },
  };
  return { adapter: wrapped, counter };
}

/** A second browser holding the same cookies (a read that ends a session clears the jar it is given). */
function copyOf(jar: CookieJar): CookieJar {
  const copy = new CookieJar();
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value);
  return copy;
}

async function signedInAt(config: AuthConfig, email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const response = await signIn(config, jar, email, PASSWORD);
  expect(response.status).toBe(302);
  return jar;
}

describe.each(["memory", "PostgreSQL (PGlite)"])("%s, JWT sessions, two instances on one store", (storeName) => {
  let base: Adapter;
  const instance = (adapter: Adapter, session: AuthConfig["session"] = {}) => {
    const config = accountConfig(adapter, "jwt", { providers: [passwordProvider(world.mail)] });
    return { ...config, session: { ...config.session, ...session } };
  };

  beforeEach(async () => {
    base = await world.stores.stores.find((store) => store.name === storeName)!.fresh();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sign out everywhere else on one instance: its reads end the other session at once; the other instance's within session.revocationDelay (5 s by default), not before", async () => {
    const here = instance(base);
    const there = instance(sameStore(base));
    const { jar: mine } = await confirmedUser(here, world.mail, ADA, PASSWORD);
    const other = await signedInAt(here, ADA);
    // Both instances have read the other browser's session: each keeps the user's version.
    expect(await sessionEmail(here, copyOf(other))).toBe(ADA);
    expect(await sessionEmail(there, copyOf(other))).toBe(ADA);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const revoked = await post(here, mine, "/auth/revoke-other-sessions", { callbackUrl: ACCOUNT_PAGE });
    expect(revoked.status).toBe(302);

    // The instance that revoked asks again at once.
    const ended = await fetchSession(here, copyOf(other));
    expect(ended.body).toBeNull();
    // The other one goes by the version it read, until the delay is over: the documented limit.
    vi.advanceTimersByTime(4_900);
    expect(await sessionEmail(there, copyOf(other))).toBe(ADA);
    vi.advanceTimersByTime(100);
    expect(await sessionEmail(there, copyOf(other))).toBeNull();
    // The browser that revoked stays signed in on both.
    expect(await sessionEmail(here, mine)).toBe(ADA);
    expect(await sessionEmail(there, mine)).toBe(ADA);
  });

  it("acting on the account asks for the stored version on every instance: the revoked session cannot, even within the delay", async () => {
    const here = instance(base);
    const there = instance(sameStore(base));
    const { jar: mine } = await confirmedUser(here, world.mail, ADA, PASSWORD);
    const other = await signedInAt(here, ADA);
    expect(await sessionEmail(there, copyOf(other))).toBe(ADA);
    await post(here, mine, "/auth/revoke-other-sessions", { callbackUrl: ACCOUNT_PAGE });

    // Within the delay its session read on the other instance still answers...
    expect(await sessionEmail(there, copyOf(other))).toBe(ADA);
    // ...but what acts for the user (the account, linking, passkeys, the password) does not go by it.
    const account = await call(there, "/auth/account", { jar: copyOf(other) });
    expect(account.status).toBe(200);
    expect(await account.json()).toBeNull();
    const again = await post(there, copyOf(other), "/auth/revoke-other-sessions", { callbackUrl: ACCOUNT_PAGE });
    expect(again.headers.get("location")).not.toBe(ACCOUNT_PAGE);
    expect(await sessionEmail(here, mine)).toBe(ADA);
  });

  it("a sign-in after the revocation is not refused by an instance that kept the older version", async () => {
    const here = instance(base);
    const there = instance(sameStore(base));
    const { jar: mine } = await confirmedUser(here, world.mail, ADA, PASSWORD);
    expect(await sessionEmail(there, copyOf(mine))).toBe(ADA);
    await post(here, mine, "/auth/revoke-other-sessions", { callbackUrl: ACCOUNT_PAGE });
    const fresh = await signedInAt(here, ADA);
    // `there` kept the version from before the revocation; the new token carries the new one.
    expect(await sessionEmail(there, fresh)).toBe(ADA);
  });

  it("revocationDelay: 0 asks on every read: the other instance ends the session at its next request", async () => {
    const here = instance(base, { revocationDelay: 0 });
    const { adapter, counter } = counted(sameStore(base));
    const there = instance(adapter, { revocationDelay: 0 });
    const { jar: mine } = await confirmedUser(here, world.mail, ADA, PASSWORD);
    const other = await signedInAt(here, ADA);
    for (let i = 0; i < 3; i++) expect(await sessionEmail(there, copyOf(other))).toBe(ADA);
    expect(counter.calls).toBe(3);
    await post(here, mine, "/auth/revoke-other-sessions", { callbackUrl: ACCOUNT_PAGE });
    expect(await sessionEmail(there, copyOf(other))).toBeNull();
  });

  it("reads that miss together share one query; later ones within the delay ask nothing", async () => {
    const here = instance(base);
    const { adapter, counter } = counted(sameStore(base));
    const there = instance(adapter);
    const { jar: mine } = await confirmedUser(here, world.mail, ADA, PASSWORD);
    const reads = await Promise.all(Array.from({ length: 8 }, () => sessionEmail(there, copyOf(mine))));
    expect(reads).toEqual(Array(8).fill(ADA));
    expect(counter.calls).toBe(1);
    expect(await sessionEmail(there, copyOf(mine))).toBe(ADA);
    expect(counter.calls).toBe(1);
  });

  it("a read that fails is not kept: the next request asks again", async () => {
    const here = instance(base);
    const { adapter, counter } = counted(sameStore(base));
    const logs = captureLogger();
    const there = { ...instance(adapter), logger: logs.logger };
    const { jar: mine } = await confirmedUser(here, world.mail, ADA, PASSWORD);
    counter.failNext = true;
    const failed = await call(there, "/auth/session", { jar: copyOf(mine) });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(logs.errors.map((error) => error.message).join("\n")).toContain("getUserSessionVersion");
    expect(await sessionEmail(there, copyOf(mine))).toBe(ADA);
    expect(counter.calls).toBe(2);
  });
});

describe("session.revocationDelay", () => {
  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, "5"])("%s is refused with a clear error", async (value) => {
    const logs = captureLogger();
    const adapter = await world.stores.stores[0]!.fresh();
    const config = { ...accountConfig(adapter, "jwt", { providers: [passwordProvider(world.mail)] }), logger: logs.logger };
    const response = await call({ ...config, session: { strategy: "jwt", revocationDelay: value as number } }, "/auth/session");
    expect(response.status).toBe(500);
    expect(logs.errors.map((error) => error.message).join("\n")).toContain(`session.revocationDelay is ${JSON.stringify(value)}; it must be a non-negative number of seconds.`);
  });
});
