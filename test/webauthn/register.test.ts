/**
 * Registering passkeys through `POST callback/<id>`: a new user (user, account
 * and authenticator stored, session, redirect), a second passkey for the
 * signed-in user, with JWT and database sessions, and the refusals that are
 * about who the passkey is for (the signIn callback, an email taken meanwhile,
 * a signed-in user who signed out).
 */
import { describe, expect, it } from "vitest";
import { Passkey } from "@gatehouse/runtime/providers";
import { decode } from "@gatehouse/runtime/jwt";
import { SECRET, call, csrfToken, fetchSession, locationOf, sessionSetCookies, storesSession } from "../helpers.js";
import {
  CookieJar,
  ORIGIN,
  clearsChallenge,
  expectRefused,
  fetchOptions,
  newAuthenticator,
  passkeySetup,
  postCallback,
  signUp,
} from "./support/flow.js";

describe("registering a new user", () => {
  it.each(["database", "jwt"] as const)("stores user, account and authenticator, signs in (%s session), redirects to callbackUrl", async (strategy) => {
    const { config, memory, writes, events } = passkeySetup({ session: { strategy } });
    const jar = new CookieJar();
    const authenticator = newAuthenticator();
    const { response, credential } = await signUp(config, jar, authenticator, "ada@example.com", "/welcome");

    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect(storesSession(response)).toBe(true);
    expect(clearsChallenge(response)).toBe(true);
    // User, account and authenticator in one adapter call: one transaction in a database.
    expect(writes).toEqual(["createUserWithAccount", ...(strategy === "database" ? ["createSession"] : [])]);

    const user = (await memory.getUserByEmail("ada@example.com"))!;
    expect(user).toMatchObject({ email: "ada@example.com", emailVerified: null });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await memory.getUserByAccount({ provider: "passkey", providerAccountId: credential.id })).toMatchObject({ id: user.id });
    const account = await memory.getAccount(credential.id, "passkey");
    expect(account).toMatchObject({ userId: user.id, type: "webauthn", provider: "passkey", providerAccountId: credential.id });

    const stored = (await memory.getAuthenticator(credential.id))!;
    expect(stored).toEqual({
      credentialID: credential.id,
      credentialPublicKey: Buffer.from(credential.cosePublicKey).toString("base64"),
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "hybrid,internal",
      providerAccountId: credential.id,
      userId: user.id,
      // Named after the browser that registered it (these requests name none), for the account page's list.
      name: "Passkey",
      createdAt: expect.any(Date),
      lastUsedAt: null,
    });
    // The discoverable passkey's user handle names the user.
    expect(Buffer.from(credential.userHandle, "base64url").toString()).toBe(user.id);

    const session = await fetchSession(config, jar);
    expect(session.body.user).toMatchObject({ email: "ada@example.com" });
    if (strategy === "jwt") {
      const [cookie] = sessionSetCookies(response);
      const token = await decode({ token: cookie!.value, secret: SECRET, salt: "authjs.session-token" });
      expect(token?.sub).toBe(user.id);
    }
    expect(events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn"]);
    expect(events[1]!.message.account).toMatchObject({ type: "webauthn", providerAccountId: credential.id, userId: user.id });
    expect(events[2]!.message).toMatchObject({ isNewUser: true, user: { id: user.id } });
  });

  it("a backed-up (synced) passkey is stored as multiDevice; a name from the form is the user's name", async () => {
    const { config, memory } = passkeySetup();
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { email: "grace@example.com", name: "Grace Hopper" });
    const { credential, response: data } = newAuthenticator().register(body.options, { backedUp: true, transports: ["internal"] });
    const response = await postCallback(config, jar, "register", data);
    expect(response.status).toBe(302);
    expect(await memory.getAuthenticator(credential.id)).toMatchObject({
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "internal",
    });
    expect(await memory.getUserByEmail("grace@example.com")).toMatchObject({ name: "Grace Hopper" });
  });

  it("with X-Auth-Return-Redirect: 1 the answer is 200 {url}", async () => {
    const { config } = passkeySetup();
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { email: "ada@example.com" });
    const { response: data } = newAuthenticator().register(body.options);
    const response = await postCallback(config, jar, "register", data, { callbackUrl: "/dashboard", headers: { "X-Auth-Return-Redirect": "1" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: `${ORIGIN}/dashboard` });
    expect(storesSession(response)).toBe(true);
  });

  it("pages.newUser receives a new user", async () => {
    const { config } = passkeySetup({ pages: { newUser: "/onboarding" } });
    const { response } = await signUp(config, new CookieJar(), newAuthenticator(), "ada@example.com", "/welcome");
    const location = locationOf(response);
    expect(location.pathname).toBe("/onboarding");
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/welcome`);
  });

  it("the signIn callback sees the user-to-be and a webauthn account; refusing stores nothing", async () => {
    const seen: any[] = [];
    const { config, writes, memory } = passkeySetup({
      callbacks: {
        signIn: (attempt) => {
          seen.push(attempt);
          return false;
        },
      },
    });
    const { response, credential } = await signUp(config, new CookieJar(), newAuthenticator(), "ada@example.com");
    expect(response.status).toBe(302);
    expect(locationOf(response).searchParams.get("error")).toBe("AccessDenied");
    expectRefused(response);
    expect(writes).toEqual([]);
    expect(await memory.getAuthenticator(credential.id)).toBeNull();
    expect(seen[0].user).toMatchObject({ email: "ada@example.com", emailVerified: null });
    expect(seen[0].account).toMatchObject({ provider: "passkey", type: "webauthn", providerAccountId: credential.id });
  });

  it("an email taken between the options and the callback is refused (AccountNotLinked), nothing stored", async () => {
    const { config, writes, memory } = passkeySetup();
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { email: "ada@example.com" });
    // Someone else signs up with the address meanwhile.
    await memory.createUser({ id: "other", email: "ada@example.com", emailVerified: null });
    const { credential, response: data } = newAuthenticator().register(body.options);
    const response = await postCallback(config, jar, "register", data);

    expect(response.status).toBe(302);
    expect(locationOf(response).pathname).toBe("/auth/signin");
    expect(locationOf(response).searchParams.get("error")).toBe("AccountNotLinked");
    expectRefused(response);
    expect(writes).toEqual([]);
    expect(await memory.getAuthenticator(credential.id)).toBeNull();
    expect(await memory.listAuthenticatorsByUserId("other")).toEqual([]);
  });

  it("a createUserWithAccount that loses a race on the email is refused as AccountNotLinked, nothing of it stored", async () => {
    const setup = passkeySetup();
    let racedIn = false;
    const racing = {
      ...setup.memory,
      // The check passes, then the insert hits the unique email of a concurrent sign-up.
      getUserByEmail: async (email: string) => (racedIn ? setup.memory.getUserByEmail(email) : null),
      createUserWithAccount: async (...args: Parameters<typeof setup.memory.createUserWithAccount>) => {
        racedIn = true;
        await setup.memory.createUser({ id: "winner", email: args[0].email, emailVerified: null });
        return setup.memory.createUserWithAccount(...args);
      },
    };
    const { config, events } = passkeySetup({}, racing);
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { email: "ada@example.com" });
    const { credential, response: data } = newAuthenticator().register(body.options);
    const response = await postCallback(config, jar, "register", data);
    expect(locationOf(response).searchParams.get("error")).toBe("AccountNotLinked");
    expectRefused(response);
    expect(await setup.memory.getAuthenticator(credential.id)).toBeNull();
    expect(await setup.memory.getAccount(credential.id, "passkey")).toBeNull();
    expect(events).toEqual([]);
  });

  it("a createUserWithAccount that fails stores nothing and fires no event: Configuration", async () => {
    const setup = passkeySetup();
    const failing = { ...setup.memory, createUserWithAccount: async () => Promise.reject(new Error("disk full")) };
    const { config, logs, events } = passkeySetup({}, failing);
    const { response, credential } = await signUp(config, new CookieJar(), newAuthenticator(), "ada@example.com");
    expect(locationOf(response).searchParams.get("error")).toBe("Configuration");
    expectRefused(response);
    expect(await setup.memory.getUserByEmail("ada@example.com")).toBeNull();
    expect(await setup.memory.getAccount(credential.id, "passkey")).toBeNull();
    expect(events).toEqual([]);
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("createUserWithAccount");
  });
});

/** The memory adapter without the gatehouse extension, as an Auth.js adapter is: separate calls, undone on failure. */
describe("registering a new user with an adapter that lacks createUserWithAccount", () => {
  const withoutExtension = (memory: ReturnType<typeof passkeySetup>["memory"], overrides: Record<string, unknown> = {}) => ({
    ...memory,
    createUserWithAccount: undefined,
    ...overrides,
  });

  it("stores user, account and authenticator with createUser, linkAccount and createAuthenticator", async () => {
    const setup = passkeySetup();
    const { config, writes, events } = passkeySetup({}, withoutExtension(setup.memory));
    const { response, credential } = await signUp(config, new CookieJar(), newAuthenticator(), "ada@example.com");
    expect(storesSession(response)).toBe(true);
    expect(writes).toEqual(["createUser", "linkAccount", "createAuthenticator", "createSession"]);
    const user = (await setup.memory.getUserByEmail("ada@example.com"))!;
    expect(await setup.memory.getAuthenticator(credential.id)).toMatchObject({ userId: user.id });
    expect(events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn"]);
  });

  it("a createUser that loses a race on the email is refused as AccountNotLinked", async () => {
    const setup = passkeySetup();
    const racing = withoutExtension(setup.memory, {
      // The check passes, then the insert hits the unique email of a concurrent sign-up.
      getUserByEmail: async (email: string) => (racedIn ? setup.memory.getUserByEmail(email) : null),
      createUser: async (user: any) => {
        racedIn = true;
        await setup.memory.createUser({ id: "winner", email: user.email, emailVerified: null });
        return setup.memory.createUser(user);
      },
    });
    let racedIn = false;
    const { config } = passkeySetup({}, racing);
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { email: "ada@example.com" });
    racedIn = false;
    const { credential, response: data } = newAuthenticator().register(body.options);
    const response = await postCallback(config, jar, "register", data);
    expect(locationOf(response).searchParams.get("error")).toBe("AccountNotLinked");
    expectRefused(response);
    expect(await setup.memory.getAuthenticator(credential.id)).toBeNull();
  });

  it("a failing createAuthenticator undoes the user and the account", async () => {
    const setup = passkeySetup();
    const failing = withoutExtension(setup.memory, { createAuthenticator: async () => Promise.reject(new Error("disk full")) });
    const { config, logs } = passkeySetup({}, failing);
    const { response, credential } = await signUp(config, new CookieJar(), newAuthenticator(), "ada@example.com");
    expect(locationOf(response).searchParams.get("error")).toBe("Configuration");
    expectRefused(response);
    expect(await setup.memory.getUserByEmail("ada@example.com")).toBeNull();
    expect(await setup.memory.getAccount(credential.id, "passkey")).toBeNull();
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("createAuthenticator");
  });
});

describe("adding a passkey while signed in", () => {
  it.each(["database", "jwt"] as const)("a second passkey goes to the same user (%s session)", async (strategy) => {
    const { config, memory, writes, events } = passkeySetup({ session: { strategy } });
    const jar = new CookieJar();
    const phone = newAuthenticator();
    const laptop = newAuthenticator();
    const first = await signUp(config, jar, phone, "ada@example.com");
    const user = (await memory.getUserByEmail("ada@example.com"))!;
    writes.length = 0;
    events.length = 0;

    const { body } = await fetchOptions(config, jar);
    expect(body.action).toBe("register");
    expect(body.options.excludeCredentials.map((c: any) => c.id)).toEqual([first.credential.id]);
    const { credential, response: data } = laptop.register(body.options);
    const response = await postCallback(config, jar, "register", data, { callbackUrl: "/settings" });

    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/settings`);
    expect(storesSession(response)).toBe(true);
    // (Ending the old database session on sign-in is sign-in.ts's business, not asserted here.)
    expect(writes.slice(0, 2)).toEqual(["linkAccount", "createAuthenticator"]);
    expect(writes).not.toContain("createUser");
    expect(writes.includes("createSession")).toBe(strategy === "database");
    const ids = (await memory.listAuthenticatorsByUserId(user.id)).map((a) => a.credentialID).sort();
    expect(ids).toEqual([first.credential.id, credential.id].sort());
    expect(await memory.getUserByAccount({ provider: "passkey", providerAccountId: credential.id })).toMatchObject({ id: user.id });
    expect(events.map((e) => e.name)).toEqual(["linkAccount", "signIn"]);
    expect(events[1]!.message.isNewUser).toBe(false);
    expect((await fetchSession(config, jar)).body.user.email).toBe("ada@example.com");
  });

  it("refused when the user who asked for the options is no longer signed in, nothing stored", async () => {
    const { config, memory, writes } = passkeySetup();
    const jar = new CookieJar();
    await signUp(config, jar, newAuthenticator(), "ada@example.com");
    const user = (await memory.getUserByEmail("ada@example.com"))!;
    const { body } = await fetchOptions(config, jar);
    expect(body.action).toBe("register");

    // Ada signs out; someone else at the same browser finishes the prompt.
    const token = await csrfToken(config, jar);
    await call(config, "/auth/signout", { jar, form: { csrfToken: token } });
    writes.length = 0;
    const { credential, response: data } = newAuthenticator().register(body.options);
    const response = await postCallback(config, jar, "register", data);

    expect(locationOf(response).searchParams.get("error")).toBe("WebAuthnVerificationError");
    expectRefused(response);
    expect(writes).toEqual([]);
    expect(await memory.getAuthenticator(credential.id)).toBeNull();
    expect(await memory.listAuthenticatorsByUserId(user.id)).toHaveLength(1);
  });

  it("a passkey registered already is refused, nothing stored", async () => {
    const { config, memory, writes } = passkeySetup();
    const jar = new CookieJar();
    const phone = newAuthenticator();
    const first = await signUp(config, jar, phone, "ada@example.com");
    writes.length = 0;
    const { body } = await fetchOptions(config, jar);
    // An authenticator that ignores excludeCredentials and answers with the same credential id.
    const { response: data } = newAuthenticator().register(body.options);
    const forged = { ...data, id: first.credential.id, rawId: first.credential.id };
    const response = await postCallback(config, jar, "register", forged);
    expect(locationOf(response).searchParams.get("error")).toBe("WebAuthnVerificationError");
    expectRefused(response);
    expect(writes).toEqual([]);
    expect(await memory.getAuthenticator(first.credential.id)).toMatchObject({ counter: 0 });
  });
});

describe("two WebAuthn providers", () => {
  it("each stores accounts under its own id", async () => {
    const { config, memory } = passkeySetup({ providers: [Passkey(), Passkey({ id: "security-key", name: "Security key", enableConditionalUI: false })] });
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { email: "ada@example.com" }, "security-key");
    const { credential, response: data } = newAuthenticator().register(body.options);
    const response = await postCallback(config, jar, "register", data, { provider: "security-key" });
    expect(response.status).toBe(302);
    expect(await memory.getAccount(credential.id, "security-key")).toMatchObject({ type: "webauthn" });
  });
});
