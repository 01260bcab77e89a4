/**
 * The ID token's signature check (`runtime/src/core/crypto/jws-verify.ts`): node:crypto's
 * synchronous `verify` on the key jose resolved, where the runtime has it, and
 * jose's `compactVerify` for everything else.
 *
 * Both engines must give the same verdict, with the same error, for every
 * algorithm a provider may use and every way a token or its key can be wrong;
 * the native engine must really be the one that checks the common algorithms
 * (no WebCrypto call). Then, through the handler, a rogue IdP signing with
 * ES256, PS256 or EdDSA signs its user in with an honest token and nobody with
 * a forged one.
 */
import { constants, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTVerifyGetKey } from "jose";
import type { AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { OIDC } from "@gatehouse/runtime/providers";
import { verifyJwtSignature, type SignatureEngine } from "../../runtime/src/core/crypto/jws-verify.js";
import { captureLogger, CookieJar, fetchSession, isCleared, locationOf, SECRET, setCookies } from "../helpers.js";
import { returnToCallback, startSignIn } from "./support/handler-flow.js";
import { startRogueIdp, type RogueIdp } from "./support/rogue-idp.js";
import { authorize } from "./support/user-agent.js";

const ENGINES: SignatureEngine[] = ["native", "jose"];
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"] as const;
const CLAIMS = { iss: "https://idp.example.test", sub: "ada", aud: "client", email: "ada@example.test" };
const KID = "key-1";

const b64u = (value: string | Uint8Array) => Buffer.from(value).toString("base64url");

/** A JWKS of one public key (`kid` key-1, and `alg` unless told otherwise), as a provider publishes it. */
async function jwksOf(publicKey: CryptoKey | KeyObject, extra: Partial<JWK> = {}): Promise<JWTVerifyGetKey> {
  return createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: KID, use: "sig", ...extra }] });
}

/** What `verifyJwtSignature` made of a token: `valid`, or the error's name, code and message. */
async function verdict(jwt: string, keys: JWTVerifyGetKey, engine: SignatureEngine): Promise<string> {
  try {
    await verifyJwtSignature(jwt, keys, engine);
    return "valid";
  } catch (error) {
    const { name, code, message } = error as Error & { code?: string };
    return `${name} ${code ?? "-"}: ${message}`;
  }
}

/** The verdicts of both engines, which must agree. */
async function bothEngines(jwt: string, keys: JWTVerifyGetKey): Promise<string> {
  const [native, jose] = await Promise.all(ENGINES.map((engine) => verdict(jwt, keys, engine)));
  expect(native).toBe(jose);
  return native!;
}

