/**
 * Sign-out: the confirmation page, the CSRF-checked POST that clears the session
 * (every chunk), the signOut event and the safe redirect.
 */
import { describe, expect, it, vi } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import {
  ORIGIN,
  USER,
  CookieJar,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  fetchSession,
  isCleared,
  locationOf,
  sessionSetCookies,
  setCookies,
  signInWithCredentials,
  storesSession,
} from "../helpers.js";

async function signedIn(config: AuthConfig) {
  const jar = new CookieJar();
  const response = await signInWithCredentials(config, jar);
  expect(storesSession(response)).toBe(true);
  return jar;
}

async function signOut(config: AuthConfig, jar: CookieJar, fields: Record<string, string> = {}, path = "/auth/signout") {
  const token = await csrfToken(config, jar);
  return call(config, path, { jar, form: { csrfToken: token, ...fields } });
}

/** Hex noise that does not compress, to make the session token span several cookies. */
function noise(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length / 2));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("GET /auth/signout", () => {
  it("renders a page whose form posts to /auth/signout with the CSRF token", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const response = await call(config, "/auth/signout", { jar });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("cache-control")).toContain("no-store");
    const html = await response.text();

    const form = html.match(/<form[^>]*>/)?.[0];
    expect(form).toBeDefined();
    expect(form).toMatch(/method="post"/i);
    const action = form!.match(/action="([^"]*)"/)?.[1];
    expect(new URL(action!, ORIGIN).href).toBe(`${ORIGIN}/auth/signout`);

    const cookieToken = jar.get("authjs.csrf-token")?.split("|")[0];
    expect(cookieToken).toMatch(/^[0-9a-f]{64}$/);
    expect(html).toContain(`<input type="hidden" name="csrfToken" value="${cookieToken}">`);
    expect(html).not.toMatch(/<script/i);
  });

  it("the page's form works: posting its fields signs out", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    const html = await (await call(config, "/auth/signout", { jar })).text();
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]),
    );
    expect(fields.csrfToken).toBeTruthy();
    const response = await call(config, "/auth/signout", { jar, form: fields });
    expect(response.status).toBe(302);
    expect((await fetchSession(config, jar)).body).toBeNull();
  });

  it("pages.signOut redirects GET to the app's page", async () => {
    const config = credentialsConfig({ pages: { signOut: "/bye" } });
    const response = await call(config, "/auth/signout?callbackUrl=%2Fhome");
    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/bye");
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/home`);
  });

  it("pages.signOut does not pass an external callbackUrl along", async () => {
    const config = credentialsConfig({ pages: { signOut: "/bye" } });
    const response = await call(config, "/auth/signout?callbackUrl=https%3A%2F%2Fevil.com");
    const location = locationOf(response);
    expect(location.pathname).toBe("/bye");
    const callbackUrl = location.searchParams.get("callbackUrl");
    if (callbackUrl !== null) expect(new URL(callbackUrl).origin).toBe(ORIGIN);
  });
});

describe("POST /auth/signout", () => {
  it("clears the session cookie, fires signOut with the decoded token and redirects to the base URL", async () => {
    const signOutEvent = vi.fn();
    const config = credentialsConfig({ events: { signOut: signOutEvent } });
    const jar = await signedIn(config);

    const response = await signOut(config, jar);
    expect(response.status).toBe(302);
    expect(locationOf(response).href).toBe(`${ORIGIN}/`);

    const cleared = sessionSetCookies(response);
    expect(cleared.map((c) => c.name)).toContain("authjs.session-token");
    expect(cleared.every(isCleared)).toBe(true);
    const attrs = cleared.find((c) => c.name === "authjs.session-token")!.attributes;
    expect(attrs.path).toBe("/");

    expect(signOutEvent).toHaveBeenCalledTimes(1);
    const message = signOutEvent.mock.calls[0]![0];
    expect(Object.keys(message)).toEqual(["token"]);
    expect(message.token).toMatchObject({ sub: USER.id, name: USER.name, email: USER.email, picture: USER.image });
    expect(typeof message.token.exp).toBe("number");

    expect((await fetchSession(config, jar)).body).toBeNull();
  });

  it("clears every chunk of a chunked session cookie", async () => {
    const signOutEvent = vi.fn();
    const blob = noise(9000);
    const config = credentialsConfig({
      events: { signOut: signOutEvent },
      callbacks: { jwt: ({ token, trigger }: any) => (trigger === "signIn" ? { ...token, blob } : token) },
    });
    const jar = await signedIn(config);
    const chunkNames = [...jar.cookies.keys()].filter((n) => n.startsWith("authjs.session-token."));
    expect(chunkNames.length).toBeGreaterThanOrEqual(2);
    expect((await fetchSession(config, jar)).body?.user?.email).toBe(USER.email);

    const response = await signOut(config, jar);
    const cleared = new Set(sessionSetCookies(response).filter(isCleared).map((c) => c.name));
    for (const name of chunkNames) expect(cleared.has(name)).toBe(true);
    expect(storesSession(response)).toBe(false);
    expect([...jar.cookies.keys()].some((n) => n.startsWith("authjs.session-token"))).toBe(false);
    expect(signOutEvent.mock.calls[0]![0].token.blob).toBe(blob);
  });

  it("clears stray chunk cookies present in the request", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    jar.cookies.set("authjs.session-token.0", "stale");
    jar.cookies.set("authjs.session-token.1", "stale");
    const response = await signOut(config, jar);
    const cleared = new Set(sessionSetCookies(response).filter(isCleared).map((c) => c.name));
    expect(cleared).toEqual(new Set(["authjs.session-token", "authjs.session-token.0", "authjs.session-token.1"]));
  });

  it("on https clears the __Secure- session cookie", async () => {
    const origin = "https://app.example.com";
    const config = credentialsConfig();
    const jar = new CookieJar();
    const csrf = (await (await call(config, "/auth/csrf", { jar, origin })).json()) as { csrfToken: string };
    await call(config, "/auth/callback/credentials", {
      jar,
      origin,
      form: { username: "ada", password: "correct horse", csrfToken: csrf.csrfToken },
    });
    expect(jar.get("__Secure-authjs.session-token")).toBeTruthy();
    const response = await call(config, "/auth/signout", { jar, origin, form: { csrfToken: csrf.csrfToken } });
    expect(response.status).toBe(302);
    expect(locationOf(response).origin).toBe(origin);
    const cleared = sessionSetCookies(response, "__Secure-authjs.session-token");
    expect(cleared.length).toBeGreaterThan(0);
    expect(cleared.every(isCleared)).toBe(true);
    expect(cleared[0]!.attributes.secure).toBe(true);
  });

  it("redirects to a same-origin callbackUrl", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    const response = await signOut(config, jar, { callbackUrl: "/goodbye?x=1" });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/goodbye?x=1`);
  });

  it("an external callbackUrl falls back to the base URL", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    const response = await signOut(config, jar, { callbackUrl: "https://evil.com" });
    expect(response.status).toBe(302);
    expect(locationOf(response).href).toBe(`${ORIGIN}/`);
  });

  it("X-Auth-Return-Redirect: 1 answers 200 {url} and still clears the cookie", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    const token = await csrfToken(config, jar);
    const response = await call(config, "/auth/signout", {
      jar,
      form: { csrfToken: token, callbackUrl: "/bye" },
      headers: { "X-Auth-Return-Redirect": "1" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: `${ORIGIN}/bye` });
    expect(sessionSetCookies(response).every(isCleared)).toBe(true);
    expect(sessionSetCookies(response).length).toBeGreaterThan(0);
  });

  it("without CSRF: MissingCSRF on the sign-in page, session cookie NOT cleared, no event", async () => {
    const signOutEvent = vi.fn();
    const log = captureLogger();
    const config = credentialsConfig({ events: { signOut: signOutEvent }, logger: log.logger });
    const jar = await signedIn(config);
    await csrfToken(config, jar);

    const response = await call(config, "/auth/signout", { jar, form: { callbackUrl: "/x" } });
    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("MissingCSRF");
    expect(sessionSetCookies(response)).toEqual([]);
    expect(signOutEvent).not.toHaveBeenCalled();
    expect((await fetchSession(config, jar)).body?.user?.email).toBe(USER.email);
  });

  it("with a CSRF token from another browser: MissingCSRF, session kept", async () => {
    const config = credentialsConfig();
    const victim = await signedIn(config);
    const attacker = new CookieJar();
    const attackerToken = await csrfToken(config, attacker);
    await csrfToken(config, victim);
    const response = await call(config, "/auth/signout", { jar: victim, form: { csrfToken: attackerToken } });
    expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
    expect(sessionSetCookies(response)).toEqual([]);
    expect((await fetchSession(config, victim)).body).not.toBeNull();
  });

  it("without a session still redirects, and the event gets {token: null}", async () => {
    const signOutEvent = vi.fn();
    const config = credentialsConfig({ events: { signOut: signOutEvent } });
    const jar = new CookieJar();
    const response = await signOut(config, jar, { callbackUrl: "/after" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/after`);
    expect(signOutEvent).toHaveBeenCalledTimes(1);
    expect(signOutEvent.mock.calls[0]![0]).toEqual({ token: null });
    expect(storesSession(response)).toBe(false);
  });

  it("with an invalid session cookie, clears it and the event gets {token: null}", async () => {
    const signOutEvent = vi.fn();
    const config = credentialsConfig({ events: { signOut: signOutEvent }, logger: captureLogger().logger });
    const jar = new CookieJar();
    jar.cookies.set("authjs.session-token", "garbage");
    const response = await signOut(config, jar);
    expect(response.status).toBe(302);
    expect(signOutEvent.mock.calls[0]![0]).toEqual({ token: null });
    const cleared = sessionSetCookies(response);
    expect(cleared.map((c) => c.name)).toContain("authjs.session-token");
    expect(cleared.every(isCleared)).toBe(true);
  });

  it("a signOut event that throws is logged; the user is still signed out", async () => {
    const log = captureLogger();
    const config = credentialsConfig({
      logger: log.logger,
      events: {
        signOut: () => {
          throw new Error("audit down");
        },
      },
    });
    const jar = await signedIn(config);
    const response = await signOut(config, jar);
    expect(response.status).toBe(302);
    expect(sessionSetCookies(response).every(isCleared)).toBe(true);
    expect(log.errors.some((e) => (e as any).type === "EventError")).toBe(true);
  });

  it("does not touch unrelated cookies", async () => {
    const config = credentialsConfig();
    const jar = await signedIn(config);
    jar.cookies.set("theme", "dark");
    const response = await signOut(config, jar);
    expect(setCookies(response).some((c) => c.name === "theme")).toBe(false);
  });
});
