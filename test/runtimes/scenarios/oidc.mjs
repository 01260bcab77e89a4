/**
 * OpenID Connect sign-in against the test's oidc-provider on 127.0.0.1: the
 * handler, in this runtime, fetches the discovery document, then after the
 * person logged in (the test's agent plays their browser at the provider) the
 * token endpoint and the JWKS, checks the ID token, and starts a JWT session.
 */
import { OIDC } from "@gatehouse/runtime/providers";
import { Browser, ORIGIN, SECRET, cookiesSet, quietLogger } from "./browser.mjs";

const CHECK_COOKIES = ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"];

export async function oidc(t, { oidc: idp, agentUrl }) {
  const { logger, logged } = quietLogger();
  const config = {
    secret: SECRET,
    trustHost: true,
    logger,
    providers: [OIDC({ id: "oidc", name: "Test IdP", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret })],
  };
  const browser = new Browser(config);
  const csrfToken = await browser.csrfToken();

  const started = await browser.request("/auth/signin/oidc", { form: { csrfToken, callbackUrl: `${ORIGIN}/dashboard` } });
  t.equal(started.status, 302, `the sign-in's status (logged: ${logged.join("; ") || "nothing"})`);
  const authorization = new URL(started.headers.get("location"));
  t.equal(`${authorization.origin}${authorization.pathname}`, `${idp.issuer}/auth`, "the discovered authorization endpoint");
  const params = Object.fromEntries(authorization.searchParams);
  t.equal(
    { client_id: params.client_id, response_type: params.response_type, redirect_uri: params.redirect_uri, scope: params.scope, code_challenge_method: params.code_challenge_method },
    { client_id: idp.clientId, response_type: "code", redirect_uri: `${ORIGIN}/auth/callback/oidc`, scope: "openid profile email", code_challenge_method: "S256" },
    "the authorization request",
  );
  t.match(params.code_challenge, /^[A-Za-z0-9_-]{43}$/, "the PKCE challenge");
  t.match(params.state, /^[A-Za-z0-9_-]{20,}$/, "the state");
  t.match(params.nonce, /^[A-Za-z0-9_-]{20,}$/, "the nonce");
  const checks = cookiesSet(started);
  for (const name of CHECK_COOKIES) {
    t.authCookie(checks.get(name), name);
    t.equal(checks.get(name).attributes["max-age"], "900", `${name}'s Max-Age`);
    t.equal(checks.get(name).value.split(".").length, 5, `${name} is encrypted (a JWE)`);
  }

  const callbackUrl = await logInAtProvider(agentUrl, authorization, "grace");
  t.ok(callbackUrl.startsWith(`${ORIGIN}/auth/callback/oidc?`), `the provider sends the browser back to the callback (${callbackUrl})`);
  const callbackPath = callbackUrl.slice(ORIGIN.length);
  const callback = await browser.request(callbackPath);
  t.redirect(callback, `${ORIGIN}/dashboard`, `the callback (logged: ${logged.join("; ") || "nothing"})`);
  const cookies = cookiesSet(callback);
  t.authCookie(cookies.get("authjs.session-token"), "authjs.session-token");
  t.equal(cookies.get("authjs.session-token").value.split(".").length, 5, "the session cookie is a JWE");
  t.equal(CHECK_COOKIES.filter((name) => cookies.get(name)?.value !== ""), [], "check cookies the callback leaves set");

  const session = await browser.session();
  t.equal(session?.user, { name: "Test User grace", email: "grace@example.test", image: "https://example.test/avatars/grace.png" }, "the session's user");

  // The same callback again: its checks are spent, so no session, and the code is never sent to the provider twice.
  const replay = await new Browser(config).request(callbackPath);
  t.equal(replay.status, 302, "a replayed callback's status");
  t.match(replay.headers.get("location"), /^http:\/\/localhost:3000\/auth\/(signin|error)\?error=/, "a replayed callback goes to an error page");
  t.ok(!cookiesSet(replay).has("authjs.session-token"), "a replayed callback sets no session cookie");
}

/** Asks the test's agent to log in and consent at the provider as a browser would; answers the URL it is sent back to. */
async function logInAtProvider(agentUrl, authorizationUrl, login) {
  const response = await fetch(`${agentUrl}/authorize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ authorizationUrl: authorizationUrl.href, login }),
  });
  const answer = await response.json();
  if (!response.ok || typeof answer.callbackUrl !== "string") throw new Error(`logging in at the provider failed: ${answer.error ?? JSON.stringify(answer)}`);
  return answer.callbackUrl;
}
