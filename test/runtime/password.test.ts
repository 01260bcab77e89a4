/**
 * `@gatehouse/runtime/password`: scrypt itself on RFC 7914's test vectors, on
 * both engines (node:crypto's and @noble/hashes'); the PHC strings it stores;
 * NFKC; the older form apps stored (read, and flagged for a re-hash); weaker
 * parameters flagged; and stored strings that are damaged, out of bounds or not
 * strings at all, which answer `false` at once instead of throwing or working.
 */
import { randomBytes, scryptSync } from "node:crypto";
import { legacyHash } from "../password-accounts/support/legacy-hash.js";
import { describe, expect, it } from "vitest";
import { hashPassword, PASSWORD_HASH_PARAMS, passwordMatches, passwordNeedsRehash } from "@gatehouse/runtime/password";
import { formatHash, parseHash, type ScryptParams } from "../../runtime/src/core/password/phc.js";
import { defaultEngine, deriveKey, type ScryptEngine } from "../../runtime/src/core/password/scrypt.js";

const PASSWORD = "correct horse battery staple";
const PHC = /^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;
const bytes = (text: string) => new TextEncoder().encode(text);
const hex = (data: Uint8Array) => Buffer.from(data).toString("hex");

/** RFC 7914 section 12, vectors 1-3 (the 4th, N = 2^20, costs 1 GiB and seconds). */
const RFC_7914 = [
  {
    password: "",
    salt: "",
    params: { ln: 4, r: 1, p: 1 },
    key: "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906",
  },
  {
    password: "password",
    salt: "NaCl",
    params: { ln: 10, r: 8, p: 16 },
    key: "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
  },
  {
    password: "pleaseletmein",
    salt: "SodiumChloride",
    params: { ln: 14, r: 8, p: 1 },
    key: "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887",
  },
] as const;


/** A PHC hash of `password` with other parameters or sizes than today's. */
async function phcHash(password: string, params: ScryptParams, saltBytes = 16, keyBytes = 32): Promise<string> {
  const salt = new Uint8Array(randomBytes(saltBytes));
  return formatHash(params, salt, await deriveKey(bytes(password), salt, params, keyBytes));
}

describe("scrypt (RFC 7914 test vectors)", () => {
  it("node:crypto is the engine under Node", () => {
    expect(defaultEngine).toBe("node");
  });

  describe.each(["node", "noble"] satisfies ScryptEngine[])("%s engine", (engine) => {
    it.each(RFC_7914.map((v) => [`P="${v.password}", S="${v.salt}", N=2^${v.params.ln}, r=${v.params.r}, p=${v.params.p}`, v] as const))("%s", async (_name, vector) => {
      const key = await deriveKey(bytes(vector.password), bytes(vector.salt), vector.params, 64, engine);
      expect(key).toBeInstanceOf(Uint8Array);
      expect(hex(key)).toBe(vector.key);
    });
  });

  it("both engines give the same key at the stored parameters", async () => {
    const salt = new Uint8Array(randomBytes(16));
    const [node, noble] = await Promise.all((["node", "noble"] as const).map((engine) => deriveKey(bytes(PASSWORD), salt, PASSWORD_HASH_PARAMS, 32, engine)));
    expect(hex(noble!)).toBe(hex(node!));
  });
});

