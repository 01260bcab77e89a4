/**
 * The hand-written JWE fast path (`runtime/src/core/crypto/jwe-cbc.ts`, used by `encode` /
 * `decode`): compact JWE, `dir` + `A256CBC-HS512` (RFC 7516, RFC 7518 §5.2.2).
 *
 * It is checked against an independent implementation made of `node:crypto`
 * primitives only (HKDF, AES-256-CBC, HMAC-SHA-512), against RFC 7518's own test
 * vector (Appendix B.3), and against `jose` in both directions. Then every way of
 * damaging a token that only the fast path sees (its own header) must make
 * `decode` throw and make `GET /auth/session` answer `null` and clear the cookie.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { EncryptJWT, base64url as joseBase64url, calculateJwkThumbprint, jwtDecrypt } from "jose";
import { decode as authDecode } from "@auth/core/jwt";
import { Auth } from "@gatehouse/runtime";
import { decode, encode, type JWT } from "@gatehouse/runtime/jwt";
import { decryptCompact, encryptCompactWithIv, importCbcKeys } from "../../runtime/src/core/crypto/jwe-cbc.js";
import {
  OLD_SECRET,
  SECRET,
  USER,
  credentialsConfig,
  isCleared,
  request,
  setCookies,
} from "../helpers.js";

const SALT = "authjs.session-token";
const CLAIMS: JWT = { name: USER.name, email: USER.email, picture: USER.image, sub: USER.id, role: "admin", n: 42, nested: { a: [1, "é"] } };
const T0 = Date.UTC(2031, 5, 1, 0, 0, 0);

// --- The independent implementation: node:crypto only. ---

/** HKDF-SHA256(secret, salt = cookie name, info, 64 bytes): MAC key first, encryption key second. */
function deriveKey(secret: string, salt = SALT, length = 64): Buffer {
  const info = `Auth.js Generated Encryption Key (${salt})`;
  return Buffer.from(hkdfSync("sha256", secret, salt, info, length));
}

const KEY = deriveKey(SECRET);
const MAC_KEY = KEY.subarray(0, 32);
const ENC_KEY = KEY.subarray(32);
const FOREIGN_KEY = deriveKey(OLD_SECRET);

const b64u = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
/** Strict base64url decoding, for splitting tokens we made (throws on anything outside the alphabet). */
function unb64u(part: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new Error(`not base64url: ${part}`);
  return Buffer.from(part, "base64url");
}

/** AL: the 64-bit big-endian length of the AAD in bits (RFC 7518 §5.2.2.1 step 4). */
function aadBits(aad: Buffer): Buffer {
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length) * 8n);
  return al;
}

/** T = first 32 bytes of HMAC-SHA-512(MAC_KEY, AAD || IV || E || AL), AAD being the ASCII of the encoded header. */
function macTag(header: string, iv: Buffer, ciphertext: Buffer, macKey: Buffer = MAC_KEY): Buffer {
  const aad = Buffer.from(header, "ascii");
  return createHmac("sha512", macKey).update(Buffer.concat([aad, iv, ciphertext, aadBits(aad)])).digest().subarray(0, 32);
}

function aesCbcEncrypt(plaintext: Buffer, iv: Buffer, encKey: Buffer = ENC_KEY, padding = true): Buffer {
  const cipher = createCipheriv("aes-256-cbc", encKey, iv);
  cipher.setAutoPadding(padding);
  return Buffer.concat([cipher.update(plaintext), cipher.final()]);
}

