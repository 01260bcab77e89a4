/**
 * Signing in with a registered passkey: after signing out, with the email or
 * without (discoverable credentials / conditional UI), with JWT and database
 * sessions; the counter is stored; the signIn callback has its say.
 */
import { describe, expect, it } from "vitest";
import { call, csrfToken, fetchSession, locationOf, storesSession } from "../helpers.js";
import {
  CookieJar,
  ORIGIN,
  clearsChallenge,
  expectRefused,
  fetchOptions,
  newAuthenticator,
  passkeySetup,
  postCallback,
  signIn,
  signUp,
} from "./support/flow.js";

async function withPasskeyUser(setup = passkeySetup()) {
  const authenticator = newAuthenticator();
  const jar = new CookieJar();
  const { credential } = await signUp(setup.config, jar, authenticator, "ada@example.com");
  const user = (await setup.memory.getUserByEmail("ada@example.com"))!;
  setup.writes.length = 0;
  setup.events.length = 0;
  return { ...setup, authenticator, jar, credential, user };
}

describe("signing in with a passkey", () => {
  it.each(["database", "jwt"] as const)("after signing out, with the email: counter updated, session (%s), redirect", async (strategy) => {
    const { config, jar, authenticator, credential, user, memory, writes, events } = await withPasskeyUser(passkeySetup({ session: { strategy } }));
    const token = await csrfToken(config, jar);
    await call(config, "/auth/signout", { jar, form: { csrfToken: token } });
    expect((await fetchSession(config, jar)).body).toBeNull();
    writes.length = 0;

    const { response, options } = await signIn(config, jar, authenticator, "ada@example.com", "/home");
    expect(options.allowCredentials.map((c: any) => c.id)).toEqual([credential.id]);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(storesSession(response)).toBe(true);
    expect(clearsChallenge(response)).toBe(true);
    expect(writes).toEqual(["updateAuthenticatorCounter", ...(strategy === "database" ? ["createSession"] : [])]);
    expect(await memory.getAuthenticator(credential.id)).toMatchObject({ counter: 1, userId: user.id });
    expect((await fetchSession(config, jar)).body.user.email).toBe("ada@example.com");
    const signInEvent = events.find((e) => e.name === "signIn")!;
    expect(signInEvent.message).toMatchObject({ isNewUser: false, user: { id: user.id }, account: { type: "webauthn", provider: "passkey" } });

    // And again: the counter keeps moving.
    const again = await signIn(config, new CookieJar(), authenticator, "ada@example.com");
    expect(again.response.status).toBe(302);
    expect(await memory.getAuthenticator(credential.id)).toMatchObject({ counter: 2 });
  });

  it.each(["database", "jwt"] as const)("without an email (discoverable passkey, conditional UI), %s session", async (strategy) => {
    const { config, authenticator, credential, memory } = await withPasskeyUser(passkeySetup({ session: { strategy } }));
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { action: "authenticate" });
    expect(body.options.allowCredentials).toEqual([]);
    const data = authenticator.authenticate(body.options);
    const response = await postCallback(config, jar, "authenticate", data);
    expect(response.status).toBe(302);
    expect(storesSession(response)).toBe(true);
    expect((await fetchSession(config, jar)).body.user.email).toBe("ada@example.com");
    expect(await memory.getAuthenticator(credential.id)).toMatchObject({ counter: 1 });
  });

  it("a JSON body may carry data as an object", async () => {
    const { config, authenticator } = await withPasskeyUser();
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar);
    const csrf = await csrfToken(config, jar);
    const data = authenticator.authenticate(body.options);
    const response = await call(config, "/auth/callback/passkey", { jar, json: { action: "authenticate", data, csrfToken: csrf, callbackUrl: "/json" } });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/json`);
    expect(storesSession(response)).toBe(true);
  });

  it("an authenticator without a counter (always 0) signs in; the counter stays 0", async () => {
    const { config, authenticator, credential, memory } = await withPasskeyUser();
    for (let i = 0; i < 2; i++) {
      const jar = new CookieJar();
      const { body } = await fetchOptions(config, jar);
      const response = await postCallback(config, jar, "authenticate", authenticator.authenticate(body.options, { counter: 0 }));
      expect(response.status).toBe(302);
      expect(storesSession(response)).toBe(true);
    }
    expect(await memory.getAuthenticator(credential.id)).toMatchObject({ counter: 0 });
  });

  it("the signIn callback can refuse (AccessDenied, no session) or redirect elsewhere", async () => {
    let verdict: boolean | string = true;
    const setup = await withPasskeyUser(passkeySetup({ callbacks: { signIn: () => verdict } }));
    verdict = false;
    const refused = await signIn(setup.config, new CookieJar(), setup.authenticator);
    expect(locationOf(refused.response).searchParams.get("error")).toBe("AccessDenied");
    expectRefused(refused.response);

    verdict = "/blocked";
    const redirected = await signIn(setup.config, new CookieJar(), setup.authenticator);
    expect(redirected.response.headers.get("location")).toBe(`${ORIGIN}/blocked`);
    expect(storesSession(redirected.response)).toBe(false);
  });

  it("a passkey stored by Auth.js (credential id in standard base64) still signs in", async () => {
    const { config, memory, writes } = passkeySetup();
    const authenticator = newAuthenticator();
    // Register through a throwaway config to get a real credential, then store it the way Auth.js does.
    const other = passkeySetup();
    const { credential } = await signUp(other.config, new CookieJar(), authenticator, "ada@example.com");
    const user = await memory.createUser({ id: "authjs-user", email: "ada@example.com", emailVerified: null });
    const standardId = Buffer.from(credential.rawId).toString("base64");
    expect(standardId).not.toBe(credential.id);
    await memory.linkAccount({ userId: user.id, type: "webauthn", provider: "passkey", providerAccountId: standardId });
    await memory.createAuthenticator({
      ...(await other.memory.getAuthenticator(credential.id))!,
      credentialID: standardId,
      providerAccountId: standardId,
      userId: user.id,
    });

    const { options, response } = await signIn(config, new CookieJar(), authenticator, "ada@example.com");
    // Options always speak base64url.
    expect(options.allowCredentials[0].id).toBe(credential.id);
    expect(response.status).toBe(302);
    expect(storesSession(response)).toBe(true);
    expect(writes).toContain("updateAuthenticatorCounter");
    expect(await memory.getAuthenticator(standardId)).toMatchObject({ counter: 1 });
  });
});
