/**
 * Many instances of one app on one PostgreSQL server (issue 23): one SvelteKit
 * app made by `auth-init --adapter postgres --providers
 * credentials,keycloak,email,passkey`, built once with adapter-node and started
 * three times (same .env: same AUTH_SECRET, same database), behind a
 * round-robin proxy on 127.0.0.1 that is the apps' public origin. One visitor's
 * consecutive requests go to different instances (the proxy's log proves it for
 * every flow), and everything still works: sign-up and its mailed link,
 * sign-in, the session read and updated, sign-out, a sign-in link by email
 * (asked for, opened and confirmed on three instances; used, refused on
 * another), signing in with an OpenID provider (its state, PKCE and nonce
 * cookies made by one instance, checked by another), passkeys in Chromium
 * (each challenge issued by one instance, verified by another), "sign out everywhere
 * else", the password reset link. What one instance issued binds on all: a
 * forged OAuth state (tampered, or another visitor's callback) is refused by
 * every instance, and creates no user or account. The rate limit is global:
 * after five wrong passwords for one address, spread over the instances, every
 * instance refuses the next attempt, the right password too. Last, bounded load
 * runs: twenty visitors sign in with the OpenID provider at once, each its own
 * login; eighty sign up, confirm and sign in at once, then read their
 * sessions hundreds of times at once: no 5xx, one user (and one provider
 * account) each, every session read answers its own user.
 *
 * Needs DATABASE_URL (a PostgreSQL server: test/adapters/support/start-postgres.sh).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../adapters/support/postgres-server.js";
import { startAppInstances, type AppInstances } from "./support/app-instances.js";
import type { CliSvelteKitApp } from "./support/cli-sveltekit-app.js";
import { alertIn, SESSION_COOKIE, Visitor } from "./support/http-visitor.js";
import { LOGIN, PROVIDER, PROVIDER_EMAIL, startProviderFor, type AppProvider } from "./support/oauth-flow.js";
import { passkeySignUpOutAndIn, startMailFor, type AppMail } from "./support/passwordless-flow.js";
import { hasChromium, useBrowser } from "./support/browser.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "./support/round-robin-proxy.js";
import { serverRows } from "./support/rows.js";
import { authorize } from "../oauth/support/user-agent.js";
import { linkIn } from "../email/support/smtp.js";
import { mailTo } from "./support/account-flow.js";

const serverUrl = process.env.DATABASE_URL;
const INSTANCES = 3;
/** Visitors of the load run: each signs up (a password hash) and confirms its address by signing in (another). */
const LOAD_VISITORS = 80;
/** Session reads per visitor of the load run, all at once. */
const READS = 4;
/** Visitors of the OAuth load run, each its own login at the provider. */
const OAUTH_VISITORS = 20;
const PASSWORD = "correct horse battery staple";
const TOO_MANY = "Too many sign-in attempts. Please wait a few minutes and try again.";

