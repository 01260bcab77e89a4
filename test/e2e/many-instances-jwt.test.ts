/**
 * Many instances of one app with JWT sessions on one PostgreSQL server: the
 * same setup as many-instances.test.ts (one `auth-init` SvelteKit app, built
 * once, started three times behind a round-robin proxy), made with `--strategy
 * jwt`. A JWT session lives in its cookie, so any instance reads it; what needs
 * the database is ending it early. Each JWT carries the user's session version
 * and each read compares it with the stored one, which an instance keeps for
 * `session.revocationDelay` (5 s by default) once read. Proven here with real
 * processes: a name change and a session update on one instance are seen by the
 * others; after "sign out everywhere else" on one instance, the other browser
 * is signed out on every instance once the delay has passed since the
 * revocation, and the browser that asked stays signed in; after a password
 * reset on one instance, its browser is signed in on every instance at once
 * (its token carries the new version), and every session the reset did not
 * make is signed out everywhere within the delay.
 * SECURITY.md has the delay as a known limitation, and
 * test/account/revocation-delay.test.ts proves its bounds (not before, not
 * after) on two handlers sharing one store.
 *
 * Needs DATABASE_URL (a PostgreSQL server: test/adapters/support/start-postgres.sh).
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { linkIn } from "../email/support/smtp.js";
import { mailTo } from "./support/account-flow.js";
import { startAppInstances, type AppInstances } from "./support/app-instances.js";
import { Visitor } from "./support/http-visitor.js";
import { startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "./support/round-robin-proxy.js";

const serverUrl = process.env.DATABASE_URL;
const INSTANCES = 3;
const PASSWORD = "correct horse battery staple";
/** The generated config's `session.revocationDelay`: the runtime's default. */
const REVOCATION_DELAY_MS = 5_000;

