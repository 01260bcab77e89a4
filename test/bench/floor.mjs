/**
 * The floor of a JWT session read, as the issue defines it: one bare `jose` JWE
 * decrypt and one encrypt (`dir`, `A256CBC-HS512`, the key derived once, as any
 * handler should), nothing else: no cookie parsing, no callbacks, no `Response`.
 * It is measured as a third "implementation" next to ours, on the same requests,
 * so the ratio says how far our whole session GET is from that cost.
 *
 * Also: session cookies that each request sends for the first time (a new
 * visitor, another server instance), for ours and Auth.js, so our decoded-token
 * cache cannot answer: each sample's cookies are minted before it, untimed, with
 * each implementation's own `encode`.
 */
import { hkdfSync, randomUUID } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";
import { encode as gatehouseEncode } from "@gatehouse/runtime/jwt";
import { encode as authJsEncode } from "@auth/core/jwt";
import { ORIGIN, SECRET } from "./core.mjs";

const COOKIE = "authjs.session-token";
const ENC = "A256CBC-HS512";

/** Auth.js's (and our) key: HKDF-SHA256 of the secret, the cookie name as salt; 64 bytes for A256CBC-HS512. */
function derivedKey() {
  const info = `Auth.js Generated Encryption Key (${COOKIE})`;
  return new Uint8Array(hkdfSync("sha256", SECRET, COOKIE, info, 64));
}

/** What a session read must at least do: decrypt the cookie, and encrypt a token to send back. */
export function floorImpl() {
  const key = derivedKey();
  const options = { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: [ENC], clockTolerance: 15 };
  return {
    name: "floor (jose decrypt + encrypt)",
    call: async (request) => {
      const token = request.headers.get("cookie").split(`${COOKIE}=`)[1].split(";")[0];
      const { payload } = await jwtDecrypt(token, key, options);
      await new EncryptJWT({ ...payload, jti: randomUUID() }).setProtectedHeader({ alg: "dir", enc: ENC }).encrypt(key);
      return { status: 200 };
    },
  };
}

const claims = (i) => ({ name: "Ada Lovelace", email: `ada+${i}@example.com`, picture: null, sub: `user-${i}` });
let minted = 0;

/** `count` session GETs, each with a cookie never sent before, minted by `encode` (untimed). */
function firstReads(encode) {
  return async (_state, count) => {
    const tokens = await Promise.all(
      Array.from({ length: count }, () => encode({ token: claims(minted++), secret: SECRET, salt: COOKIE, maxAge: 30 * 24 * 60 * 60 })),
    );
    return tokens.map((token) => new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${COOKIE}=${token}` } }));
  };
}

/**
 * Before timing (the body is not read in the timed part: a rejected cookie is a
 * 200 too, with `null`): a first read must answer the cookie's own session.
 */
export async function checkFirstRead(impl, encode) {
  const [request] = await firstReads(encode)(impl.state, 1);
  const body = await (await impl.call(request)).json();
  if (!body?.user?.email?.startsWith("ada+")) throw new Error(`${impl.name}: a first read answered ${JSON.stringify(body)}`);
}

export const encoders = { gatehouse: gatehouseEncode, "@auth/core": authJsEncode };

/** Ours against Auth.js: both decrypt every cookie (our cache has never seen it). */
export const firstReadScenarios = {
  "session GET (JWT, each cookie sent for the first time)": {
    status: 200,
    prepare: (state, count) => firstReads(state.encode)(state, count),
  },
};

/** Ours against the floor: the same cookie every time (what a signed-in user sends), then first reads. */
export const floorScenarios = {
  "session GET (valid JWT) vs the floor": {
    status: 200,
    reusable: true,
    request: (s) => new Request(`${ORIGIN}/auth/session`, { headers: { cookie: s.sessionCookie } }),
  },
  "session GET (JWT, first read of each cookie) vs the floor": {
    status: 200,
    prepare: firstReads(gatehouseEncode),
  },
};
