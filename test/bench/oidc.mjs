/**
 * The OIDC callback: `GET callback/oidc?code=...&state=...&iss=...` with the
 * state, PKCE and nonce cookies, through to the session cookie and the redirect,
 * against a real `oidc-provider` on 127.0.0.1 (`oidc-provider.mjs`, its own
 * process). What is timed is the callback alone: reading the check cookies, the
 * code exchange at the token endpoint, the ID token's validation, the JWT
 * session cookie. Codes and check cookies are single-use, so every request of a
 * sample is prepared before the sample (untimed): a `POST signin/oidc` through
 * the same implementation (its check cookies and authorization URL), then a code
 * for that URL's PKCE challenge and nonce from the provider.
 */
import { fork } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Auth as AuthJs } from "@auth/core";
import { Auth as GatehouseAuth } from "@gatehouse/runtime";
import { ORIGIN, SECRET, quiet } from "./core.mjs";
import { cookiePairs } from "./measure.mjs";

const CLIENT = {
  client_id: "gatehouse-bench",
  client_secret: "gatehouse-bench-secret",
  token_endpoint_auth_method: "client_secret_basic",
  redirect_uris: [`${ORIGIN}/auth/callback/oidc`],
  grant_types: ["authorization_code"],
  response_types: ["code"],
};
/** Where the callback sends the user: a 302 anywhere else (the error page) fails the run. */
const LANDING = `${ORIGIN}/dashboard`;
/** Auth.js checks PKCE only by default, we check all three on OIDC: both are given all three. */
const CHECKS = ["pkce", "state", "nonce"];

/** Forks the provider and resolves once it listens; `mint(requests)` asks it for codes. */
async function startProvider() {
  const script = fileURLToPath(new URL("./oidc-provider.mjs", import.meta.url));
  const child = fork(script, [JSON.stringify([CLIENT])], { stdio: ["ignore", "ignore", "pipe", "ipc"] });
  // Its start-up notices (Node 20 is not its LTS of choice, the in-memory storage) are expected: the rest is shown.
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text) => {
    const shown = text.split("\n").filter((line) => line && !line.startsWith("oidc-provider WARNING"));
    if (shown.length) process.stderr.write(`${shown.join("\n")}\n`);
  });
  const pending = new Map();
  let nextId = 0;
  const ready = new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      const error = new Error(`the OpenID Provider exited (${code})`);
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
    });
    child.on("message", (message) => {
      if (message.ready) return resolve(message.issuer);
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.errors?.length) console.error(`(provider errors: ${message.errors.join("\n")})`);
      if (message.error) waiter.reject(new Error(message.error));
      else waiter.resolve(message.codes);
    });
  });
  const issuer = await ready;
  return {
    issuer,
    mint: (requests) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.send({ id, mint: requests });
      }),
    close: () => {
      child.removeAllListeners("exit");
      child.disconnect();
    },
  };
}

/** The same provider entry for both: Auth.js's generic OIDC provider shape, which ours takes as is. */
function oidcProvider(issuer) {
  return {
    id: "oidc",
    name: "Bench IdP",
    type: "oidc",
    issuer,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    checks: CHECKS,
  };
}

function makeImpl(name, Auth, issuer) {
  const config = { secret: SECRET, trustHost: true, basePath: "/auth", logger: quiet, providers: [oidcProvider(issuer)] };
  return { name, call: (request) => Auth(request, config) };
}

/** One `POST signin/oidc`: the check cookies it sets and the parameters it sends to the provider. */
async function startSignIn(state) {
  const { csrfCookie, form } = state;
  const response = await state.call(
    new Request(`${ORIGIN}/auth/signin/oidc`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: form,
    }),
  );
  const location = response.headers.get("location");
  if (response.status !== 302 || !location?.startsWith(state.provider.issuer)) {
    throw new Error(`${state.name}: sign-in did not redirect to the provider (${response.status} ${location})`);
  }
  const params = new URL(location).searchParams;
  // Both must really use the three checks: a missing parameter means a check is off.
  for (const name of ["state", "nonce", "code_challenge"]) {
    if (!params.get(name)) throw new Error(`${state.name}: the authorization request has no ${name}`);
  }
  return {
    cookie: [csrfCookie, ...cookiePairs(response)].join("; "),
    state: params.get("state"),
    mint: {
      clientId: params.get("client_id"),
      redirectUri: params.get("redirect_uri"),
      codeChallenge: params.get("code_challenge"),
      nonce: params.get("nonce"),
    },
  };
}

/**
 * The floor: the code exchange alone, as a client that did nothing else would
 * make it (same client authentication, PKCE verifier, keep-alive `fetch`), with
 * the ID token in the answer; none of the checks or the session cookie.
 */
