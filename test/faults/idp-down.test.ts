/**
 * The identity provider gone or failing as a whole, on the real oidc-provider:
 * its process gone before the sign-in starts (discovery refused: OAuthSignin)
 * or between the user's login there and the callback (token endpoint refused:
 * OAuthCallbackError); discovery answering 500 or an HTML page, which is not
 * cached, so the next sign-in works once the provider does; and a slow provider
 * that still answers within `requestTimeout`, which signs in. Failures leave no
 * session and write nothing; the log names the URL that failed and why.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar, csrfToken, fetchSession, locationOf, ORIGIN, storesSession } from "../helpers.js";
import { returnToCallback, signInThroughProvider, startSignIn } from "../oauth/support/handler-flow.js";
import { startOidcServer } from "../oauth/support/oidc-server.js";
import { authorize } from "../oauth/support/user-agent.js";
import { IDP_PATHS, startFaultyIdp, type FaultyIdp } from "./support/faulty-idp.js";
import { expectSignInPageError, idpSetup, loggedText, REDIRECT_URIS } from "./support/idp-setup.js";

/** Nothing here hangs: refusals and bad answers come at once. Generous, for a busy CI machine. */
const TIMEOUT_MS = 2_000;

let idp: FaultyIdp;
beforeAll(async () => {
  idp = await startFaultyIdp({ redirectUris: REDIRECT_URIS });
});
afterEach(() => idp.clear());
afterAll(() => idp?.close());

/** `POST /auth/signin/<id>` as the sign-in page's button does; the response, not a started flow. */
async function pressSignIn(config: Parameters<typeof csrfToken>[0], jar: CookieJar, id: string): Promise<Response> {
  return call(config, `/auth/signin/${id}`, { jar, form: { csrfToken: await csrfToken(config, jar) } });
}

describe("the provider's process gone", () => {
  it("before the sign-in starts: OAuthSignin on the sign-in page, the discovery URL and ECONNREFUSED logged, nothing stored", async () => {
    const gone = await startOidcServer({ redirectUris: REDIRECT_URIS });
    await gone.close();
    const { config, store, log } = idpSetup(gone, "oidc", TIMEOUT_MS);
    const jar = new CookieJar();
    await expectSignInPageError(config, jar, await pressSignIn(config, jar, "oidc"), "OAuthSignin");
    expect(store.writes).toEqual([]);
    const logged = loggedText(log.errors);
    expect(logged).toContain(`OAuthSignInError: Could not read the metadata of provider "oidc" from ${gone.url(IDP_PATHS.discovery)}`);
    expect(logged).toMatch(/ECONNREFUSED/);
  });

  it("after the user logged in there, before the callback: OAuthCallbackError, the token endpoint and ECONNREFUSED logged, nothing stored", async () => {
    const leaving = await startOidcServer({ redirectUris: REDIRECT_URIS });
    const { config, store, log } = idpSetup(leaving, "oidc", TIMEOUT_MS);
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "oidc");
    const answer = await authorize(authorizationUrl, { login: "vanishing" });
    await leaving.close();

    await expectSignInPageError(config, jar, await returnToCallback(config, jar, answer), "OAuthCallbackError");
    expect(store.writes).toEqual([]);
    const logged = loggedText(log.errors);
    expect(logged).toContain(`The code exchange with provider "oidc" at ${leaving.url("/token")} failed`);
    // Refused on a new connection; on the kept-alive one left from discovery, closed under the request.
    expect(logged).toMatch(/ECONNREFUSED|other side closed/);
  });
});

describe("discovery failing, then working again", () => {
  it.each([
    ["answering 500", { kind: "status500" } as const, /HTTP 500/],
    ["answering an HTML page", { kind: "html" } as const, /text\/html/],
  ])("%s: OAuthSignin and nothing stored; the failure is not cached, so the next sign-in works", async (_case, fault, cause) => {
    const { config, store, log } = idpSetup(idp, "oidc", TIMEOUT_MS);
    idp.inject("discovery", fault);
    const jar = new CookieJar();
    await expectSignInPageError(config, jar, await pressSignIn(config, jar, "oidc"), "OAuthSignin");
    expect(store.writes).toEqual([]);
    const logged = loggedText(log.errors);
    expect(logged).toContain(idp.url(IDP_PATHS.discovery));
    expect(logged).toMatch(cause);

    idp.clear();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login: `back-${fault.kind}` });
    expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
    expect((await fetchSession(config, jar)).body.user.email).toBe(`back-${fault.kind}@example.test`);
  });
});

describe("a slow provider", () => {
  it("every back-channel request slow but within requestTimeout: the sign-in succeeds and stores the user", async () => {
    const { config, store } = idpSetup(idp, "oidc-userinfo", 3_000);
    for (const endpoint of ["discovery", "token", "jwks", "userinfo"] as const) idp.inject(endpoint, { kind: "slow", ms: 200 });
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc-userinfo", { login: "patient" });
    expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
    expect(storesSession(callback)).toBe(true);
    expect((await fetchSession(config, jar)).body.user.email).toBe("patient@example.test");
    expect(store.writes).toEqual(expect.arrayContaining(["createSession"]));
    expect(store.writes.some((w) => w === "createUserWithAccount" || w === "createUser")).toBe(true);
  });
});
