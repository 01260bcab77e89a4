/**
 * The provider's back-channel endpoints failing during the callback, against the
 * real oidc-provider with faults injected in front of one route: the token
 * endpoint, the JWKS (the ID token's signing keys) and userinfo (an OIDC provider
 * with `idToken: false`), each refused, reset, answering 500, answering an HTML
 * page, or not answering within `requestTimeout`. Every case ends on the sign-in
 * page with OAuthCallbackError, no session and nothing written, and the log
 * names the endpoint's URL and what went wrong there.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../helpers.js";
import { returnToCallback, startSignIn } from "../oauth/support/handler-flow.js";
import { authorize } from "../oauth/support/user-agent.js";
import { IDP_PATHS, startFaultyIdp, type Fault, type FaultyIdp, type IdpEndpoint } from "./support/faulty-idp.js";
import { expectSignInPageError, idpSetup, loggedText, REDIRECT_URIS, type ProviderId } from "./support/idp-setup.js";

/**
 * Short, so the hanging cases cost little, yet far above what a healthy request on loopback takes
 * (a few milliseconds), so a busy CI machine does not turn the endpoints that work into failures.
 */
const TIMEOUT_MS = 1_000;

let idp: FaultyIdp;
beforeAll(async () => {
  idp = await startFaultyIdp({ redirectUris: REDIRECT_URIS });
});
afterEach(() => idp.clear());
afterAll(() => idp?.close());

/** What the log must say for each fault, beyond the endpoint's URL. */
const FAULTS: [string, Fault, RegExp][] = [
  ["refused", { kind: "refused" }, /ECONNREFUSED/],
  ["reset", { kind: "reset" }, /other side closed|ECONNRESET/],
  ["answering 500", { kind: "status500" }, /HTTP 500|Expected 200 OK/],
  ["answering an HTML page", { kind: "html" }, /text\/html|as JSON/],
  ["not answering", { kind: "hang" }, /timed out|timeout/],
];

/** Which provider exercises which endpoint: userinfo is only called with `idToken: false`. */
const ENDPOINTS: [IdpEndpoint, ProviderId][] = [
  ["token", "oidc"],
  ["jwks", "oidc"],
  ["userinfo", "oidc-userinfo"],
];

const CASES = ENDPOINTS.flatMap(([endpoint, providerId]) => FAULTS.map(([name, fault, cause]) => ({ endpoint, providerId, name, fault, cause })));

describe("a provider endpoint failing during the callback", () => {
  it.each(CASES)("$endpoint $name: OAuthCallbackError, no session, nothing stored, the log names the endpoint", async ({ endpoint, providerId, fault, cause }) => {
    const { config, store, log } = idpSetup(idp, providerId, TIMEOUT_MS);
    idp.inject(endpoint, fault);
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, providerId);
    const callback = await returnToCallback(config, jar, await authorize(authorizationUrl, { login: `user-${endpoint}` }));

    await expectSignInPageError(config, jar, callback, "OAuthCallbackError");
    expect(store.writes).toEqual([]);
    const logged = loggedText(log.errors);
    const url = fault.kind === "refused" ? idp.refusedUrl(endpoint) : idp.url(IDP_PATHS[endpoint]);
    expect(logged).toContain(url);
    expect(logged).toMatch(cause);
  });
});
