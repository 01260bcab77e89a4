/**
 * Every way a passkey callback can be wrong. None signs anyone in, none stores
 * anything (no user, account or authenticator, no counter change), each clears
 * the challenge cookie and is logged with its cause. Verification failures go
 * to the error page as `WebAuthnVerificationError`; malformed requests are 400.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Passkey } from "@gatehouse/runtime/providers";
import type { AuthConfig } from "@gatehouse/runtime";
import { call, locationOf } from "../helpers.js";
import {
  CHALLENGE_COOKIE,
  CookieJar,
  expectRefused,
  fetchOptions,
  newAuthenticator,
  passkeySetup,
  postCallback,
  signIn,
  signUp,
  type PasskeySetup,
} from "./support/flow.js";
import type { SoftwareAuthenticator } from "./support/authenticator.js";

afterEach(() => {
  vi.useRealTimers();
});

interface World extends PasskeySetup {
  authenticator: SoftwareAuthenticator;
  credentialId: string;
  userId: string;
}

/** Ada, with one passkey used once (counter 1), and a second WebAuthn provider. */
async function world(overrides: Partial<AuthConfig> = {}): Promise<World> {
  const setup = passkeySetup({ providers: [Passkey(), Passkey({ id: "passkey2", name: "Other passkeys", enableConditionalUI: false })], ...overrides });
  const authenticator = newAuthenticator();
  const { credential } = await signUp(setup.config, new CookieJar(), authenticator, "ada@example.com");
  await signIn(setup.config, new CookieJar(), authenticator, "ada@example.com");
  const user = (await setup.memory.getUserByEmail("ada@example.com"))!;
  expect(await setup.memory.getAuthenticator(credential.id)).toMatchObject({ counter: 1 });
  setup.writes.length = 0;
  setup.events.length = 0;
  setup.logs.errors.length = 0;
  return { ...setup, authenticator, credentialId: credential.id, userId: user.id };
}

/** Nothing changed: no write at all, Ada still has exactly her one passkey at counter 1, no new user. */
async function expectNothingStored(w: World): Promise<void> {
  expect(w.writes).toEqual([]);
  expect(await w.memory.listAuthenticatorsByUserId(w.userId)).toEqual([expect.objectContaining({ credentialID: w.credentialId, counter: 1 })]);
  expect(await w.memory.getUserByEmail("eve@example.com")).toBeNull();
  expect(w.events).toEqual([]);
}

async function expectVerificationError(w: World, response: Response, cause?: RegExp): Promise<void> {
  expect(response.status).toBe(302);
  const location = locationOf(response);
  expect(location.pathname).toBe("/auth/error");
  expect(location.searchParams.get("error")).toBe("WebAuthnVerificationError");
  expectRefused(response);
  await expectNothingStored(w);
  const logged = w.logs.errors.find((e) => (e as any).type === "WebAuthnVerificationError");
  expect(logged).toBeDefined();
  if (cause) {
    const text = `${logged!.message}\n${(logged as any).cause?.err?.message ?? ""}`;
    expect(text).toMatch(cause);
  }
}

async function expectBadRequest(w: World, response: Response, message: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: string; message: string };
  expect(body.error).toBe("InvalidRequest");
  expect(body.message).toMatch(message);
  expectRefused(response);
  await expectNothingStored(w);
  expect(w.logs.errors.some((e) => (e as any).type === "InvalidRequest")).toBe(true);
}

/** Options to authenticate as Ada, in a fresh jar. */
async function authOptions(w: World, provider = "passkey") {
  const jar = new CookieJar();
  const { body } = await fetchOptions(w.config, jar, { email: "ada@example.com" }, provider);
  expect(body.action).toBe("authenticate");
  return { jar, options: body.options };
}

/** Options to register Eve, in a fresh jar. */
async function registerOptions(w: World, provider = "passkey") {
  const jar = new CookieJar();
  const { body } = await fetchOptions(w.config, jar, { email: "eve@example.com" }, provider);
  expect(body.action).toBe("register");
  return { jar, options: body.options };
}

