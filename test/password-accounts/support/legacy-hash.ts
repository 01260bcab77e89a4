/** A hash as apps made by auth-init stored them before the runtime hashed passwords: node:crypto, N written out, padded base64. */
import { randomBytes, scrypt } from "node:crypto";

export function legacyHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(`$scrypt$N=32768,r=8,p=3$${salt.toString("base64")}$${key.toString("base64")}`),
    ),
  );
}