function aesCbcDecrypt(ciphertext: Buffer, iv: Buffer, encKey: Buffer = ENC_KEY): Buffer {
  const decipher = createDecipheriv("aes-256-cbc", encKey, iv);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

interface Parts {
  header: string;
  encryptedKey: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function split(token: string): Parts {
  const parts = token.split(".");
  expect(parts).toHaveLength(5);
  const [header, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  return { header, encryptedKey, iv: unb64u(iv), ciphertext: unb64u(ciphertext), tag: unb64u(tag) };
}

function join(p: Parts): string {
  return [p.header, p.encryptedKey, b64u(p.iv), b64u(p.ciphertext), b64u(p.tag)].join(".");
}

/** The protected header we expect, as the base64url string that is also the AAD. Set in `beforeAll`. */
let KID: string;
let HEADER: string;

interface NodeTokenOptions {
  header?: string;
  iv?: Buffer;
  macKey?: Buffer;
  encKey?: Buffer;
}

/** A compact JWE built by hand with node:crypto: our header, a random IV, a correct tag. */
function nodeToken(plaintext: string | Buffer, options: NodeTokenOptions = {}): string {
  const header = options.header ?? HEADER;
  const iv = options.iv ?? randomBytes(16);
  const ciphertext = aesCbcEncrypt(Buffer.from(plaintext), iv, options.encKey ?? ENC_KEY);
  return join({ header, encryptedKey: "", iv, ciphertext, tag: macTag(header, iv, ciphertext, options.macKey ?? MAC_KEY) });
}

/** A token whose IV, ciphertext and tag are whatever we say, with a correct tag over them (so only structure can reject it). */
function tokenWithValidTag(iv: Buffer, ciphertext: Buffer, header = HEADER): string {
  return join({ header, encryptedKey: "", iv, ciphertext, tag: macTag(header, iv, ciphertext) });
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A fresh token made by `encode`, with claims that expire in 30 days. */
function ours(claims: JWT = CLAIMS): Promise<string> {
  return encode({ token: claims, secret: SECRET, salt: SALT });
}

/** A token from `encode` whose given part contains `char` (retries: parts are random). */
async function oursContaining(part: "iv" | "ciphertext" | "tag", char: string): Promise<string> {
  const index = { iv: 2, ciphertext: 3, tag: 4 }[part];
  for (let i = 0; i < 500; i++) {
    const token = await ours();
    if (token.split(".")[index]!.includes(char)) return token;
  }
  throw new Error(`no token with ${char} in its ${part}`);
}

function replacePart(token: string, index: number, replace: (part: string) => string): string {
  const parts = token.split(".");
  parts[index] = replace(parts[index]!);
  return parts.join(".");
}

function flipBit(token: string, part: "iv" | "ciphertext" | "tag", byte: number, bit: number): string {
  const p = split(token);
  const bytes = Buffer.from(p[part]);
  const i = byte < 0 ? bytes.length + byte : byte;
  bytes[i]! ^= 1 << bit;
  return join({ ...p, [part]: bytes });
}

function withHeader(token: string, header: Record<string, unknown> | string): string {
  return replacePart(token, 0, () => b64u(typeof header === "string" ? header : JSON.stringify(header)));
}

// --- The handler side. ---

/** `GET /auth/session` with `token` as the session cookie must answer 200 `null` and clear the cookie. */
async function expectHandlerRejects(token: string): Promise<void> {
  const config = credentialsConfig();
  const res = await Auth(request("/auth/session", { headers: { cookie: `${SALT}=${encodeURIComponent(token)}` } }), config);
  expect(res.status).toBe(200);
  expect(await res.json()).toBeNull();
  const cleared = setCookies(res).find((c) => c.name === SALT);
  expect(cleared, "the session cookie is cleared").toBeDefined();
  expect(isCleared(cleared!)).toBe(true);
  expect(setCookies(res).filter((c) => c.name.includes("session-token") && c.value !== "")).toEqual([]);
}

async function expectRejected(token: string): Promise<void> {
  await expect(decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow();
  await expectHandlerRejects(token);
}

beforeAll(async () => {
  const token = await ours();
  KID = (JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8")) as { kid: string }).kid;
  HEADER = b64u(`{"alg":"dir","enc":"A256CBC-HS512","kid":${JSON.stringify(KID)}}`);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("encode, checked with node:crypto", () => {
  it("the header is exactly {alg, enc, kid} in that order, the kid is the key's JWK SHA-512 thumbprint, the encrypted key is empty", async () => {
    const token = await ours();
    const p = split(token);
    expect(p.header).toBe(HEADER);
    expect(p.encryptedKey).toBe("");
    // RFC 7638: SHA-512 over {"k":...,"kty":"oct"} (members sorted, no whitespace).
    const thumbprint = createHash("sha512").update(`{"k":"${b64u(KEY)}","kty":"oct"}`).digest("base64url");
    expect(KID).toBe(thumbprint);
  });

  it("the tag is the first 32 bytes of HMAC-SHA-512(MAC key, AAD || IV || ciphertext || AL)", async () => {
    const token = await ours();
    const p = split(token);
    expect(p.iv).toHaveLength(16);
    expect(p.tag).toHaveLength(32);
    expect(p.ciphertext.length % 16).toBe(0);
    expect(p.tag.equals(macTag(p.header, p.iv, p.ciphertext))).toBe(true);
    // The MAC key is the first half of the derived key, not the second.
    expect(p.tag.equals(macTag(p.header, p.iv, p.ciphertext, ENC_KEY))).toBe(false);
  });

  it("the ciphertext is AES-256-CBC (PKCS#7) under the second half of the key, and holds the claims with iat, exp and jti", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT, maxAge: 3600 });
    const p = split(token);
    const plaintext = aesCbcDecrypt(p.ciphertext, p.iv);
    // Exactly one PKCS#7 padding block's worth at most.
    expect(p.ciphertext.length).toBe((Math.floor(plaintext.length / 16) + 1) * 16);
    const claims = JSON.parse(plaintext.toString("utf8")) as JWT;
    expect(claims).toEqual({ ...CLAIMS, iat: T0 / 1000, exp: T0 / 1000 + 3600, jti: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // The MAC half of the key does not decrypt it. (Checked with padding off: with
    // PKCS#7 on, a wrong key passes the padding check about one time in 256.)
    const wrong = createDecipheriv("aes-256-cbc", MAC_KEY, p.iv).setAutoPadding(false);
    const garbage = Buffer.concat([wrong.update(p.ciphertext), wrong.final()]);
    expect(garbage.includes(Buffer.from(JSON.stringify(CLAIMS).slice(1, -1)))).toBe(false);
  });

  it("works for plaintexts of every length modulo 16 (including exact multiples, which get a full padding block)", async () => {
    for (let extra = 0; extra < 32; extra++) {
      const token = await ours({ pad: "x".repeat(extra) });
      const p = split(token);
      expect(p.tag.equals(macTag(p.header, p.iv, p.ciphertext))).toBe(true);
      const claims = JSON.parse(aesCbcDecrypt(p.ciphertext, p.iv).toString("utf8")) as JWT;
      expect(claims.pad).toBe("x".repeat(extra));
    }
  });

  it("each encode uses a fresh IV and jti: two encodes of the same claims at the same instant differ", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const a = split(await ours());
    const b = split(await ours());
    expect(a.header).toBe(b.header);
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.tag.equals(b.tag)).toBe(false);
    const ca = JSON.parse(aesCbcDecrypt(a.ciphertext, a.iv).toString("utf8")) as JWT;
    const cb = JSON.parse(aesCbcDecrypt(b.ciphertext, b.iv).toString("utf8")) as JWT;
    expect(ca.iat).toBe(cb.iat);
    expect(ca.jti).not.toBe(cb.jti);
  });

  it("IVs and jtis do not repeat over many encodes", async () => {
    const ivs = new Set<string>();
    const jtis = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = split(await ours({ sub: "same" }));
      ivs.add(p.iv.toString("hex"));
      jtis.add((JSON.parse(aesCbcDecrypt(p.ciphertext, p.iv).toString("utf8")) as JWT).jti!);
    }
    expect(ivs.size).toBe(200);
    expect(jtis.size).toBe(200);
  });
});

describe("decode of tokens built by hand with node:crypto", () => {
  it("reads a token with our header, built from the RFC's steps", async () => {
    const claims = { ...CLAIMS, iat: nowSeconds(), exp: nowSeconds() + 60, jti: "hand-made" };
    const token = nodeToken(JSON.stringify(claims));
    expect(await decode({ token, secret: SECRET, salt: SALT })).toEqual(claims);
  });

  it("reads plaintexts of every length modulo 16, and claims without iat/exp/jti", async () => {
    for (let extra = 0; extra < 32; extra++) {
      const claims = { sub: "x", pad: "y".repeat(extra) };
      expect(await decode({ token: nodeToken(JSON.stringify(claims)), secret: SECRET, salt: SALT })).toEqual(claims);
    }
  });

  it("reads it as the handler's session cookie", async () => {
    const token = nodeToken(JSON.stringify({ ...CLAIMS, iat: nowSeconds(), exp: nowSeconds() + 60 }));
    const res = await Auth(request("/auth/session", { headers: { cookie: `${SALT}=${token}` } }), credentialsConfig());
    const body = (await res.json()) as { user: unknown };
    expect(body.user).toEqual({ name: USER.name, email: USER.email, image: USER.image });
  });

  it("reads it with a rotation array whose second secret is the right one", async () => {
    const token = nodeToken(JSON.stringify({ sub: "rotated" }));
    expect(await decode({ token, secret: [OLD_SECRET, SECRET], salt: SALT })).toEqual({ sub: "rotated" });
  });
});

describe.each(["native", "webcrypto"] as const)("RFC 7518 Appendix B.3 test vector, through the fast path's own functions (%s engine)", (engine) => {
  const K = Uint8Array.from({ length: 64 }, (_, i) => i);
  const P = "A cipher system must not be required to be secret, and it must be able to fall into the hands of the enemy without inconvenience";
  const IV = Buffer.from("1af38c2dc2b96ffdd86694092341bc04", "hex");
  const A = "The second principle of Auguste Kerckhoffs";
  const E = Buffer.from(
    "4affaaadb78c31c5da4b1b590d10ffbd3dd8d5d302423526912da037ecbcc7bd822c301dd67c373bccb584ad3e9279c2" +
      "e6d12a1374b77f077553df829410446b36ebd97066296ae6427ea75c2e0846a11a09ccf5370dc80bfecbad28c73f09b3" +
      "a3b75e662a2594410ae496b2e2e6609e31e6e02cc837f053d21f37ff4f51950bbe2638d09dd7a4930930806d0703b1f6",
    "hex",
  );
  const T = Buffer.from("4dd3b4c088a7f45c216839645b2012bf2e6269a8c56a816dbc1b267761955bc5", "hex");

  /** The RFC's AAD is not a JWE header, so put it in place of ours. */
  async function rfcKeys() {
    const keys = await importCbcKeys(K, "rfc-7518", engine);
    return { ...keys, header: "RFC", aad: new TextEncoder().encode(A) };
  }

  it("encryptCompact produces the RFC's ciphertext E and tag T (with the RFC's IV)", async () => {
    const token = await encryptCompactWithIv(await rfcKeys(), new TextEncoder().encode(P), new Uint8Array(IV));
    expect(token).toBe(`RFC..${b64u(IV)}.${b64u(E)}.${b64u(T)}`);
  });

  it("decryptCompact recovers P from the RFC's E and T, and rejects a one-bit change of the AAD", async () => {
    const keys = await rfcKeys();
    const plaintext = await decryptCompact(keys, ["RFC", "", b64u(IV), b64u(E), b64u(T)]);
    expect(new TextDecoder().decode(plaintext)).toBe(P);
    const otherAad = new TextEncoder().encode(A);
    otherAad[0]! ^= 1;
    await expect(decryptCompact({ ...keys, aad: otherAad }, ["RFC", "", b64u(IV), b64u(E), b64u(T)])).rejects.toThrow();
  });

  it("importCbcKeys refuses keys that are not 64 bytes", async () => {
    await expect(importCbcKeys(K.slice(0, 32), "x", engine)).rejects.toThrow();
    await expect(importCbcKeys(new Uint8Array(65), "x", engine)).rejects.toThrow();
  });

  it("a ciphertext with a valid tag but bad padding is refused, not returned", async () => {
    // Only reachable with the MAC key (the tag is checked first), but the AES layer must still refuse it.
    const keys = await rfcKeys();
    const bad = Buffer.from(new Uint8Array(await keys.primitives.encrypt(new Uint8Array(IV), new Uint8Array(16).fill(0))).subarray(0, 16));
    const forgedTag = Buffer.from(keys.primitives.mac([keys.aad, IV, bad, aadBits(Buffer.from(keys.aad))]).subarray(0, 32));
    await expect(decryptCompact(keys, ["RFC", "", b64u(IV), b64u(bad), b64u(forgedTag)])).rejects.toThrow();
  });

  it("both engines make the same token from the same key, IV and plaintext", async () => {
    const other = engine === "native" ? "webcrypto" : "native";
    const [a, b] = await Promise.all([importCbcKeys(K, "same", engine), importCbcKeys(K, "same", other)]);
    const plaintext = new TextEncoder().encode(P);
    expect(await encryptCompactWithIv(a, plaintext, new Uint8Array(IV))).toBe(await encryptCompactWithIv(b, plaintext, new Uint8Array(IV)));
  });
});

describe("interop with jose", () => {
  it("a token from jose's EncryptJWT with our header takes the fast path and decodes", async () => {
    const token = await new EncryptJWT({ ...CLAIMS })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid: KID })
      .setIssuedAt()
      .setExpirationTime("1h")
      .setJti("jose-made")
      .encrypt(KEY);
    expect(token.split(".")[0]).toBe(HEADER);
    const payload = await decode({ token, secret: SECRET, salt: SALT });
    expect(payload).toEqual({ ...CLAIMS, iat: expect.any(Number), exp: expect.any(Number), jti: "jose-made" });
  });

  it("a token from encode decrypts with jose's jwtDecrypt", async () => {
    const token = await ours();
    const { payload, protectedHeader } = await jwtDecrypt(token, KEY, { clockTolerance: 15 });
    expect(protectedHeader).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: KID });
    expect(payload).toEqual(await decode({ token, secret: SECRET, salt: SALT }));
    expect(payload).toMatchObject(CLAIMS);
  });

  describe("other headers go to the fallback and still decode", () => {
    const cases: [string, Record<string, unknown>][] = [
      ["no kid", { alg: "dir", enc: "A256CBC-HS512" }],
      ["the same properties in another order", { enc: "A256CBC-HS512", kid: "<kid>", alg: "dir" }],
      ["an extra typ", { alg: "dir", enc: "A256CBC-HS512", kid: "<kid>", typ: "JWT" }],
    ];

    it.each(cases)("%s", async (_, shape) => {
      const header = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v === "<kid>" ? KID : v]));
      const token = await new EncryptJWT({ ...CLAIMS }).setProtectedHeader(header as never).setIssuedAt().setExpirationTime("1h").encrypt(KEY);
      expect(token.split(".")[0]).not.toBe(HEADER);
      expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
      // ...and with another secret it does not.
      await expect(decode({ token, secret: OLD_SECRET, salt: SALT })).rejects.toThrow();
    });

    it("the fallback finds the right secret of a rotation array by kid", async () => {
      const token = await new EncryptJWT({ ...CLAIMS })
        .setProtectedHeader({ enc: "A256CBC-HS512", alg: "dir", kid: KID })
        .setExpirationTime("1h")
        .encrypt(KEY);
      expect(await decode({ token, secret: [OLD_SECRET, SECRET], salt: SALT })).toMatchObject(CLAIMS);
    });

    it("the fallback still rejects an expired token", async () => {
      const token = await new EncryptJWT({ ...CLAIMS })
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .setExpirationTime(nowSeconds() - 3600)
        .encrypt(KEY);
      await expect(decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow();
      await expectHandlerRejects(token);
    });
  });

  describe("A256GCM tokens (32-byte HKDF key, which Auth.js's decode accepts)", () => {
    const key32 = deriveKey(SECRET, SALT, 32);

    it("the 32-byte key is the first half of the 64-byte one (HKDF output is a prefix)", () => {
      expect(key32.equals(KEY.subarray(0, 32))).toBe(true);
    });

    it("with the key's SHA-256 thumbprint as kid: Auth.js decodes it, so must we", async () => {
      const kid = await calculateJwkThumbprint({ kty: "oct", k: joseBase64url.encode(key32) }, "sha256");
      const token = await new EncryptJWT({ ...CLAIMS }).setProtectedHeader({ alg: "dir", enc: "A256GCM", kid }).setExpirationTime("1h").encrypt(key32);
      expect(await authDecode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
      expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    });

    it("without a kid: Auth.js decodes it, so must we", async () => {
      const token = await new EncryptJWT({ ...CLAIMS }).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).setExpirationTime("1h").encrypt(key32);
      expect(await authDecode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
      expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    });

    it("made with another secret: rejected", async () => {
      const token = await new EncryptJWT({ ...CLAIMS })
        .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
        .setExpirationTime("1h")
        .encrypt(deriveKey(OLD_SECRET, SALT, 32));
      await expect(decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow();
    });
  });
});

