/**
 * A software WebAuthn authenticator on node:crypto: P-256 ECDSA (ES256) keys,
 * attestation format "none", a signature counter. It builds exactly what a
 * browser sends (RegistrationResponseJSON / AuthenticationResponseJSON), and
 * every field a test may want to get wrong can be overridden.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { encodeCbor } from "./cbor.js";

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export interface SoftCredential {
  /** base64url, as the browser reports it. */
  id: string;
  rawId: Buffer;
  privateKey: KeyObject;
  /** The COSE public key, as stored by the server (before base64). */
  cosePublicKey: Uint8Array;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  challenge?: string;
  type?: string;
  /** Authenticator flags instead of UP|UV (registration adds AT). */
  flags?: number;
  /** The signature counter to report (authentication), instead of the next one. */
  counter?: number;
}

export interface RegistrationOverrides extends CeremonyOverrides {
  /** The id the browser reports, instead of the credential's own. */
  reportedId?: string;
  transports?: string[];
  /** A multi-device (synced, backed up) passkey. */
  backedUp?: boolean;
  /** The counter the new credential starts at. */
  initialCounter?: number;
}

export interface AuthenticationOverrides extends CeremonyOverrides {
  /** The credential to sign with, instead of the one the options allow (or the newest). */
  credential?: SoftCredential;
  /** Flip a byte of the signature. */
  tamperSignature?: boolean;
  /** Sign with this key instead of the credential's. */
  signWith?: KeyObject;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

function uint32(value: number): Buffer {
  const buf = Buffer.alloc(4);
  buf.writeUInt32BE(value >>> 0);
  return buf;
}

function clientData(type: string, challenge: string, origin: string): string {
  return b64url(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
}

export class SoftwareAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(readonly origin: string) {}

  /** What `navigator.credentials.create()` answers to the server's options. */
  register(options: any, overrides: RegistrationOverrides = {}) {
    const rpId: string = overrides.rpId ?? options.rp.id;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cosePublicKey = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
    const rawId = randomBytes(32);
    const credential: SoftCredential = {
      id: b64url(rawId),
      rawId,
      privateKey,
      cosePublicKey,
      rpId,
      userHandle: options.user.id,
      counter: overrides.initialCounter ?? 0,
    };
    const backup = overrides.backedUp ? FLAG_BE | FLAG_BS : 0;
    const flags = (overrides.flags ?? FLAG_UP | FLAG_UV | backup) | FLAG_AT;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      uint32(credential.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      rawId,
      Buffer.from(cosePublicKey),
    ]);
    const attestationObject = encodeCbor(
      new Map<string, any>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    const id = overrides.reportedId ?? credential.id;
    return {
      credential,
      response: {
        id,
        rawId: id,
        type: "public-key",
        authenticatorAttachment: "platform",
        clientExtensionResults: { credProps: { rk: true } },
        response: {
          clientDataJSON: clientData(overrides.type ?? "webauthn.create", overrides.challenge ?? options.challenge, overrides.origin ?? this.origin),
          attestationObject: b64url(attestationObject),
          transports: overrides.transports ?? ["hybrid", "internal"],
        },
      },
    };
  }

  /** What `navigator.credentials.get()` answers: signs with an allowed credential, or the newest one. */
  authenticate(options: any, overrides: AuthenticationOverrides = {}) {
    const allowed: string[] = (options.allowCredentials ?? []).map((c: { id: string }) => c.id);
    const credential =
      overrides.credential ??
      [...this.credentials].reverse().find((c) => allowed.length === 0 || allowed.includes(c.id));
    if (!credential) throw new Error("no credential of this authenticator is allowed");
    const counter = overrides.counter ?? credential.counter + 1;
    credential.counter = Math.max(credential.counter, counter);
    const authData = Buffer.concat([
      sha256(overrides.rpId ?? credential.rpId),
      Buffer.from([overrides.flags ?? FLAG_UP | FLAG_UV]),
      uint32(counter),
    ]);
    const clientDataJSON = clientData(overrides.type ?? "webauthn.get", overrides.challenge ?? options.challenge, overrides.origin ?? this.origin);
    const signed = Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, "base64url"))]);
    // Node signs ECDSA as DER, which is what WebAuthn's ES256 signatures are.
    const signature = sign("sha256", signed, overrides.signWith ?? credential.privateKey);
    if (overrides.tamperSignature) signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0x01, signature.length - 1);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}
