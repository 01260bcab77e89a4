import { it } from "vitest";
import { hkdfSync } from "node:crypto";
import { EncryptJWT, calculateJwkThumbprint, base64url } from "jose";
import { decode as authDecode } from "@auth/core/jwt";
import { decode, encode } from "@gatehouse/runtime/jwt";
import { SECRET } from "../helpers.js";
const SALT = "authjs.session-token";
async function tryit(label: string, f: () => Promise<unknown>) {
  try { console.log(label, "OK", JSON.stringify(await f())); } catch (e) { console.log(label, "THROW", (e as Error).name, (e as any).code, (e as Error).message); }
}
it("explore", async () => {
  const info = `Auth.js Generated Encryption Key (${SALT})`;
  const k32 = new Uint8Array(hkdfSync("sha256", SECRET, SALT, info, 32));
  const k64 = new Uint8Array(hkdfSync("sha256", SECRET, SALT, info, 64));
  const kid32 = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(k32) }, "sha256");
  for (const kid of [undefined, kid32]) {
    const t = await new EncryptJWT({ a: 1 }).setProtectedHeader(kid ? { alg: "dir", enc: "A256GCM", kid } : { alg: "dir", enc: "A256GCM" }).setIssuedAt().setExpirationTime("1h").encrypt(k32);
    await tryit(`gcm kid=${!!kid} ours`, () => decode({ token: t, secret: SECRET, salt: SALT }));
    await tryit(`gcm kid=${!!kid} authjs`, () => authDecode({ token: t, secret: SECRET, salt: SALT }));
  }
  const tok = await encode({ token: { a: 1 }, secret: SECRET, salt: SALT });
  const p = tok.split(".");
  const variants: Record<string, string> = {
    tagEq: [p[0], p[1], p[2], p[3], p[4] + "="].join("."),
    ivEqEq: [p[0], p[1], p[2] + "==", p[3], p[4]].join("."),
    tagSpace: [p[0], p[1], p[2], p[3], p[4]!.slice(0, 5) + " " + p[4]!.slice(5)].join("."),
    tagPlus: [p[0], p[1], p[2], p[3], p[4]!.slice(0, 5) + "+" + p[4]!.slice(6)].join("."),
    tagLastLowBits: [p[0], p[1], p[2], p[3], p[4]!.slice(0, -1) + String.fromCharCode(p[4]!.charCodeAt(p[4]!.length - 1) ^ 1)].join("."),
    tagStar: [p[0], p[1], p[2], p[3], p[4]!.slice(0, 5) + "*" + p[4]!.slice(6)].join("."),
  };
  console.log(p[4], p[4]!.length, p[2]!.length);
  for (const [k, v] of Object.entries(variants)) {
    await tryit(k + " ours", () => decode({ token: v, secret: SECRET, salt: SALT }));
    await tryit(k + " authjs", () => authDecode({ token: v, secret: SECRET, salt: SALT }));
  }
});