async function tokenEndpointImpl(provider) {
  const metadata = await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json();
  const authorization = `Basic ${Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString("base64")}`;
  return {
    name: "token endpoint alone",
    state: { floor: true, provider },
    call: async (request) => {
      const params = new URL(request.url).searchParams;
      const response = await fetch(metadata.token_endpoint, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: params.get("code"), redirect_uri: CLIENT.redirect_uris[0], code_verifier: params.get("verifier") }),
      });
      const tokens = await response.json();
      if (!response.ok || !tokens.id_token) throw new Error(`the token endpoint answered ${response.status} ${JSON.stringify(tokens)}`);
      return { status: 302, headers: new Headers({ location: LANDING }) };
    },
  };
}

/** The floor's requests: a code per request for a PKCE verifier of its own, carried in the URL. */
async function prepareExchanges(state, count) {
  const verifiers = Array.from({ length: count }, () => randomBytes(32).toString("base64url"));
  const codes = await state.provider.mint(
    verifiers.map((verifier) => ({
      clientId: CLIENT.client_id,
      redirectUri: CLIENT.redirect_uris[0],
      codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
      nonce: randomBytes(16).toString("base64url"),
    })),
  );
  return codes.map((code, i) => new Request(`${ORIGIN}/token-exchange?${new URLSearchParams({ code, verifier: verifiers[i] })}`));
}

/** `count` callback requests, each with its own sign-in's cookies and a fresh code. */
async function prepareCallbacks(state, count) {
  if (state.floor) return prepareExchanges(state, count);
  const started = await Promise.all(Array.from({ length: count }, () => startSignIn(state)));
  const codes = await state.provider.mint(started.map((s) => s.mint));
  return started.map((signIn, i) => {
    const query = new URLSearchParams({ code: codes[i], state: signIn.state, iss: state.provider.issuer });
    return new Request(`${ORIGIN}/auth/callback/oidc?${query}`, { headers: { cookie: signIn.cookie } });
  });
}

/** CSRF cookie and form for the sign-ins, then one whole sign-in to check both sides really sign in. */
async function prepare(impl, provider) {
  const csrfResponse = await impl.call(new Request(`${ORIGIN}/auth/csrf`));
  const { csrfToken } = await csrfResponse.json();
  const csrfCookie = cookiePairs(csrfResponse).find((c) => c.includes("csrf-token"));
  const form = new URLSearchParams({ csrfToken, callbackUrl: LANDING }).toString();
  impl.state = { name: impl.name, call: impl.call, csrfCookie, form, provider };

  const [callback] = await prepareCallbacks(impl.state, 1);
  const response = await impl.call(callback);
  const sessionCookie = cookiePairs(response).find((c) => c.startsWith("authjs.session-token="));
  if (response.status !== 302 || response.headers.get("location") !== LANDING || !sessionCookie) {
    throw new Error(`${impl.name}: the OIDC callback did not sign in (${response.status} ${response.headers.get("location")})`);
  }
  const session = await (await impl.call(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: sessionCookie } }))).json();
  if (session?.user?.email !== "ada@example.test") throw new Error(`${impl.name}: unexpected session ${JSON.stringify(session)}`);

  // And the checks are on: a callback whose state is not the one in its cookie signs nobody in.
  const [forged] = await prepareCallbacks(impl.state, 1);
  const url = new URL(forged.url);
  url.searchParams.set("state", "forged-state");
  const refused = await impl.call(new Request(url, { headers: forged.headers }));
  if (refused.headers.get("location") === LANDING || cookiePairs(refused).some((c) => c.startsWith("authjs.session-token=") && c !== "authjs.session-token=")) {
    throw new Error(`${impl.name}: a callback with a forged state signed in`);
  }
  return impl;
}

/** With one request at a time, the token endpoint alone is measured too: the floor both handlers stand on. */
export async function oidcSuite(mode) {
  const provider = await startProvider();
  try {
    const impls = [
      await prepare(makeImpl("gatehouse", GatehouseAuth, provider.issuer), provider),
      await prepare(makeImpl("@auth/core", AuthJs, provider.issuer), provider),
    ];
    if (mode === "sequential") impls.push(await tokenEndpointImpl(provider));
    return { impls, scenarios: oidcScenarios, close: provider.close };
  } catch (error) {
    provider.close();
    throw error;
  }
}

export const oidcScenarios = {
  "OIDC callback (code exchange, ID token, JWT session)": {
    status: 302,
    // A sample is 64 sign-ins through a real provider: fewer samples per round than the in-process paths.
    samples: 8,
    prepare: prepareCallbacks,
    check: (response) => (response.headers.get("location") === LANDING ? undefined : `redirected to ${response.headers.get("location")}`),
  },
};