describe("hashPassword / passwordMatches", () => {
  it("a PHC string of scrypt N=2^15, r=8, p=3, a 16-byte salt and a 32-byte key: node:crypto's scrypt of the same input gives the same key", async () => {
    expect(PASSWORD_HASH_PARAMS).toEqual({ ln: 15, r: 8, p: 3 });
    expect(Object.isFrozen(PASSWORD_HASH_PARAMS)).toBe(true);
    const stored = await hashPassword(PASSWORD);
    expect(stored).toMatch(PHC);
    const parsed = parseHash(stored)!;
    expect(parsed).toMatchObject({ ln: 15, r: 8, p: 3, legacy: false });
    expect(parsed.salt).toHaveLength(16);
    const key = scryptSync(PASSWORD, parsed.salt, 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 });
    expect(hex(parsed.key)).toBe(key.toString("hex"));
  });

  it("round trip: the password matches its hash, which needs no re-hash; a wrong password does not match", async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await passwordMatches(PASSWORD, stored)).toBe(true);
    expect(passwordNeedsRehash(stored)).toBe(false);
    expect(await passwordMatches("correct horse battery stapl", stored)).toBe(false);
    expect(await passwordMatches(`${PASSWORD} `, stored)).toBe(false);
    expect(await passwordMatches("Correct horse battery staple", stored)).toBe(false);
    expect(await passwordMatches("", stored)).toBe(false);
  });

  it("two hashes of one password differ (a fresh salt each), and both match", async () => {
    const [one, two] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    expect(one).not.toBe(two);
    expect(parseHash(one!)!.salt).not.toEqual(parseHash(two!)!.salt);
    expect(await passwordMatches(PASSWORD, one!)).toBe(true);
    expect(await passwordMatches(PASSWORD, two!)).toBe(true);
  });

  it("NFKC: full-width digits match ASCII ones, a composed accent matches the decomposed one, either way round", async () => {
    const ascii = await hashPassword("pass1234word");
    expect(await passwordMatches("pass\uFF11\uFF12\uFF13\uFF14word", ascii)).toBe(true);
    const fullWidth = await hashPassword("pass\uFF11\uFF12\uFF13\uFF14word");
    expect(await passwordMatches("pass1234word", fullWidth)).toBe(true);
    const composed = await hashPassword("caf\u00e9 au lait");
    expect(await passwordMatches("cafe\u0301 au lait", composed)).toBe(true);
    expect(await passwordMatches("cafe au lait", composed)).toBe(false);
  });

  it("a password that is not a string: hashPassword throws a TypeError, passwordMatches answers false", async () => {
    const stored = await hashPassword(PASSWORD);
    await expect(hashPassword(undefined as unknown as string)).rejects.toThrow(TypeError);
    for (const password of [undefined, null, 42, { toString: () => PASSWORD }, [PASSWORD]]) {
      expect(await passwordMatches(password as unknown as string, stored)).toBe(false);
    }
  });
});

