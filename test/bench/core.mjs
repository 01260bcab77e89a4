/** Handler hot paths without a database: JWT sessions, CSRF, credentials sign-in, session update. */
import { Auth as GatehouseAuth } from "@gatehouse/runtime";
import { Credentials as GatehouseCredentials } from "@gatehouse/runtime/providers";
import { Auth as AuthJs } from "@auth/core";
import AuthJsCredentials from "@auth/core/providers/credentials";
import { checkFirstRead, encoders, firstReadScenarios, floorImpl } from "./floor.mjs";
import { cookiePairs } from "./measure.mjs";

export const ORIGIN = "http://localhost:3000";
export const SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
export const quiet = { error(e) { if (process.env.BENCH_DEBUG) console.error(e); }, warn() {}, debug() {} };
const USER = { id: "user-1", name: "Ada Lovelace", email: "ada@example.com", image: null };
const authorize = (c) => (c.username === "ada" && c.password === "pw" ? { ...USER } : null);

export function makeImpl(name, Auth, Credentials) {
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: quiet,
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })],
  };
  return { name, call: (request) => Auth(request, config) };
}

/**
 * Signs in once per implementation to get real CSRF and session cookies;
 * `encode` is the implementation's own JWT encode, for first-read cookies.
 */
export async function prepare(impl, encode = encoders[impl.name]) {
  const csrfResponse = await impl.call(new Request(`${ORIGIN}/auth/csrf`));
  const { csrfToken } = await csrfResponse.json();
  const csrfCookie = cookiePairs(csrfResponse).find((c) => c.includes("csrf-token"));
  const form = new URLSearchParams({ username: "ada", password: "pw", csrfToken }).toString();
  const signIn = await impl.call(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: form,
    }),
  );
  const sessionCookie = cookiePairs(signIn).find((c) => c.includes("session-token"));
  if (signIn.status !== 302 || !sessionCookie) throw new Error(`${impl.name}: sign-in failed (${signIn.status})`);
  impl.state = { csrfToken, csrfCookie, sessionCookie, form, encode };
  await checkFirstRead(impl, encode);
  return impl;
}

export async function coreImpls() {
  return [
    await prepare(makeImpl("gatehouse", GatehouseAuth, GatehouseCredentials)),
    await prepare(makeImpl("@auth/core", AuthJs, AuthJsCredentials)),
  ];
}

/** Ours and the floor of a JWT session read (`floor.mjs`), on our signed-in user's cookie. */
export async function floorImpls() {
  const ours = await prepare(makeImpl("gatehouse", GatehouseAuth, GatehouseCredentials));
  const floor = floorImpl();
  floor.state = ours.state;
  return [ours, floor];
}

export const coreScenarios = {
  "session GET (valid JWT)": {
    status: 200,
    reusable: true,
    request: (s) => new Request(`${ORIGIN}/auth/session`, { headers: { cookie: s.sessionCookie } }),
  },
  ...firstReadScenarios,
  "CSRF GET (new visitor)": { status: 200, reusable: true, request: () => new Request(`${ORIGIN}/auth/csrf`) },
  "CSRF GET (with its cookie)": {
    status: 200,
    reusable: true,
    request: (s) => new Request(`${ORIGIN}/auth/csrf`, { headers: { cookie: s.csrfCookie } }),
  },
  "credentials sign-in": {
    status: 302,
    request: (s) =>
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: s.csrfCookie },
        body: s.form,
      }),
  },
  "session POST (update)": {
    status: 200,
    request: (s) =>
      new Request(`${ORIGIN}/auth/session`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: `${s.sessionCookie}; ${s.csrfCookie}` },
        body: JSON.stringify({ csrfToken: s.csrfToken, data: { name: "Ada" } }),
      }),
  },
};