describe.skipIf(!serverUrl)("many instances of one auth-init app with JWT sessions (SvelteKit, PostgreSQL) behind a round-robin proxy", () => {
  let database: TestDatabase;
  let proxy: RoundRobinProxy;
  let mail: AppMail;
  let instances: AppInstances;

  /** The instances that answered the requests sent since `mark` (the proxy's log length then). */
  const instancesSince = (mark: number) => proxy.log.slice(mark).map((entry) => entry.instance);
  /** Session reads in a row, one on each instance (the proxy takes turns; checked), each the session or null. */
  const readsOnEveryInstance = async (visitor: Visitor) => {
    const mark = proxy.log.length;
    const sessions = [];
    for (let i = 0; i < INSTANCES; i++) sessions.push(await visitor.session());
    expect(new Set(instancesSince(mark)).size, proxy.output()).toBe(INSTANCES);
    return sessions;
  };
  /** A new visitor signed up (the mailed link confirmed) and signed in with `email`. */
  const signedUp = async (email: string) => {
    const visitor = new Visitor(proxy);
    const link = await visitor.signUp(mail.server, email, PASSWORD);
    await visitor.signInOk(email, PASSWORD, link);
    return visitor;
  };

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl!, "many_jwt");
    proxy = await startRoundRobinProxy();
    mail = await startMailFor();
    const args = ["--adapter", "postgres", "--strategy", "jwt", "--providers", "credentials", "--database-url", database.url];
    instances = await startAppInstances(proxy, "app-many-jwt", args, mail.env, INSTANCES);
  }, 900_000);

  afterAll(async () => {
    await proxy?.stop();
    await instances?.stop();
    await mail?.server.close();
    await database?.drop();
  });

  it("the generated config makes JWT sessions, on the database's users and their session versions", () => {
    const config = readFileSync(`${instances.app.dir}/src/auth.ts`, "utf8");
    expect(config).toContain("session: { strategy: 'jwt' }");
    expect(config).toContain("rateLimit: { ip: 100, store: rateLimitStore }");
  });

  it("a name change and a session update on one instance: every other instance reads them from the cookie", async () => {
    const email = "ada.jwt@example.com";
    const visitor = await signedUp(email);
    expect((await readsOnEveryInstance(visitor)).map((session) => session?.user?.email)).toEqual(Array(INSTANCES).fill(email));
    const renamed = await visitor.send("/auth/update-profile", { form: { callbackUrl: "/account?done=profile", name: "Ada King" } });
    expect(renamed.status).toBe(302);
    expect((await readsOnEveryInstance(visitor)).map((session) => session?.user?.name)).toEqual(Array(INSTANCES).fill("Ada King"));
    const updated = await visitor.send("/auth/session", { json: {}, headers: { accept: "application/json" } });
    expect(updated.status).toBe(200);
    expect((await readsOnEveryInstance(visitor)).map((session) => session?.user?.email)).toEqual(Array(INSTANCES).fill(email));
  }, 120_000);

  it("sign out everywhere else on one instance: the other browser is signed out on every instance within session.revocationDelay, this one stays", async () => {
    const email = "grace.jwt@example.com";
    const here = await signedUp(email);
    const there = new Visitor(proxy);
    await there.signInOk(email, PASSWORD);
    // Every instance reads the other browser's session, and so has read (and keeps) the user's session version.
    expect((await readsOnEveryInstance(there)).map((session) => session?.user?.email)).toEqual(Array(INSTANCES).fill(email));

    const revoked = await here.send("/auth/revoke-other-sessions", { form: { callbackUrl: "/account?done=sessions" } });
    const revokedAt = Date.now();
    expect(revoked.status).toBe(302);
    expect(revoked.headers.get("location")).toBe(`${proxy.origin}/account?done=sessions`);

    // Nothing else is read in between: a read of this browser's newer token would make an instance
    // read the stored version again (and so refuse the other browser at once), which is not what is proven here.
    await sleep(Math.max(0, revokedAt + REVOCATION_DELAY_MS + 500 - Date.now()));
    expect(await readsOnEveryInstance(there)).toEqual(Array(INSTANCES).fill(null));
    expect((await readsOnEveryInstance(here)).map((session) => session?.user?.email)).toEqual(Array(INSTANCES).fill(email));
  }, 120_000);

  it("a password reset on one instance: its browser is signed in on every instance at once; every session it did not make is signed out everywhere within session.revocationDelay", async () => {
    const email = "reset.jwt@example.com";
    const before = await signedUp(email);
    expect((await readsOnEveryInstance(before)).map((session) => session?.user?.email)).toEqual(Array(INSTANCES).fill(email));

    const resetter = new Visitor(proxy);
    const sent = mail.server.messages.length;
    const asked = await resetter.send("/auth/forgot-password", { form: { callbackUrl: "/account", email } });
    expect(asked.status).toBe(302);
    const link = linkIn(await mailTo(mail.server, email, sent));
    expect(link.pathname).toBe("/reset-password");
    const form = { email: link.searchParams.get("email")!, token: link.searchParams.get("token")!, callbackUrl: "/account" };
    const reset = await resetter.send("/auth/reset-password", { form: { ...form, password: "a brand new battery staple" } });
    const resetAt = Date.now();
    expect(reset.status).toBe(302);
    expect(reset.headers.get("location")).toBe(`${proxy.origin}/account`);
    // The reset signs its browser in with the new version: every instance takes it at once, whatever version it kept.
    expect((await readsOnEveryInstance(resetter)).map((session) => session?.user?.email)).toEqual(Array(INSTANCES).fill(email));

    await sleep(Math.max(0, resetAt + REVOCATION_DELAY_MS + 500 - Date.now()));
    expect(await readsOnEveryInstance(before)).toEqual(Array(INSTANCES).fill(null));
    expect((await readsOnEveryInstance(resetter)).map((session) => session?.user?.email)).toEqual(Array(INSTANCES).fill(email));
    await new Visitor(proxy).signInOk(email, "a brand new battery staple");
  }, 120_000);
});