describe("older and weaker hashes", () => {
  it("the older form ($scrypt$N=32768,...$<padded base64>, node:crypto) is read: its password matches, a wrong one does not, and it is flagged for a re-hash", async () => {
    const stored = await legacyHash(PASSWORD);
    expect(stored).toMatch(/^\$scrypt\$N=32768,r=8,p=3\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(parseHash(stored)).toMatchObject({ ln: 15, r: 8, p: 3, legacy: true });
    expect(await passwordMatches(PASSWORD, stored)).toBe(true);
    expect(await passwordMatches("not the password", stored)).toBe(false);
    expect(passwordNeedsRehash(stored)).toBe(true);
  });

  it("the older form made from a full-width password matches its ASCII form (both sides NFKC)", async () => {
    expect(await passwordMatches("pass1234word", await legacyHash("pass\uFF11\uFF12\uFF13\uFF14word"))).toBe(true);
  });

  it.each([
    ["a lower N (2^14)", { ln: 14, r: 8, p: 3 }, 16, 32],
    ["a smaller r (4)", { ln: 15, r: 4, p: 3 }, 16, 32],
    ["a smaller p (1)", { ln: 15, r: 8, p: 1 }, 16, 32],
    ["a shorter salt (8 bytes)", { ln: 15, r: 8, p: 3 }, 8, 32],
    ["a shorter key (16 bytes)", { ln: 15, r: 8, p: 3 }, 16, 16],
  ] as const)("%s: still matches, and is flagged for a re-hash", async (_name, params, saltBytes, keyBytes) => {
    const stored = await phcHash(PASSWORD, params, saltBytes, keyBytes);
    expect(await passwordMatches(PASSWORD, stored)).toBe(true);
    expect(await passwordMatches("not the password", stored)).toBe(false);
    expect(passwordNeedsRehash(stored)).toBe(true);
  });

  it("stronger parameters than today's (N=2^16, a 32-byte salt) match and are not flagged", async () => {
    const stored = await phcHash(PASSWORD, { ln: 16, r: 8, p: 3 }, 32, 32);
    expect(await passwordMatches(PASSWORD, stored)).toBe(true);
    expect(passwordNeedsRehash(stored)).toBe(false);
  });
});

describe("stored strings that are not a readable hash", () => {
  const salt = Buffer.from("saltsaltsaltsalt").toString("base64").replace(/=+$/, "");
  const key = Buffer.alloc(32, 7).toString("base64").replace(/=+$/, "");
  const cases: [string, unknown][] = [
    ["empty", ""],
    ["not a hash", "not a hash"],
    ["another algorithm", `$argon2id$v=19$m=65536,t=3,p=4$${salt}$${key}`],
    ["ln=21 (N above 2^20)", `$scrypt$ln=21,r=8,p=3$${salt}$${key}`],
    ["ln=0", `$scrypt$ln=0,r=8,p=3$${salt}$${key}`],
    ["r=64", `$scrypt$ln=15,r=64,p=3$${salt}$${key}`],
    ["r=0", `$scrypt$ln=15,r=0,p=3$${salt}$${key}`],
    ["p=17", `$scrypt$ln=15,r=8,p=17$${salt}$${key}`],
    ["more than 1 GiB (N=2^20, r=16)", `$scrypt$ln=20,r=16,p=1$${salt}$${key}`],
    ["a parameter of 3 digits", `$scrypt$ln=100,r=8,p=3$${salt}$${key}`],
    ["bad base64 (a character outside the alphabet)", `$scrypt$ln=15,r=8,p=3$${salt}$${key.slice(0, -1)}!`],
    ["bad base64 (a length no encoding has)", `$scrypt$ln=15,r=8,p=3$${salt}$${key}AA`],
    ["padded base64 in the PHC form", `$scrypt$ln=15,r=8,p=3$${salt}==$${key}=`],
    ["a short salt (4 bytes)", `$scrypt$ln=15,r=8,p=3$${Buffer.from("salt").toString("base64").replace(/=+$/, "")}$${key}`],
    ["a short key (8 bytes)", `$scrypt$ln=15,r=8,p=3$${salt}$${Buffer.alloc(8, 7).toString("base64").replace(/=+$/, "")}`],
    ["no key", `$scrypt$ln=15,r=8,p=3$${salt}$`],
    ["no salt", `$scrypt$ln=15,r=8,p=3$$${key}`],
    ["trailing text", `$scrypt$ln=15,r=8,p=3$${salt}$${key}$extra`],
    ["leading text", ` $scrypt$ln=15,r=8,p=3$${salt}$${key}`],
    ["a huge salt", `$scrypt$ln=15,r=8,p=3$${"A".repeat(4000)}$${key}`],
    ["older form, N not a power of two", `$scrypt$N=1000,r=8,p=3$${salt}==$${key}=`],
    ["older form, N=2^21", `$scrypt$N=2097152,r=8,p=3$${salt}==$${key}=`],
    ["older form, r=64", `$scrypt$N=32768,r=64,p=3$${salt}==$${key}=`],
    ["older form, three padding characters", `$scrypt$N=32768,r=8,p=3$${salt}===$${key}=`],
    ["undefined", undefined],
    ["null", null],
    ["a number", 42],
    ["an object", { toString: () => `$scrypt$ln=15,r=8,p=3$${salt}$${key}` }],
    ["bytes", new Uint8Array(48)],
  ];

  it.each(cases)("%s: passwordMatches answers false, at once; passwordNeedsRehash answers true; neither throws", async (_name, stored) => {
    const started = performance.now();
    await expect(passwordMatches(PASSWORD, stored as string)).resolves.toBe(false);
    // No scrypt ran (one at today's parameters takes tens of milliseconds or more).
    expect(performance.now() - started).toBeLessThan(50);
    expect(passwordNeedsRehash(stored as string)).toBe(true);
  });

  it("the same shapes within bounds are read (so the cases above fail for the reason they name)", () => {
    expect(parseHash(`$scrypt$ln=15,r=8,p=3$${salt}$${key}`)).toMatchObject({ ln: 15, r: 8, p: 3, legacy: false });
    expect(parseHash(`$scrypt$ln=20,r=8,p=16$${salt}$${key}`)).toMatchObject({ ln: 20, r: 8, p: 16 });
    expect(parseHash(`$scrypt$N=32768,r=8,p=3$${salt}==$${key}=`)).toMatchObject({ ln: 15, legacy: true });
  });
});
