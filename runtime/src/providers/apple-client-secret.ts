/**
 * Apple's client secret is not a fixed string: it is an ES256 JWT signed with
 * a private key from the Apple developer account, valid for at most six months.
 */
import { importPKCS8, SignJWT } from "jose";

/** The longest validity this helper signs: 180 days (Apple's own limit is 15777000 s, about 182 days). */
export const APPLE_CLIENT_SECRET_MAX_AGE = 180 * 24 * 60 * 60;

export interface AppleClientSecretOptions {
  /** The Team ID of the Apple developer account (10 characters, top right of the account page). */
  teamId: string;
  /** The Key ID of the Sign in with Apple key. */
  keyId: string;
  /**
   * The key's `.p8` file contents (PKCS #8 PEM), or an imported ES256 `CryptoKey`.
   * Literal `\n` sequences (a PEM squeezed into one env line) are turned back into line breaks.
   */
  privateKey: string | CryptoKey;
  /** The Services ID the app signs in with (`AUTH_APPLE_ID`). */
  clientId: string;
  /** Seconds the secret stays valid: default and maximum 180 days. */
  expiresIn?: number;
}

function required(value: unknown, name: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`createAppleClientSecret: \`${name}\` is required.`);
  return value.trim();
}

/**
 * Signs the client secret Apple expects at its token endpoint. Run it when you
 * deploy (or in a script) and put the result in `AUTH_APPLE_SECRET`; it expires
 * after `expiresIn` seconds, so make a new one before then.
 *
 * @example
 * ```ts
 * import { createAppleClientSecret } from "@gatehouse/runtime/providers";
 *
 * const secret = await createAppleClientSecret({
 *   teamId: "A1B2C3D4E5",
 *   keyId: "KEY1234567",
 *   privateKey: process.env.APPLE_PRIVATE_KEY!, // the contents of AuthKey_KEY1234567.p8
 *   clientId: "com.example.web",
 * });
 * console.log(`AUTH_APPLE_SECRET=${secret}`);
 * ```
 */
export async function createAppleClientSecret(options: AppleClientSecretOptions): Promise<string> {
  const teamId = required(options?.teamId, "teamId");
  const keyId = required(options?.keyId, "keyId");
  const clientId = required(options?.clientId, "clientId");
  const expiresIn = options.expiresIn ?? APPLE_CLIENT_SECRET_MAX_AGE;
  if (!Number.isInteger(expiresIn) || expiresIn <= 0 || expiresIn > APPLE_CLIENT_SECRET_MAX_AGE) {
    throw new RangeError(`createAppleClientSecret: \`expiresIn\` is ${expiresIn}; use whole seconds from 1 to ${APPLE_CLIENT_SECRET_MAX_AGE} (180 days).`);
  }
  const key =
    typeof options.privateKey === "string"
      ? await importPKCS8(required(options.privateKey, "privateKey").replace(/\\n/g, "\n"), "ES256")
      : options.privateKey;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: keyId })
    .setIssuer(teamId)
    .setSubject(clientId)
    .setAudience("https://appleid.apple.com")
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .sign(key);
}
