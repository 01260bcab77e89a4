/**
 * Apple: the name from the first sign-in's `user` form field, and the client
 * secret JWT, verified with jose against the public half of the key.
 */
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { Apple, APPLE_CLIENT_SECRET_MAX_AGE, createAppleClientSecret, type AppleProfile } from "@gatehouse/runtime/providers";
import { fixture } from "./fixtures.js";

/** The form fields Apple posts on a user's first sign-in, as core hands them over after turning the POST into a GET. */
const FIRST_SIGN_IN = new URLSearchParams({
  state: "s",
  code: "c1a2b3",
  id_token: "eyJ...",
  user: JSON.stringify({ name: { firstName: "Jane", lastName: "Appleseed" }, email: "k7w2x9ppqz@privaterelay.appleid.com" }),
});

describe("Apple provider", () => {
  const apple = Apple();

  it("asks for name and email with a form_post callback, at Apple's issuer; secret in the body; no PKCE", () => {
    expect(apple).toMatchObject({
      id: "apple",
      type: "oidc",
      issuer: "https://appleid.apple.com",
      authorization: { params: { scope: "name email", response_mode: "form_post" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state", "nonce"],
    });
  });

  it("first sign-in: the name from the `user` field joins the ID token's claims", async () => {
    const extra = apple.callbackProfile!(FIRST_SIGN_IN);
    expect(extra).toEqual({ user: { name: { firstName: "Jane", lastName: "Appleseed" } } });
    const user = await apple.profile!({ ...fixture<AppleProfile>("apple.json"), ...extra }, {});
    expect(user).toEqual({ id: "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234", name: "Jane Appleseed", email: "k7w2x9ppqz@privaterelay.appleid.com", image: null });
  });

  it("the `user` field never carries identity: its email is dropped, the ID token's stays", async () => {
    const forged = new URLSearchParams({ user: JSON.stringify({ name: { firstName: "Eve" }, email: "victim@example.com", sub: "someone-else" }) });
    const extra = apple.callbackProfile!(forged);
    expect(extra).toEqual({ user: { name: { firstName: "Eve" } } });
    const user = await apple.profile!({ ...fixture<AppleProfile>("apple.json"), ...extra }, {});
    expect(user).toMatchObject({ id: "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234", name: "Eve", email: "k7w2x9ppqz@privaterelay.appleid.com" });
  });

  it.each([
    ["no user field", new URLSearchParams({ code: "c" })],
    ["an empty one", new URLSearchParams({ user: "" })],
    ["one that is not JSON", new URLSearchParams({ user: "{name:" })],
    ["JSON null", new URLSearchParams({ user: "null" })],
    ["no name in it", new URLSearchParams({ user: JSON.stringify({ email: "a@b.c" }) })],
    ["a name that is a string", new URLSearchParams({ user: JSON.stringify({ name: "Jane" }) })],
  ])("%s: nothing added, nothing thrown", (_, params) => {
    expect(apple.callbackProfile!(params)).toBeUndefined();
  });

  it("only one of the names, or names that are not strings: what there is", async () => {
    const extra = apple.callbackProfile!(new URLSearchParams({ user: JSON.stringify({ name: { firstName: "", lastName: "Appleseed", middle: 1 } }) }));
    expect((await apple.profile!({ ...fixture<AppleProfile>("apple.json"), ...extra }, {})).name).toBe("Appleseed");
    const odd = apple.callbackProfile!(new URLSearchParams({ user: JSON.stringify({ name: { firstName: 42 } }) }));
    expect((await apple.profile!({ ...fixture<AppleProfile>("apple.json"), ...odd }, {})).name).toBeNull();
  });
});

describe("createAppleClientSecret", () => {
  async function keyPair() {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    return { pem: await exportPKCS8(privateKey), privateKey, publicKey };
  }
  const base = { teamId: "A1B2C3D4E5", keyId: "KEY1234567", clientId: "com.example.web" };

  it("an ES256 JWT for Apple's audience, signed with the key, valid for 180 days by default", async () => {
    const { pem, publicKey } = await keyPair();
    const before = Math.floor(Date.now() / 1000);
    const secret = await createAppleClientSecret({ ...base, privateKey: pem });
    const { payload, protectedHeader } = await jwtVerify(secret, publicKey, {
      issuer: "A1B2C3D4E5",
      audience: "https://appleid.apple.com",
      subject: "com.example.web",
      algorithms: ["ES256"],
    });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: "KEY1234567" });
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.exp! - payload.iat!).toBe(APPLE_CLIENT_SECRET_MAX_AGE);
    expect(APPLE_CLIENT_SECRET_MAX_AGE).toBe(180 * 86400);
  });

  it("another key does not verify it", async () => {
    const { pem } = await keyPair();
    const other = await keyPair();
    const secret = await createAppleClientSecret({ ...base, privateKey: pem });
    await expect(jwtVerify(secret, other.publicKey)).rejects.toThrow();
  });

  it("a shorter expiresIn; a CryptoKey; a PEM squeezed into one env line with literal \\n", async () => {
    const { pem, privateKey, publicKey } = await keyPair();
    const short = await createAppleClientSecret({ ...base, privateKey, expiresIn: 3600 });
    const { payload } = await jwtVerify(short, publicKey);
    expect(payload.exp! - payload.iat!).toBe(3600);
    const oneLine = pem.trim().replace(/\n/g, "\\n");
    const fromEnv = await createAppleClientSecret({ ...base, privateKey: oneLine });
    await expect(jwtVerify(fromEnv, publicKey)).resolves.toBeTruthy();
    expect(decodeProtectedHeader(fromEnv).kid).toBe("KEY1234567");
  });

  it.each([0, -1, 1.5, APPLE_CLIENT_SECRET_MAX_AGE + 1, Number.NaN])("expiresIn %s is refused", async (expiresIn) => {
    const { pem } = await keyPair();
    await expect(createAppleClientSecret({ ...base, privateKey: pem, expiresIn })).rejects.toThrow(RangeError);
  });

  it.each(["teamId", "keyId", "clientId", "privateKey"] as const)("a missing %s is refused by name", async (field) => {
    const { pem } = await keyPair();
    await expect(createAppleClientSecret({ ...base, privateKey: pem, [field]: "" })).rejects.toThrow(`\`${field}\` is required`);
  });

  it("a key that is not PKCS #8 is refused", async () => {
    await expect(createAppleClientSecret({ ...base, privateKey: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----" })).rejects.toThrow();
  });
});
