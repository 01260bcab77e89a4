/**
 * `GET webauthn-options/<id>`: the inferred action, the options for the
 * browser, the challenge cookie, and every request it refuses (400 JSON,
 * nothing stored, no cookie).
 */
import { describe, expect, it } from "vitest";
import { Passkey } from "@gatehouse/runtime/providers";
import { decode } from "@gatehouse/runtime/jwt";
import { SECRET, call, setCookies } from "../helpers.js";
import {
  CHALLENGE_COOKIE,
  CookieJar,
  fetchOptions,
  newAuthenticator,
  passkeySetup,
  signUp,
} from "./support/flow.js";

async function sealedChallenge(jar: CookieJar, name = CHALLENGE_COOKIE): Promise<any> {
  return decode({ token: jar.get(name)!, secret: SECRET, salt: name });
}

/** A user with one passkey, and a jar signed in as them. */
async function registered(setup = passkeySetup()) {
  const authenticator = newAuthenticator();
  const jar = new CookieJar();
  const { credential, response } = await signUp(setup.config, jar, authenticator, "ada@example.com");
  expect(response.status).toBe(302);
  const user = (await setup.memory.getUserByEmail("ada@example.com"))!;
  setup.writes.length = 0;
  return { ...setup, authenticator, jar, credential, user };
}