describe("tampering on the fast path: decode throws, GET /auth/session answers null and clears the cookie", () => {
  const cases: [string, () => Promise<string>][] = [
    // Bit flips (the tag must catch every one).
    ["a flipped bit in the IV (first byte)", async () => flipBit(await ours(), "iv", 0, 0)],
    ["a flipped bit in the IV (last byte)", async () => flipBit(await ours(), "iv", -1, 7)],
    ["a flipped bit in the ciphertext (first byte)", async () => flipBit(await ours(), "ciphertext", 0, 0)],
    ["a flipped bit in the ciphertext (last byte, the padding)", async () => flipBit(await ours(), "ciphertext", -1, 7)],
    ["a flipped bit in the tag (first byte)", async () => flipBit(await ours(), "tag", 0, 0)],
    ["a flipped bit in the tag (last byte)", async () => flipBit(await ours(), "tag", -1, 7)],
    // Tag length.
    ["the tag truncated to 16 bytes", async () => { const p = split(await ours()); return join({ ...p, tag: p.tag.subarray(0, 16) }); }],
    ["a tag of 31 bytes (the correct tag minus its last byte)", async () => { const p = split(await ours()); return join({ ...p, tag: p.tag.subarray(0, 31) }); }],
    ["a tag of 33 bytes (the correct tag plus one byte)", async () => { const p = split(await ours()); return join({ ...p, tag: Buffer.concat([p.tag, Buffer.of(0)]) }); }],
    ["the whole 64-byte HMAC as tag", async () => {
      const p = split(await ours());
      const aad = Buffer.from(p.header, "ascii");
      const full = createHmac("sha512", MAC_KEY).update(Buffer.concat([aad, p.iv, p.ciphertext, aadBits(aad)])).digest();
      return join({ ...p, tag: full });
    }],
    ["an empty tag", async () => replacePart(await ours(), 4, () => "")],
    // Tags computed in a way the RFC does not say.
    ["a tag without AL", async () => {
      const p = split(await ours());
      const tag = createHmac("sha512", MAC_KEY).update(Buffer.concat([Buffer.from(p.header), p.iv, p.ciphertext])).digest().subarray(0, 32);
      return join({ ...p, tag });
    }],
    ["a tag with AL in bytes instead of bits", async () => {
      const p = split(await ours());
      const aad = Buffer.from(p.header);
      const al = Buffer.alloc(8);
      al.writeBigUInt64BE(BigInt(aad.length));
      return join({ ...p, tag: createHmac("sha512", MAC_KEY).update(Buffer.concat([aad, p.iv, p.ciphertext, al])).digest().subarray(0, 32) });
    }],
    ["the last 32 bytes of the HMAC as tag", async () => {
      const p = split(await ours());
      const aad = Buffer.from(p.header);
      return join({ ...p, tag: createHmac("sha512", MAC_KEY).update(Buffer.concat([aad, p.iv, p.ciphertext, aadBits(aad)])).digest().subarray(32) });
    }],
    ["a correct token under another secret's keys but with our header", async () =>
      nodeToken(JSON.stringify(CLAIMS), { macKey: FOREIGN_KEY.subarray(0, 32), encKey: FOREIGN_KEY.subarray(32) })],
    ["the MAC and encryption halves of the key swapped", async () => nodeToken(JSON.stringify(CLAIMS), { macKey: ENC_KEY, encKey: MAC_KEY })],
    // Lengths the tag covers: only the structural checks can reject these.
    ["an empty ciphertext (with a valid tag)", async () => tokenWithValidTag(randomBytes(16), Buffer.alloc(0))],
    ["a ciphertext of 17 bytes (with a valid tag)", async () => {
      const p = split(await ours());
      return tokenWithValidTag(p.iv, Buffer.concat([p.ciphertext, Buffer.of(1)]));
    }],
    ["a ciphertext of 15 bytes (with a valid tag)", async () => tokenWithValidTag(randomBytes(16), randomBytes(15))],
    ["an IV of 12 bytes (with a valid tag)", async () => {
      const p = split(await ours());
      return tokenWithValidTag(p.iv.subarray(0, 12), p.ciphertext);
    }],
    ["an empty IV (with a valid tag)", async () => tokenWithValidTag(Buffer.alloc(0), split(await ours()).ciphertext)],
    ["invalid PKCS#7 padding (with a valid tag)", async () => {
      const iv = randomBytes(16);
      const block = Buffer.from('{"sub":"x"}\x00\x00\x00\x00\x00', "latin1");
      return tokenWithValidTag(iv, aesCbcEncrypt(block, iv, ENC_KEY, false));
    }],
    // Not base64url.
    ["'+' in place of '-' in the ciphertext (base64, not base64url)", async () =>
      replacePart(await oursContaining("ciphertext", "-"), 3, (s) => s.replace("-", "+"))],
    ["'/' in place of '_' in the tag", async () => replacePart(await oursContaining("tag", "_"), 4, (s) => s.replace("_", "/"))],
    ["'*' in the IV", async () => replacePart(await ours(), 2, (s) => `*${s.slice(1)}`)],
    ["a non-ASCII character in the ciphertext", async () => replacePart(await ours(), 3, (s) => `é${s.slice(1)}`)],
    ["'=' padding after the tag", async () => replacePart(await ours(), 4, (s) => `${s}=`)],
    ["'==' padding after the IV", async () => replacePart(await ours(), 2, (s) => `${s}==`)],
    ["a space inside the tag", async () => replacePart(await ours(), 4, (s) => `${s.slice(0, 10)} ${s.slice(10)}`)],
    // Wrong number of parts.
    ["an extra '.' at the end", async () => `${await ours()}.`],
    ["an extra sixth part", async () => `${await ours()}.AAAA`],
    ["four parts (tag dropped)", async () => (await ours()).split(".").slice(0, 4).join(".")],
    ["three parts", async () => (await ours()).split(".").slice(0, 3).join(".")],
    ["the header alone", async () => HEADER],
    ["the IV and ciphertext separated by two dots", async () => replacePart(await ours(), 2, (s) => `${s}.`)],
    // The encrypted-key part, which the tag does not cover.
    ["a non-empty encrypted-key part", async () => replacePart(await ours(), 1, () => "AAAA")],
    ["the key itself as the encrypted-key part", async () => replacePart(await ours(), 1, () => b64u(KEY))],
    // The header (the AAD).
    ["the header with another kid", async () => withHeader(await ours(), { alg: "dir", enc: "A256CBC-HS512", kid: "another-kid" })],
    ["the header with alg none", async () => withHeader(await ours(), { alg: "none", enc: "A256CBC-HS512", kid: KID })],
    ["the header with enc A128CBC-HS256", async () => withHeader(await ours(), { alg: "dir", enc: "A128CBC-HS256", kid: KID })],
    ["the header with enc A256GCM", async () => withHeader(await ours(), { alg: "dir", enc: "A256GCM", kid: KID })],
    ["the header without kid", async () => withHeader(await ours(), { alg: "dir", enc: "A256CBC-HS512" })],
    ["the same header JSON with a space", async () => withHeader(await ours(), `{"alg": "dir","enc":"A256CBC-HS512","kid":${JSON.stringify(KID)}}`)],
    ["the same header properties in another order", async () => withHeader(await ours(), { enc: "A256CBC-HS512", alg: "dir", kid: KID })],
    ["the header with zip: DEF", async () => withHeader(await ours(), { alg: "dir", enc: "A256CBC-HS512", kid: KID, zip: "DEF" })],
    ["the header with crit", async () => withHeader(await ours(), { alg: "dir", enc: "A256CBC-HS512", kid: KID, crit: ["exp"], exp: 1 })],
    ["an empty header", async () => replacePart(await ours(), 0, () => "")],
  ];

  it.each(cases)("%s", async (_, make) => {
    await expectRejected(await make());
  });

  it("the untampered controls decode (so each case above is rejected for its own reason)", async () => {
    expect(await decode({ token: await ours(), secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    const iv = randomBytes(16);
    expect(await decode({ token: tokenWithValidTag(iv, aesCbcEncrypt(Buffer.from('{"sub":"x"}'), iv)), secret: SECRET, salt: SALT })).toEqual({ sub: "x" });
  });
});

describe("correctly encrypted, but the claims are not acceptable (jose's jwtDecrypt agrees)", () => {
  const future = () => nowSeconds() + 3600;
  const cases: [string, () => string | Buffer][] = [
    ["not JSON", () => "not json"],
    ["empty plaintext", () => ""],
    ["a JSON array", () => JSON.stringify([{ sub: "x" }])],
    ["a JSON number", () => "42"],
    ["a JSON string", () => JSON.stringify("sub")],
    ["JSON null", () => "null"],
    ["JSON true", () => "true"],
    ["exp as a string", () => JSON.stringify({ sub: "x", exp: String(future()) })],
    ["exp as null", () => JSON.stringify({ sub: "x", exp: null })],
    ["iat as a string", () => JSON.stringify({ sub: "x", iat: String(nowSeconds()), exp: future() })],
    ["nbf as a string", () => JSON.stringify({ sub: "x", nbf: "0", exp: future() })],
    ["nbf an hour in the future", () => JSON.stringify({ sub: "x", nbf: future(), exp: future() + 3600 })],
    ["exp an hour in the past", () => JSON.stringify({ sub: "x", exp: nowSeconds() - 3600 })],
    ["invalid UTF-8 in a claim", () => Buffer.concat([Buffer.from('{"sub":"'), Buffer.of(0xff, 0xfe), Buffer.from('"}')])],
  ];

  it.each(cases)("%s", async (_, plaintext) => {
    const token = nodeToken(plaintext());
    expect(token.split(".")[0]).toBe(HEADER);
    await expect(jwtDecrypt(token, KEY, { clockTolerance: 15 })).rejects.toThrow();
    await expectRejected(token);
  });
});

describe("time claims", () => {
  it("an expired exp (fake clock): decode throws, the handler answers null and clears the cookie", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const token = await encode({ token: CLAIMS, secret: SECRET, salt: SALT, maxAge: 60 });
    expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
    vi.setSystemTime(T0 + 3600_000);
    await expectRejected(token);
  });

  it("nbf in the future: decode throws; once the clock reaches it the token decodes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const token = await encode({ token: { ...CLAIMS, nbf: T0 / 1000 + 600 }, secret: SECRET, salt: SALT });
    await expectRejected(token);
    vi.setSystemTime(T0 + 600_000);
    expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
  });

  it("exp and nbf are judged exactly as jose does (15 s clock tolerance), second by second around the limits", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const exp = T0 / 1000 + 60;
    const nbf = T0 / 1000 + 100;
    const expiring = await encode({ token: CLAIMS, secret: SECRET, salt: SALT, maxAge: 60 });
    const notYet = nodeToken(JSON.stringify({ sub: "x", nbf, exp: nbf + 3600 }));
    const outcome = (p: Promise<unknown>) => p.then(() => "ok", () => "rejected");
    const rows: [string, number, string, string][] = [];
    for (const [token, around] of [[expiring, exp], [notYet, nbf]] as const) {
      for (let t = around - 20; t <= around + 20; t++) {
        vi.setSystemTime(t * 1000);
        rows.push([
          token === expiring ? "exp" : "nbf",
          t - around,
          await outcome(decode({ token, secret: SECRET, salt: SALT })),
          await outcome(jwtDecrypt(token, KEY, { clockTolerance: 15 })),
        ]);
      }
    }
    for (const [, , mine, joses] of rows) expect(mine).toBe(joses);
    // And the limits are where they should be.
    expect(rows.find(([claim, offset]) => claim === "exp" && offset === 14)![2]).toBe("ok");
    expect(rows.find(([claim, offset]) => claim === "exp" && offset === 15)![2]).toBe("rejected");
    expect(rows.find(([claim, offset]) => claim === "nbf" && offset === -15)![2]).toBe("ok");
    expect(rows.find(([claim, offset]) => claim === "nbf" && offset === -16)![2]).toBe("rejected");
  });
});