describe("authentication that must fail", () => {
  it("no challenge cookie", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    jar.cookies.delete(CHALLENGE_COOKIE);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options));
    await expectVerificationError(w, response, /cookie is missing/);
  });

  it("an expired challenge cookie (older than 15 minutes)", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options));
    await expectVerificationError(w, response, /could not be decrypted/);
  });

  it("a tampered challenge cookie", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const sealed = jar.get(CHALLENGE_COOKIE)!;
    const i = Math.floor(sealed.length / 2);
    jar.cookies.set(CHALLENGE_COOKIE, `${sealed.slice(0, i)}${sealed[i] === "A" ? "B" : "A"}${sealed.slice(i + 1)}`);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options));
    await expectVerificationError(w, response, /could not be decrypted/);
  });

  it("a challenge made for another provider", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w, "passkey2");
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options));
    await expectVerificationError(w, response, /made for provider "passkey2"/);
  });

  it("a challenge made to register, answered as an authentication", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    const data = w.authenticator.authenticate({ ...options, allowCredentials: [] });
    const response = await postCallback(w.config, jar, "authenticate", data);
    await expectVerificationError(w, response, /made to register/);
  });

  it("a signature over another challenge (a replayed answer)", async () => {
    const w = await world();
    const old = await authOptions(w);
    const { jar } = await authOptions(w);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(old.options));
    await expectVerificationError(w, response, /challenge/);
  });

  it("the wrong origin", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const data = w.authenticator.authenticate(options, { origin: "http://evil.example:3000" });
    const response = await postCallback(w.config, jar, "authenticate", data);
    await expectVerificationError(w, response, /origin/);
  });

  it("the wrong RP ID", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const data = w.authenticator.authenticate(options, { rpId: "evil.example" });
    const response = await postCallback(w.config, jar, "authenticate", data);
    await expectVerificationError(w, response, /RP ID/i);
  });

  it("a registration response type (webauthn.create) where a webauthn.get is due", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options, { type: "webauthn.create" }));
    await expectVerificationError(w, response, /type/);
  });

  it("an unknown credential", async () => {
    const w = await world();
    const stranger = newAuthenticator();
    const elsewhere = passkeySetup();
    await signUp(elsewhere.config, new CookieJar(), stranger, "ada@example.com");
    const jar = new CookieJar();
    const { body } = await fetchOptions(w.config, jar);
    const response = await postCallback(w.config, jar, "authenticate", stranger.authenticate(body.options));
    await expectVerificationError(w, response, /No passkey with credential id/);
  });

  it("a bad signature", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options, { tamperSignature: true }));
    await expectVerificationError(w, response, /signature/);
  });

  it("a signature by another key", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options, { signWith: privateKey }));
    await expectVerificationError(w, response, /signature/);
  });

  it.each([1, 0])("a counter that did not increase (%i after 1: a cloned authenticator)", async (counter) => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options, { counter }));
    await expectVerificationError(w, response, /counter/);
  });

  it("no user presence", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options, { flags: 0 }));
    await expectVerificationError(w, response, /not present/);
  });

  it("no user verification when the provider requires it", async () => {
    const w = await world({ providers: [Passkey({ authenticationOptions: { userVerification: "required" } }), Passkey({ id: "passkey2", enableConditionalUI: false })] });
    const { jar, options } = await authOptions(w);
    expect(options.userVerification).toBe("required");
    const response = await postCallback(w.config, jar, "authenticate", w.authenticator.authenticate(options, { flags: 0x01 }));
    await expectVerificationError(w, response, /verification/i);
  });
});

describe("registration that must fail", () => {
  it("no challenge cookie", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    jar.cookies.delete(CHALLENGE_COOKIE);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options).response);
    await expectVerificationError(w, response, /cookie is missing/);
  });

  it("a tampered challenge cookie", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    jar.cookies.set(CHALLENGE_COOKIE, `${jar.get(CHALLENGE_COOKIE)!.slice(0, -4)}AAAA`);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options).response);
    await expectVerificationError(w, response, /could not be decrypted/);
  });

  it("a challenge made for another provider", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w, "passkey2");
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options).response);
    await expectVerificationError(w, response, /made for provider "passkey2"/);
  });

  it("a challenge made to authenticate, answered as a registration", async () => {
    const w = await world();
    const { jar, options } = await authOptions(w);
    const fake = { ...options, rp: { id: "localhost", name: "x" }, user: { id: "eA", name: "eve@example.com", displayName: "Eve" } };
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(fake).response);
    await expectVerificationError(w, response, /made to authenticate/);
  });

  it("an answer to another challenge", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options, { challenge: "c29tZXRoaW5nLWVsc2U" }).response);
    await expectVerificationError(w, response, /challenge/);
  });

  it("the wrong origin", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options, { origin: "https://evil.example" }).response);
    await expectVerificationError(w, response, /origin/);
  });

  it("the wrong RP ID", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options, { rpId: "evil.example" }).response);
    await expectVerificationError(w, response, /RP ID/i);
  });

  it("a reported credential id that is not the one in the authenticator data", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options, { reportedId: "c29tZW9uZS1lbHNlcy1pZA" }).response);
    await expectVerificationError(w, response, /credential id/);
  });

  it("no user verification when the provider requires it", async () => {
    const w = await world({
      providers: [Passkey({ registrationOptions: { authenticatorSelection: { userVerification: "required" } } }), Passkey({ id: "passkey2", enableConditionalUI: false })],
    });
    const { jar, options } = await registerOptions(w);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options, { flags: 0x01 }).response);
    await expectVerificationError(w, response, /verif/i);
  });

  it("a key algorithm the provider does not offer", async () => {
    const w = await world({ providers: [Passkey(), Passkey({ id: "passkey2", enableConditionalUI: false, registrationOptions: { supportedAlgorithmIDs: [-257] } })] });
    const { jar, options } = await registerOptions(w, "passkey2");
    expect(options.pubKeyCredParams).toEqual([{ alg: -257, type: "public-key" }]);
    // The software authenticator makes an ES256 (-7) key regardless.
    const data = newAuthenticator().register(options).response;
    const response = await postCallback(w.config, jar, "register", data, { provider: "passkey2" });
    await expectVerificationError(w, response, /alg/);
  });

  it("while verification is only preferred, a key without user verification registers", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    const response = await postCallback(w.config, jar, "register", newAuthenticator().register(options, { flags: 0x01 }).response);
    expect(response.status).toBe(302);
    expect(locationOf(response).pathname).toBe("/");
  });
});