describe("webauthn-options: the inferred action", () => {
  it("signed out with a new email: register a new user; the user-to-be is only in the sealed cookie", async () => {
    const { config, writes, memory } = passkeySetup();
    const jar = new CookieJar();
    const { response, body } = await fetchOptions(config, jar, { email: "  New.User@Example.com " });

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(body.action).toBe("register");
    expect(body.options.rp).toEqual({ id: "localhost", name: "localhost" });
    expect(body.options.user.name).toBe("new.user@example.com");
    expect(body.options.attestation).toBe("none");
    expect(body.options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
    expect(body.options.excludeCredentials).toEqual([]);
    expect(body.options.timeout).toBe(300_000);
    expect(typeof body.options.challenge).toBe("string");

    const sealed = await sealedChallenge(jar);
    expect(sealed).toMatchObject({ value: body.options.challenge, provider: "passkey", action: "register" });
    expect(sealed.newUser).toMatchObject({ email: "new.user@example.com", name: null });
    expect(sealed.newUser.id).toMatch(/^[0-9a-f-]{36}$/);
    // The user handle the authenticator keeps is the future user's id.
    expect(Buffer.from(body.options.user.id, "base64url").toString()).toBe(sealed.newUser.id);
    expect(writes).toEqual([]);
    expect(await memory.getUserByEmail("new.user@example.com")).toBeNull();
  });

  it("a new user's name comes from the name field", async () => {
    const { config } = passkeySetup();
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { email: "grace@example.com", name: "Grace Hopper" });
    expect(body.options.user.displayName).toBe("Grace Hopper");
    expect((await sealedChallenge(jar)).newUser.name).toBe("Grace Hopper");
  });

  it("signed out with the email of an existing user: authenticate with that user's passkeys", async () => {
    const { config, credential, writes } = await registered();
    const jar = new CookieJar();
    const { response, body } = await fetchOptions(config, jar, { email: "ADA@example.com" });

    expect(response.status).toBe(200);
    expect(body.action).toBe("authenticate");
    expect(body.options.rpId).toBe("localhost");
    expect(body.options.userVerification).toBe("preferred");
    expect(body.options.allowCredentials).toEqual([{ id: credential.id, type: "public-key", transports: ["hybrid", "internal"] }]);
    expect(await sealedChallenge(jar)).toMatchObject({ value: body.options.challenge, action: "authenticate", provider: "passkey" });
    expect(writes).toEqual([]);
  });

  it("signed out without an email: authenticate with any passkey (discoverable, conditional UI)", async () => {
    const { config } = passkeySetup();
    const queries: Record<string, string>[] = [{}, { email: "" }, { action: "authenticate" }];
    for (const query of queries) {
      const jar = new CookieJar();
      const { response, body } = await fetchOptions(config, jar, query);
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ action: "authenticate", options: { allowCredentials: [] } });
      expect(jar.get(CHALLENGE_COOKIE)).toBeTruthy();
    }
  });

  it("explicit authenticate with an unknown email: authenticate with any passkey, nothing stored", async () => {
    const { config, writes } = passkeySetup();
    const { body } = await fetchOptions(config, new CookieJar(), { email: "nobody@example.com", action: "authenticate" });
    expect(body).toMatchObject({ action: "authenticate", options: { allowCredentials: [] } });
    expect(writes).toEqual([]);
  });

  it("signed in without an action: register another passkey for the session's user, excluding theirs", async () => {
    const { config, jar, credential, user, writes } = await registered();
    const { response, body } = await fetchOptions(config, jar, { email: "someone.else@example.com" });

    expect(response.status).toBe(200);
    expect(body.action).toBe("register");
    expect(body.options.user.name).toBe("ada@example.com");
    expect(body.options.excludeCredentials).toEqual([{ id: credential.id, type: "public-key", transports: ["hybrid", "internal"] }]);
    const sealed = await sealedChallenge(jar);
    expect(sealed).toMatchObject({ action: "register", userId: user.id });
    expect(sealed.newUser).toBeUndefined();
    expect(writes).toEqual([]);
  });

  it("signed in with action=authenticate: authenticate with the session user's passkeys", async () => {
    const { config, jar, credential } = await registered();
    const { body } = await fetchOptions(config, jar, { action: "authenticate" });
    expect(body.action).toBe("authenticate");
    expect(body.options.allowCredentials.map((c: any) => c.id)).toEqual([credential.id]);
  });

  it("the relying party comes from the provider's relayingParty, else from the trusted origin", async () => {
    const { config } = passkeySetup({
      providers: [Passkey({ relayingParty: { id: "example.com", name: "Example", origin: "https://example.com" } })],
    });
    const { body } = await fetchOptions(config, new CookieJar(), { email: "a@example.com" });
    expect(body.options.rp).toEqual({ id: "example.com", name: "Example" });

    const other = passkeySetup({ url: "https://auth.example.org" });
    const response = await call(other.config, "/auth/webauthn-options/passkey", { origin: "https://auth.example.org" });
    expect(((await response.json()) as any).options.rpId).toBe("auth.example.org");
  });

  it("provider options are merged over the defaults", async () => {
    const { config } = passkeySetup({
      providers: [
        Passkey({
          registrationOptions: { authenticatorSelection: { userVerification: "required" }, timeout: 1000 },
          authenticationOptions: { userVerification: "discouraged" },
        }),
      ],
    });
    const reg = await fetchOptions(config, new CookieJar(), { email: "a@example.com" });
    expect(reg.body.options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(reg.body.options.timeout).toBe(1000);
    expect(reg.body.options.attestation).toBe("none");
    const auth = await fetchOptions(config, new CookieJar());
    expect(auth.body.options.userVerification).toBe("discouraged");
    expect(auth.body.options.timeout).toBe(300_000);
  });

  it("a custom getUserInfo decides who asks", async () => {
    const { config, memory } = passkeySetup({
      providers: [
        Passkey({
          formFields: { username: { label: "Username", autocomplete: "username webauthn" } },
          getUserInfo: async ({ query, adapter }) => {
            const username = query.get("username");
            if (!username) return null;
            const user = await adapter.getUserByEmail!(`${username}@users.example`);
            return user ? { user, exists: true } : { user: { email: `${username}@users.example`, name: username }, exists: false };
          },
        }),
      ],
    });
    const jar = new CookieJar();
    const { body } = await fetchOptions(config, jar, { username: "linus" });
    expect(body.action).toBe("register");
    expect(body.options.user).toMatchObject({ name: "linus@users.example", displayName: "linus" });
    await memory.createUser({ id: "u-1", email: "linus@users.example", emailVerified: null });
    expect((await fetchOptions(config, new CookieJar(), { username: "linus" })).body.action).toBe("authenticate");
  });
});

describe("webauthn-options: the whole inference table", () => {
  // [signed in, email, action] -> answer (an action, or a 400)
  const cases: [boolean, "none" | "new" | "existing", string, "register" | "authenticate" | 400][] = [
    [false, "none", "", "authenticate"],
    [false, "none", "authenticate", "authenticate"],
    [false, "none", "register", 400],
    [false, "new", "", "register"],
    [false, "new", "authenticate", "authenticate"],
    [false, "new", "register", "register"],
    [false, "existing", "", "authenticate"],
    [false, "existing", "authenticate", "authenticate"],
    [false, "existing", "register", 400],
    [true, "none", "", "register"],
    [true, "none", "authenticate", "authenticate"],
    [true, "none", "register", "register"],
    [true, "new", "", "register"],
    [true, "existing", "register", "register"],
  ];
  it.each(cases)("signed in: %s, email: %s, action: %j -> %s", async (signedIn, email, action, expected) => {
    const setup = await registered();
    const jar = signedIn ? setup.jar : new CookieJar();
    const query: Record<string, string> = {};
    if (email === "new") query.email = "new@example.com";
    if (email === "existing") query.email = "ada@example.com";
    if (action) query.action = action;
    const { response, body } = await fetchOptions(setup.config, jar, query);
    if (expected === 400) {
      expect(response.status).toBe(400);
    } else {
      expect(response.status).toBe(200);
      expect(body.action).toBe(expected);
    }
    expect(setup.writes).toEqual([]);
  });
});