describe.skipIf(!serverUrl)("many instances of one auth-init app (SvelteKit, PostgreSQL) behind a round-robin proxy", () => {
  let database: TestDatabase;
  let proxy: RoundRobinProxy;
  let provider: AppProvider;
  let mail: AppMail;
  let instances: AppInstances;
  let app: CliSvelteKitApp;

  /** The instances that answered the requests sent since `mark` (the proxy's log length then). */
  const instancesSince = (mark: number) => proxy.log.slice(mark).map((entry) => entry.instance);
  /** Consecutive requests went to different instances, and every instance answered one. */
  const expectAlternated = (mark: number) => {
    const instances = instancesSince(mark);
    expect(instances.length).toBeGreaterThanOrEqual(INSTANCES);
    for (let i = 1; i < instances.length; i++) expect(instances[i], proxy.output()).not.toBe(instances[i - 1]);
    expect(new Set(instances).size).toBe(INSTANCES);
  };

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl!, "many");
    // The proxy is the public origin: the provider must know its callback URL before the apps start.
    proxy = await startRoundRobinProxy();
    provider = await startProviderFor(proxy.origin, "/auth");
    mail = await startMailFor();
    const args = ["--adapter", "postgres", "--providers", `credentials,${PROVIDER.id},email,passkey`, "--database-url", database.url];
    instances = await startAppInstances(proxy, "app-many", args, { ...provider.env, ...mail.env }, INSTANCES);
    app = instances.app;
  }, 900_000);

  afterAll(async () => {
    await proxy?.stop();
    await instances?.stop();
    await provider?.server.close();
    await mail?.server.close();
    await database?.drop();
  });

  it("the generated config counts sign-in attempts in the database, and each instance is its own process on its own port", async () => {
    expect(readFileSync(`${app.dir}/src/auth.ts`, "utf8")).toContain("rateLimit: { ip: 100, store: rateLimitStore }");
    expect(new Set(instances.servers.map((server) => server.port)).size).toBe(INSTANCES);
    // Six visitors at once, two per instance (each read the database when it started: the layout reads the session).
    const mark = proxy.log.length;
    const answers = await Promise.all(Array.from({ length: INSTANCES * 2 }, () => new Visitor(proxy).send("/signin")));
    expect(answers.map((answer) => answer.status)).toEqual(Array(INSTANCES * 2).fill(200));
    expect(proxy.counts().every((count) => count > 0)).toBe(true);
    expect(new Set(instancesSince(mark)).size).toBe(INSTANCES);
  });

  it("sign-up, the mailed link, sign-in, session read and update, sign-out: each step on another instance", async () => {
    const email = "ada.many@example.com";
    const visitor = new Visitor(proxy);
    const mark = proxy.log.length;
    const link = await visitor.signUp(mail.server, email, PASSWORD, "Ada Lovelace");
    // Not signed in before the address is confirmed.
    expect(await visitor.session()).toBeNull();
    expect((await visitor.send(link.pathname + link.search)).status).toBe(200);
    await visitor.signInOk(email, PASSWORD, link);
    expect((await visitor.session())?.user).toMatchObject({ email, name: "Ada Lovelace" });
    expect((await visitor.send("/protected")).status).toBe(200);

    // The account page's name form (the handler's update-profile), read back by another instance.
    const renamed = await visitor.send("/auth/update-profile", { form: { callbackUrl: "/account?done=profile", name: "Ada King" } });
    expect(renamed.status).toBe(302);
    expect(renamed.headers.get("location")).toBe(`${proxy.origin}/account?done=profile`);
    expect((await visitor.session())?.user?.name).toBe("Ada King");
    // The session update (POST /auth/session): the same user back, still signed in.
    const updated = await visitor.send("/auth/session", { json: {}, headers: { accept: "application/json" } });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { user?: { email?: string } }).user?.email).toBe(email);
    expect((await visitor.session())?.user?.email).toBe(email);

    await visitor.signOut();
    expect(await visitor.session()).toBeNull();
    const protectedPage = await visitor.send("/protected");
    expect(protectedPage.status).toBe(303);
    expect(protectedPage.headers.get("location")).toBe("/signin?redirectTo=%2Fprotected");
    // Signed in again, with the password alone.
    await visitor.signInOk(email, PASSWORD);
    expect((await visitor.session())?.user?.email).toBe(email);
    expectAlternated(mark);
  }, 120_000);

  it("an email sign-in link: asked for on one instance, opened and confirmed on two others; once used, refused on another", async () => {
    const email = "linda.many@example.com";
    const visitor = new Visitor(proxy);
    const mark = proxy.log.length;
    const link = await visitor.requestEmailLink(mail.server, email);
    expect(link.pathname).toBe("/auth/callback/email");
    const confirmed = await visitor.confirmEmailLink(link);
    const [askedOn, openedOn, usedOn] = instancesSince(mark);
    expect(new Set([askedOn, openedOn, usedOn]).size, proxy.output()).toBe(3);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${proxy.origin}/protected`);
    expect(visitor.jar.get(SESSION_COOKIE)).toBeDefined();
    expect((await visitor.session())?.user?.email).toBe(email);
    expect((await visitor.send("/protected")).status).toBe(200);

    // The same link again, in another browser: its token is gone from the database, whichever instance it reaches.
    const again = new Visitor(proxy);
    const beforeAgain = proxy.log.length;
    const refused = await again.confirmEmailLink(link);
    expect(proxy.log[beforeAgain + 1]!.instance, proxy.output()).not.toBe(usedOn);
    expect(refused.status).toBe(302);
    const error = new URL(refused.headers.get("location")!);
    expect(error.searchParams.get("error")).toBe("Verification");
    expect(again.jar.get(SESSION_COOKIE)).toBeUndefined();
    expect(await (await again.send(error.pathname + error.search)).text()).toContain("The sign in link is no longer valid");
    expect(await again.session()).toBeNull();
    expect(await serverRows(database.url, `SELECT id FROM users WHERE email = '${email}'`)).toHaveLength(1);
    expectAlternated(mark);
  }, 60_000);

  it("sign in with the OpenID provider: the check cookies one instance set are accepted by another at the callback", async () => {
    const visitor = new Visitor(proxy);
    const mark = proxy.log.length;
    const authorization = await visitor.startOAuth(PROVIDER.id);
    expect(authorization.origin).toBe(new URL(provider.server.issuer).origin);
    const startedOn = instancesSince(mark).at(-1);

    const result = await authorize(authorization, { login: LOGIN });
    const callback = new URL(result.callbackUrl!);
    expect(callback.origin).toBe(proxy.origin);
    const landed = await visitor.send(callback.pathname + callback.search);
    expect(instancesSince(mark).at(-1)).not.toBe(startedOn);
    expect(landed.status, await landed.clone().text()).toBe(302);
    expect(landed.headers.get("location")).toBe(`${proxy.origin}/protected`);
    expect(visitor.jar.get(SESSION_COOKIE)).toBeDefined();
    expect((await visitor.session())?.user?.email).toBe(PROVIDER_EMAIL);
    expect(provider.server.serverErrors).toEqual([]);
    expectAlternated(mark);
  }, 60_000);

  it("a forged OAuth state is refused on every instance: a tampered state, and another visitor's callback (login CSRF); no session, user or account", async () => {
    /** Sends `visitor` to a callback URL and expects the refusal: back to the sign-in page with its message, not signed in. Returns the instance. */
    const expectRefused = async (visitor: Visitor, callback: URL): Promise<number> => {
      const sentAt = proxy.log.length;
      const answer = await visitor.send(callback.pathname + callback.search);
      expect(answer.status, await answer.clone().text()).toBe(302);
      const location = new URL(answer.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(`${proxy.origin}/signin`);
      expect(location.searchParams.get("error")).toBe("OAuthCallbackError");
      expect(visitor.jar.get(SESSION_COOKIE)).toBeUndefined();
      expect(alertIn(await (await visitor.send(location.pathname + location.search)).text())).toBe("Could not sign in. Try again.");
      return proxy.log[sentAt]!.instance;
    };
    // Seven requests through the proxy a round (not a multiple of three): each round's callbacks reach the next instances.
    const tamperedOn: number[] = [];
    const plantedOn: number[] = [];
    for (let i = 0; i < INSTANCES; i++) {
      // The visitor's own sign-in and the provider's real code, with a state this app never issued.
      const visitor = new Visitor(proxy);
      const startedAt = proxy.log.length;
      const own = new URL((await authorize(await visitor.startOAuth(PROVIDER.id), { login: "forged-state" })).callbackUrl!);
      own.searchParams.set("state", `${own.searchParams.get("state")}x`);
      tamperedOn.push(await expectRefused(visitor, own));
      expect(tamperedOn.at(-1)).not.toBe(proxy.log[startedAt]!.instance);

      // An attacker's own callback URL (its code and state, for its provider account) opened by a
      // victim whose sign-in began elsewhere: the state matches no check cookie the victim holds.
      const attacker = new Visitor(proxy);
      const planted = new URL((await authorize(await attacker.startOAuth(PROVIDER.id), { login: "forged-attacker" })).callbackUrl!);
      const victim = new Visitor(proxy);
      await victim.startOAuth(PROVIDER.id);
      plantedOn.push(await expectRefused(victim, planted));
    }
    expect(new Set(tamperedOn).size, proxy.output()).toBe(INSTANCES);
    expect(new Set(plantedOn).size, proxy.output()).toBe(INSTANCES);
    expect(await serverRows(database.url, `SELECT email FROM users WHERE email LIKE 'forged-%'`)).toEqual([]);
    expect(await serverRows(database.url, `SELECT "providerAccountId" FROM accounts WHERE "providerAccountId" LIKE 'forged-%'`)).toEqual([]);
    expect(provider.server.serverErrors).toEqual([]);
  }, 60_000);

  it("sign out everywhere else: the other browser's session ends on every instance, this one's stays", async () => {
    const email = "grace.many@example.com";
    const here = new Visitor(proxy);
    const there = new Visitor(proxy);
    const link = await here.signUp(mail.server, email, PASSWORD);
    await here.signInOk(email, PASSWORD, link);
    await there.signInOk(email, PASSWORD);
    const mark = proxy.log.length;
    for (let i = 0; i < INSTANCES; i++) expect((await there.session())?.user?.email).toBe(email);
    const revoked = await here.send("/auth/revoke-other-sessions", { form: { callbackUrl: "/account?done=sessions" } });
    expect(revoked.status).toBe(302);
    expect(revoked.headers.get("location")).toBe(`${proxy.origin}/account?done=sessions`);
    for (let i = 0; i < INSTANCES; i++) {
      expect(await there.session()).toBeNull();
      expect((await here.session())?.user?.email).toBe(email);
    }
    expectAlternated(mark);
  }, 60_000);

  it("forgot password: the mailed reset link, used on another instance, sets the new password and ends the other sessions; it works once", async () => {
    const email = "reset.many@example.com";
    const newPassword = "a brand new battery staple";
    const owner = new Visitor(proxy);
    const elsewhere = new Visitor(proxy);
    const link = await owner.signUp(mail.server, email, PASSWORD);
    await owner.signInOk(email, PASSWORD, link);
    await elsewhere.signInOk(email, PASSWORD);
    const forgetful = new Visitor(proxy);
    const mark = proxy.log.length;
    const before = mail.server.messages.length;
    const asked = await forgetful.send("/auth/forgot-password", { form: { callbackUrl: "/account", email } });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toMatch(/\/verify-request/);
    const reset = linkIn(await mailTo(mail.server, email, before));
    expect(reset.pathname).toBe("/reset-password");
    expect((await forgetful.send(reset.pathname + reset.search)).status).toBe(200);
    const form = { email: reset.searchParams.get("email")!, token: reset.searchParams.get("token")!, callbackUrl: "/account" };
    const set = await forgetful.send("/auth/reset-password", { form: { ...form, password: newPassword } });
    expect(set.status).toBe(302);
    expect(set.headers.get("location")).toBe(`${proxy.origin}/account`);
    expect((await forgetful.session())?.user?.email).toBe(email);
    expect(await elsewhere.session()).toBeNull();
    expect(await owner.session()).toBeNull();
    // Used: refused on whichever instance it reaches next.
    const again = await new Visitor(proxy).send("/auth/reset-password", { form: { ...form, password: "yet another long password" } });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toMatch(new RegExp(`^${proxy.origin}/forgot-password\\?`));
    const old = await owner.signIn(email, PASSWORD);
    expect(old.status).toBe(400);
    expect(alertIn(await old.text())).toBe("Invalid email or password.");
    await owner.signInOk(email, newPassword);
    expectAlternated(mark);
  }, 90_000);

  it("the rate limit is global: five wrong passwords over the instances, then every instance refuses the sixth attempt and the right password", async () => {
    const email = "locked.many@example.com";
    const owner = new Visitor(proxy);
    await owner.signInOk(email, PASSWORD, await owner.signUp(mail.server, email, PASSWORD));
    const guesser = new Visitor(proxy);
    const mark = proxy.log.length;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const refused = await guesser.signIn(email, `wrong password ${attempt}`);
      expect(refused.status).toBe(400);
      expect(alertIn(await refused.text())).toBe("Invalid email or password.");
    }
    expect(new Set(instancesSince(mark)).size).toBe(INSTANCES);
    const afterFive = proxy.log.length;
    for (let i = 0; i < INSTANCES; i++) {
      const refused = await guesser.signIn(email, "wrong password again");
      expect(refused.status).toBe(429);
      expect(alertIn(await refused.text())).toBe(TOO_MANY);
    }
    for (let i = 0; i < INSTANCES; i++) {
      const right = await new Visitor(proxy).signIn(email, PASSWORD);
      expect(right.status).toBe(429);
      expect(alertIn(await right.text())).toBe(TOO_MANY);
      expect(right.headers.getSetCookie().join("\n")).not.toContain(SESSION_COOKIE);
    }
    expect(new Set(instancesSince(afterFive)).size).toBe(INSTANCES);
    expectAlternated(mark);
  }, 90_000);

  describe.skipIf(!hasChromium)("in Chromium, through the proxy", () => {
    const { freshPage, shot } = useBrowser("many-instances");

    it("passkeys: every challenge one instance issues is verified by another (register, sign in by email, sign in without one)", async () => {
      const mark = proxy.log.length;
      await passkeySignUpOutAndIn(await freshPage(), shot, { origin: proxy.origin, returnParam: "redirectTo", userLine: "p", home: "/account" });
      const pages = proxy.log.slice(mark).filter((entry) => !entry.path.startsWith("/_app/"));
      const challenges = pages.flatMap((entry, i) => (entry.path.startsWith("/auth/webauthn-options/passkey") ? [[entry, pages[i + 1]!] as const] : []));
      expect(challenges.length).toBe(3);
      for (const [options, verified] of challenges) {
        expect(options.status).toBe(200);
        expect(`${verified.method} ${verified.path}`).toBe("POST /auth/callback/passkey");
        expect(verified.status).toBe(200);
        expect(verified.instance, proxy.output()).not.toBe(options.instance);
      }
    }, 120_000);
  });

  it("one address signed up by ten visitors at once, through every instance: one user, and the address's mail limit (5 an hour) holds exactly", async () => {
    const email = "race.many@example.com";
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => new Visitor(proxy, `127.66.0.${i + 1}`).send("/auth/signup", { form: { callbackUrl: "/account", email, password: `${PASSWORD} ${i}` } })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(5).fill(302), ...Array(5).fill(429)]);
    expect(await serverRows(database.url, `SELECT id FROM users WHERE email = '${email}'`)).toHaveLength(1);
  }, 90_000);

  it(`OAuth under load: ${OAUTH_VISITORS} visitors sign in with the OpenID provider at once, each its own login: no 5xx, each signed in as itself, one account each`, async () => {
    const mark = proxy.log.length;
    const logins = Array.from({ length: OAUTH_VISITORS }, (_, i) => `crowd-${i}`);
    // Each from an address of its own, as in the load run below: the per-address limit is not what this is about.
    const visitors = logins.map((_, i) => new Visitor(proxy, `127.88.0.${i + 1}`));
    const signedInAs = await Promise.all(
      visitors.map(async (visitor, i) => {
        const { callbackUrl } = await authorize(await visitor.startOAuth(PROVIDER.id), { login: logins[i] });
        const callback = new URL(callbackUrl!);
        const landed = await visitor.send(callback.pathname + callback.search);
        expect(landed.status, await landed.clone().text()).toBe(302);
        expect(landed.headers.get("location")).toBe(`${proxy.origin}/protected`);
        return (await visitor.session())?.user?.email;
      }),
    );
    expect(signedInAs).toEqual(logins.map((login) => `${login}@example.test`));

    const load = proxy.log.slice(mark);
    expect(load.filter((entry) => entry.status >= 500 || entry.status === 0)).toEqual([]);
    expect(new Set(load.map((entry) => entry.instance)).size).toBe(INSTANCES);
    const accounts = await serverRows<{ providerAccountId: string; email: string }>(
      database.url,
      `SELECT a."providerAccountId", u.email FROM accounts a JOIN users u ON u.id = a."userId" WHERE a.provider = '${PROVIDER.id}' AND a."providerAccountId" LIKE 'crowd-%'`,
    );
    const byLogin = (a: { providerAccountId: string }, b: { providerAccountId: string }) => a.providerAccountId.localeCompare(b.providerAccountId);
    expect(accounts.sort(byLogin)).toEqual(logins.map((login) => ({ providerAccountId: login, email: `${login}@example.test` })).sort(byLogin));
    expect(provider.server.serverErrors).toEqual([]);
  }, 90_000);

  it(`load: ${LOAD_VISITORS} visitors sign up and sign in (confirming) at once, then read their sessions ${LOAD_VISITORS * READS} times at once: no 5xx, one user each, every read its own`, async () => {
    const mark = proxy.log.length;
    const emails = Array.from({ length: LOAD_VISITORS }, (_, i) => `load-${i}@example.com`);
    // Each visitor from an address of its own: the per-address limits (ip: 100, mail 30 an hour) are not what this is about.
    const visitors = emails.map((_, i) => new Visitor(proxy, `127.77.${i >> 8}.${(i & 255) + 1}`));

    const links = await Promise.all(visitors.map((visitor, i) => visitor.signUp(mail.server, emails[i]!, PASSWORD)));
    await Promise.all(visitors.map((visitor, i) => visitor.signInOk(emails[i]!, PASSWORD, links[i])));
    const readers = Array.from({ length: READS }, () => visitors).flat();
    const reads = await Promise.all(readers.map(async (visitor, i) => ({ expected: emails[i % LOAD_VISITORS], got: (await visitor.session())?.user?.email })));
    expect(reads.length).toBe(LOAD_VISITORS * READS);
    expect(reads.filter((read) => read.got !== read.expected)).toEqual([]);

    const load = proxy.log.slice(mark);
    expect(load.filter((entry) => entry.status >= 500 || entry.status === 0)).toEqual([]);
    for (let instance = 0; instance < INSTANCES; instance++) expect(load.filter((entry) => entry.instance === instance).length).toBeGreaterThan(LOAD_VISITORS);

    const users = await serverRows<{ email: string; n: string }>(database.url, `SELECT email, count(*) AS n FROM users WHERE email LIKE 'load-%' GROUP BY email`);
    expect(users.length).toBe(LOAD_VISITORS);
    expect(users.filter((row) => Number(row.n) !== 1)).toEqual([]);
    const sessions = await serverRows<{ email: string }>(database.url, `SELECT u.email FROM sessions s JOIN users u ON u.id = s."userId" WHERE u.email LIKE 'load-%'`);
    expect(sessions.map((row) => row.email).sort()).toEqual([...emails].sort());
  }, 180_000);

  it("no instance logged an error but the refusals above (the forged OAuth states; the used sign-in link and wrong passwords are warnings)", () => {
    const refusals = [
      "[auth][error] InvalidCheck:",
      // The forged states' InvalidCheck names its cause on a line of its own, as oauth4webapi words it.
      '[auth][cause]: OperationProcessingError: unexpected "state" response parameter value',
    ];
    for (const server of instances.servers) {
      const errors = server.output().split("\n").filter((line) => /error/i.test(line) && !refusals.some((refusal) => line.startsWith(refusal)));
      expect(errors).toEqual([]);
    }
  });
});