/** A compact JWS made by hand with node:crypto, for tokens jose would not sign. */
function handMade(header: Record<string, unknown>, digest: string | null, key: KeyObject, options: Record<string, unknown> = {}, claims: object = CLAIMS): string {
  const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(claims))}`;
  return `${input}.${b64u(sign(digest, Buffer.from(input), { key, ...options }))}`;
}

/** The same token with its payload changed (and the signature kept). */
function withPayload(jwt: string, claims: object): string {
  const [header, , signature] = jwt.split(".");
  return `${header}.${b64u(JSON.stringify(claims))}.${signature}`;
}

afterEach(() => vi.restoreAllMocks());

describe("every signing algorithm, both engines", () => {
  it.each(ALGORITHMS)("%s: an honest token is valid, natively without a WebCrypto call; a changed payload or another key's signature is not", async (alg) => {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
    const keys = await jwksOf(publicKey, { alg });
    const jwt = await new SignJWT(CLAIMS).setProtectedHeader({ alg, kid: KID, typ: "JWT" }).sign(privateKey);

    const webCryptoVerify = vi.spyOn(crypto.subtle, "verify");
    expect(await verdict(jwt, keys, "native")).toBe("valid");
    expect(webCryptoVerify).not.toHaveBeenCalled();
    expect(await verdict(jwt, keys, "jose")).toBe("valid");
    expect(webCryptoVerify).toHaveBeenCalledTimes(1);

    const failed = "JWSSignatureVerificationFailed ERR_JWS_SIGNATURE_VERIFICATION_FAILED: signature verification failed";
    expect(await bothEngines(withPayload(jwt, { ...CLAIMS, sub: "mallory" }), keys)).toBe(failed);
    const impostor = await new SignJWT(CLAIMS).setProtectedHeader({ alg, kid: KID }).sign((await generateKeyPair(alg)).privateKey);
    expect(await bothEngines(impostor, keys)).toBe(failed);
    // A signature cut short: for ECDSA and Ed25519 one OpenSSL cannot even parse.
    expect(await bothEngines(jwt.slice(0, -8), keys)).toBe(failed);
  });
});

describe("tokens and keys the native engine hands to jose: the same error either way", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });

  it("an RSA key shorter than 2048 bits", async () => {
    const weak = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const jwt = handMade({ alg: "RS256", kid: KID }, "sha256", weak.privateKey);
    expect(await bothEngines(jwt, await jwksOf(weak.publicKey, { alg: "RS256" }))).toMatch(/^TypeError .*2048 bits or larger/);
  });

  it("a critical header parameter nobody understands", async () => {
    const jwt = handMade({ alg: "RS256", kid: KID, crit: ["exp"], exp: 1 }, "sha256", rsa.privateKey);
    expect(await bothEngines(jwt, await jwksOf(rsa.publicKey))).toMatch(/^JOSENotSupported .*"exp" is not recognized/);
  });

  it("an unencoded payload (b64: false), which a JWT may not use", async () => {
    const jwt = handMade({ alg: "RS256", kid: KID, b64: false, crit: ["b64"] }, "sha256", rsa.privateKey);
    expect(await bothEngines(jwt, await jwksOf(rsa.publicKey))).toMatch(/^JWTInvalid .*unencoded payload/);
  });

  it.each([
    ["none", { alg: "none", kid: KID }, /^JOSENotSupported .*Unsupported "alg"/],
    ["HS256 against a JWKS", { alg: "HS256", kid: KID }, /^JOSENotSupported .*Unsupported "alg"/],
    ["an unknown kid", { alg: "RS256", kid: "elsewhere" }, /^JWKSNoMatchingKey /],
    ["no alg at all", { kid: KID }, /^JWSInvalid .*"alg"/],
  ])("alg or kid: %s", async (_, header, expected) => {
    const jwt = handMade(header, "sha256", rsa.privateKey);
    expect(await bothEngines(jwt, await jwksOf(rsa.publicKey))).toMatch(expected);
  });

  it("an ES256 token when the published key is on another curve", async () => {
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" });
    const jwt = handMade({ alg: "ES256", kid: KID }, "sha256", p384.privateKey, { dsaEncoding: "ieee-p1363" });
    expect(await bothEngines(jwt, await jwksOf(p384.publicKey))).toMatch(/^JWKSNoMatchingKey /);
  });

  it("an ES256 signature in DER rather than R || S", async () => {
    const jwt = handMade({ alg: "ES256", kid: KID }, "sha256", ec.privateKey, { dsaEncoding: "der" });
    expect(await bothEngines(jwt, await jwksOf(ec.publicKey))).toMatch(/^JWSSignatureVerificationFailed /);
  });

  it("a PS256 signature with a salt other than the digest's length", async () => {
    const jwt = handMade({ alg: "PS256", kid: KID }, "sha256", rsa.privateKey, { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 0 });
    expect(await bothEngines(jwt, await jwksOf(rsa.publicKey, { alg: "PS256" }))).toMatch(/^JWSSignatureVerificationFailed /);
  });

  it("a resolver that hands back a key of another algorithm (an RS256 key for a PS256 token)", async () => {
    const rs256Key = await crypto.subtle.importKey("jwk", await exportJWK(rsa.publicKey), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]);
    const jwt = handMade({ alg: "PS256", kid: KID }, "sha256", rsa.privateKey, { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
    expect(await bothEngines(jwt, async () => rs256Key)).toMatch(/^TypeError /);
  });

  it("a resolver that hands back an ECDSA key on another curve (P-384 for an ES256 token)", async () => {
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" });
    const p384Key = await crypto.subtle.importKey("jwk", await exportJWK(p384.publicKey), { name: "ECDSA", namedCurve: "P-384" }, false, ["verify"]);
    const jwt = handMade({ alg: "ES256", kid: KID }, "sha256", p384.privateKey, { dsaEncoding: "ieee-p1363" });
    expect(await bothEngines(jwt, async () => p384Key)).toMatch(/^TypeError .*P-256/);
  });

  it.each([
    ["two parts", (jwt: string) => jwt.split(".").slice(0, 2).join("."), /^JWSInvalid /],
    ["four parts", (jwt: string) => `${jwt}.x`, /^JWSInvalid /],
    ["a header that is not JSON", (jwt: string) => `${b64u("{alg")}.${jwt.split(".").slice(1).join(".")}`, /^JWSInvalid /],
    ["a signature that is not base64url", (jwt: string) => `${jwt.slice(0, -4)}+/+/`, /^JWSInvalid /],
    // jose reads a padded signature as the same bytes; the native engine leaves it to jose, so the two agree.
    ["padding in the signature", (jwt: string) => `${jwt}==`, /^valid$/],
  ])("a malformed token: %s", async (_, damage, expected) => {
    const jwt = handMade({ alg: "RS256", kid: KID }, "sha256", rsa.privateKey);
    expect(await bothEngines(damage(jwt), await jwksOf(rsa.publicKey))).toMatch(expected);
  });

  it("a resolver that hands back an RSA key for an ES256 token", async () => {
    const rsaKey = await crypto.subtle.importKey("jwk", await exportJWK(rsa.publicKey), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]);
    const jwt = handMade({ alg: "ES256", kid: KID }, "sha256", ec.privateKey, { dsaEncoding: "ieee-p1363" });
    expect(await bothEngines(jwt, async () => rsaKey)).toMatch(/^TypeError /);
  });
});

describe("runtimes the native engine cannot serve", () => {
  afterEach(() => {
    vi.resetModules();
    vi.doUnmock("../../runtime/src/core/crypto/native-crypto.js");
  });

  /** jws-verify.ts loaded with another `nodeCrypto`: none (an edge runtime), or one whose `verify` throws. */
  async function engineWith(nodeCrypto: object | undefined) {
    vi.resetModules();
    vi.doMock("../../runtime/src/core/crypto/native-crypto.js", () => ({ nodeCrypto }));
    return import("../../runtime/src/core/crypto/jws-verify.js");
  }

  const refusesCryptoKeys = {
    constants,
    verify: () => {
      throw new TypeError("unsupported key");
    },
  };

  it.each([
    ["no node:crypto (edge runtimes): jose is the default", undefined],
    ["a node:crypto whose verify takes no CryptoKey: jose gives the verdict", refusesCryptoKeys],
  ])("%s; an honest token is valid, a forged one is not", async (_, nodeCrypto) => {
    const module = await engineWith(nodeCrypto);
    expect(module.defaultSignatureEngine).toBe(nodeCrypto ? "native" : "jose");
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const keys = await jwksOf(publicKey, { alg: "ES256" });
    const jwt = await new SignJWT(CLAIMS).setProtectedHeader({ alg: "ES256", kid: KID }).sign(privateKey);
    await expect(module.verifyJwtSignature(jwt, keys)).resolves.toBeUndefined();
    await expect(module.verifyJwtSignature(withPayload(jwt, { ...CLAIMS, sub: "mallory" }), keys)).rejects.toThrow("signature verification failed");
  });
});

describe("through the handler: a provider that signs with another algorithm", () => {
  const idps = new Map<string, RogueIdp>();
  afterAll(async () => {
    for (const idp of idps.values()) await idp.close();
  });

  async function setup(alg: string) {
    if (!idps.has(alg)) idps.set(alg, await startRogueIdp({ idTokenAlg: alg }));
    const rogue = idps.get(alg)!;
    rogue.reset();
    const logs = captureLogger();
    const adapter = MemoryAdapter();
    const provider = OIDC({ id: "oidc", name: "Rogue", issuer: rogue.issuer, clientId: "rogue-client", clientSecret: "rogue-secret" });
    const config: AuthConfig = { secret: SECRET, trustHost: true, logger: logs.logger, adapter, providers: [provider] };
    return { config, logs, adapter, rogue };
  }

  async function signIn(config: AuthConfig, jar: CookieJar) {
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    return returnToCallback(config, jar, await authorize(authorizationUrl, { login: "x" }));
  }

  it.each(["ES256", "PS256", "EdDSA"])("%s: the honest token signs in; one forged under the published kid signs nobody in", async (alg) => {
    const honest = await setup(alg);
    const jar = new CookieJar();
    const callback = await signIn(honest.config, jar);
    expect(locationOf(callback).pathname).toBe("/");
    expect((await fetchSession(honest.config, jar)).body?.user?.email).toBe("rogue-user@example.test");

    const forged = await setup(alg);
    forged.rogue.configure({ signWith: "impostor" });
    const victim = new CookieJar();
    const refused = await signIn(forged.config, victim);
    expect(locationOf(refused).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(setCookies(refused).filter((c) => c.name === "authjs.session-token" && !isCleared(c))).toEqual([]);
    expect((await fetchSession(forged.config, victim)).body).toBeNull();
    expect(await forged.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "rogue-user" })).toBeNull();
    expect(forged.logs.errors.map((e) => e.message).join("\n")).toMatch(/has no valid signature: signature verification failed/);
  });
});