describe("webauthn-options: the challenge cookie", () => {
  it("is authjs.challenge: HttpOnly, SameSite=Lax, Path=/, 15 minutes; __Host- (Secure, no Domain) on https", async () => {
    const { config } = passkeySetup();
    const response = await call(config, "/auth/webauthn-options/passkey");
    const cookie = setCookies(response).find((c) => c.name === CHALLENGE_COOKIE)!;
    expect(cookie).toBeDefined();
    expect(cookie.attributes).toMatchObject({ httponly: true, path: "/", "max-age": "900" });
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax");
    expect(cookie.attributes.secure).toBeUndefined();

    const secure = passkeySetup();
    const https = await call(secure.config, "/auth/webauthn-options/passkey", { origin: "https://example.com" });
    const secureCookie = setCookies(https).find((c) => c.name === `__Host-${CHALLENGE_COOKIE}`)!;
    expect(secureCookie.attributes.secure).toBe(true);
    expect(secureCookie.attributes.domain).toBeUndefined();
  });

  it("each request gets a fresh challenge", async () => {
    const { config } = passkeySetup();
    const a = await fetchOptions(config, new CookieJar());
    const b = await fetchOptions(config, new CookieJar());
    expect(a.body.options.challenge).not.toBe(b.body.options.challenge);
  });
});

describe("webauthn-options: refused requests are 400 JSON, with nothing stored and no challenge", () => {
  async function expectBadRequest(setup: ReturnType<typeof passkeySetup>, jar: CookieJar, query: Record<string, string>, message: RegExp, provider?: string) {
    const before = jar.get(CHALLENGE_COOKIE);
    const { response, body } = await fetchOptions(setup.config, jar, query, provider);
    expect(response.status).toBe(400);
    expect(body.error).toMatch(/InvalidRequest|UnknownAction/);
    expect(body.message).toMatch(message);
    expect(setCookies(response).some((c) => c.name === CHALLENGE_COOKIE)).toBe(false);
    expect(jar.get(CHALLENGE_COOKIE)).toBe(before);
    expect(setup.writes).toEqual([]);
  }

  it("register for the email of an existing user while signed out", async () => {
    const setup = await registered();
    await expectBadRequest(setup, new CookieJar(), { email: "ada@example.com", action: "register" }, /already exists/);
  });

  it("register without an email while signed out", async () => {
    await expectBadRequest(passkeySetup(), new CookieJar(), { action: "register" }, /needs an email/);
  });

  it.each(["not-an-email", "a@b@c.com", "two words@example.com", "@example.com", "ada@", "ada@exa mple.com", `${"x".repeat(250)}@example.com`])(
    "an invalid email: %s",
    async (email) => {
      await expectBadRequest(passkeySetup(), new CookieJar(), { email }, /not a valid email address/);
    },
  );

  it.each([
    ["a line break", "Grace\nHopper"],
    ["a right-to-left override", "Grace\u202e"],
    ["a zero-width space", "Gr\u200bace"],
    ["over 100 characters", "g".repeat(101)],
  ])("a new user's name with %s: the rule of every display name", async (_, name) => {
    await expectBadRequest(passkeySetup(), new CookieJar(), { email: "grace@example.com", name }, /at most 100 characters, without control or invisible format characters/);
  });

  it("an unknown action", async () => {
    await expectBadRequest(passkeySetup(), new CookieJar(), { action: "delete" }, /not a WebAuthn action/);
  });

  it("a provider that is not a WebAuthn provider, or none at all", async () => {
    const setup = passkeySetup({
      providers: [Passkey(), { id: "creds", name: "Creds", type: "credentials", credentials: {}, authorize: () => null }],
    });
    await expectBadRequest(setup, new CookieJar(), {}, /not a WebAuthn provider/, "creds");
    await expectBadRequest(setup, new CookieJar(), {}, /No provider with id "nope"/, "nope");
  });

  it("POST is not an options request", async () => {
    const { config } = passkeySetup();
    const response = await call(config, "/auth/webauthn-options/passkey", { form: { email: "a@example.com" } });
    expect(response.status).toBe(400);
  });
});