describe("malformed callbacks are 400, nothing stored", () => {
  async function answer(w: World) {
    const { jar, options } = await authOptions(w);
    return { jar, data: w.authenticator.authenticate(options) };
  }

  it("a missing action", async () => {
    const w = await world();
    const { jar, data } = await answer(w);
    const response = await postCallback(w.config, jar, "", data, { fields: { data: JSON.stringify(data) } });
    await expectBadRequest(w, response, /has no action/);
  });

  it("an unknown action", async () => {
    const w = await world();
    const { jar, data } = await answer(w);
    const response = await postCallback(w.config, jar, "login", data);
    await expectBadRequest(w, response, /not a WebAuthn action/);
  });

  it("no data", async () => {
    const w = await world();
    const { jar } = await answer(w);
    const response = await postCallback(w.config, jar, "authenticate", "", { fields: { action: "authenticate" } });
    await expectBadRequest(w, response, /has no data/);
  });

  it.each([
    ["data that is not JSON", "{not json", /not valid JSON/],
    ["data that is not an object", "[1,2]", /must be a JSON object/],
    ["no credential id", JSON.stringify({ rawId: "x", type: "public-key", response: {} }), /no credential id/],
    ["a credential id that is not base64url", JSON.stringify({ id: "a+b/c=", rawId: "a+b/c=", type: "public-key", response: {} }), /no credential id/],
    ["not a public-key credential", JSON.stringify({ id: "abc", rawId: "abc", type: "password", response: {} }), /not a public-key credential/],
    ["no response object", JSON.stringify({ id: "abc", rawId: "abc", type: "public-key" }), /no response object/],
    ["no signature", JSON.stringify({ id: "abc", rawId: "abc", type: "public-key", response: { clientDataJSON: "e30", authenticatorData: "AA" } }), /response\.signature/],
  ])("%s", async (_, data, message) => {
    const w = await world();
    const { jar } = await answer(w);
    const response = await postCallback(w.config, jar, "authenticate", data);
    await expectBadRequest(w, response, message);
  });

  it("a registration without an attestation object", async () => {
    const w = await world();
    const { jar, options } = await registerOptions(w);
    const { response: data } = newAuthenticator().register(options);
    const { attestationObject: _, ...rest } = data.response;
    const response = await postCallback(w.config, jar, "register", { ...data, response: rest });
    await expectBadRequest(w, response, /response\.attestationObject/);
  });

  it("no CSRF token: back to the sign-in page with MissingCSRF", async () => {
    const w = await world();
    const { jar, data } = await answer(w);
    const response = await postCallback(w.config, jar, "authenticate", data, { noCsrf: true });
    expect(response.status).toBe(302);
    expect(locationOf(response).pathname).toBe("/auth/signin");
    expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
    expectRefused(response);
    await expectNothingStored(w);
  });

  it("GET callback/passkey is not a passkey response", async () => {
    const w = await world();
    const response = await call(w.config, "/auth/callback/passkey?action=authenticate");
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).message).toMatch(/POST/);
    await expectNothingStored(w);
  });
});
