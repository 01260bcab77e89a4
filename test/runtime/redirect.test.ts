/**
 * The redirect policy through the handler: callback URLs from the body, the query
 * or the callback-url cookie, on credentials sign-in and on sign-out. Only relative
 * and same-origin targets pass; everything else lands on the base URL, never a 500.
 */
import { describe, expect, it, vi } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import {
  ORIGIN,
  CookieJar,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  locationOf,
  setCookies,
  signInWithCredentials,
  storesSession,
} from "../helpers.js";

const BASE = `${ORIGIN}/`;
const CALLBACK_COOKIE = "authjs.callback-url";

/** Targets that leave the origin (or cannot be read): must end on the base URL. */
const OPEN_REDIRECTS: [string, string][] = [
  ["absolute other host", "https://evil.com"],
  ["absolute other host with path", "https://evil.com/login?next=/"],
  ["upper-case scheme and host", "HTTPS://EVIL.COM"],
  ["protocol-relative", "//evil.com"],
  ["protocol-relative with path", "//evil.com/path"],
  ["slash-backslash", "/\\evil.com"],
  ["double backslash", "\\\\evil.com"],
  ["backslash-slash", "\\/evil.com"],
  ["tab inside //", "/\t/evil.com"],
  ["leading space before //", " //evil.com"],
  ["scheme-relative other scheme", "https:evil.com"],
  ["host suffix", "http://localhost:3000.evil.com"],
  ["userinfo trick", "http://localhost:3000@evil.com"],
  ["other port", "http://localhost:3001/"],
  ["other scheme same host", "https://localhost:3000/"],
  ["javascript:", "javascript:alert(1)"],
  ["JavaScript: mixed case", "JaVaScRiPt:alert(1)"],
  ["data:", "data:text/html,x"],
  ["vbscript:", "vbscript:msgbox(1)"],
  ["unparsable IPv6", "http://[::1"],
  ["5000-char external URL", `https://evil.com/${"a".repeat(5000)}`],
  ["5000-char relative path", `/${"a".repeat(5000)}`],
];

/** Odd but same-origin targets: may pass, but only ever to this origin. */
const STAY_ON_ORIGIN: [string, string][] = [
  ["encoded CRLF header injection", "/%0d%0aSet-Cookie:x"],
  ["encoded slashes", "/%2f%2fevil.com"],
  ["scheme-relative same scheme", "http:evil.com"],
  ["dot segments", "/a/../../../evil.com"],
  ["upper-case same origin", "HTTP://LOCALHOST:3000/ok"],
];

/** Targets that must be honoured exactly. */
const ALLOWED: [string, string, string][] = [
  ["path with query and hash", "/path?x=1#y", `${ORIGIN}/path?x=1#y`],
  ["absolute same origin", `${ORIGIN}/other`, `${ORIGIN}/other`],
  ["root", "/", `${ORIGIN}/`],
  ["relative without slash", "dashboard", `${ORIGIN}/dashboard`],
];

type Source = "body" | "query" | "cookie";
type Flow = "sign-in" | "sign-out";

const SOURCES: Source[] = ["body", "query", "cookie"];
const FLOWS: Flow[] = ["sign-in", "sign-out"];

/** Runs the flow with `callbackUrl` placed in `source`; returns the final response. */
async function run(flow: Flow, source: Source, callbackUrl: string, config: AuthConfig = credentialsConfig()) {
  const jar = new CookieJar();
  if (flow === "sign-out") {
    const signIn = await signInWithCredentials(config, jar);
    expect(storesSession(signIn)).toBe(true);
  }
  const token = await csrfToken(config, jar);
  if (source === "cookie") jar.cookies.set(CALLBACK_COOKIE, callbackUrl);
  const form: Record<string, string> = { csrfToken: token };
  if (flow === "sign-in") Object.assign(form, { username: "ada", password: "correct horse" });
  if (source === "body") form.callbackUrl = callbackUrl;
  const base = flow === "sign-in" ? "/auth/callback/credentials" : "/auth/signout";
  const path = source === "query" ? `${base}?callbackUrl=${encodeURIComponent(callbackUrl)}` : base;
  return call(config, path, { jar, form });
}

function expectSafe(response: Response) {
  expect(response.status).not.toBe(500);
  const location = response.headers.get("location");
  if (location !== null) {
    expect(location).not.toMatch(/[\r\n]/);
    expect(new URL(location).origin).toBe(ORIGIN);
  }
  expect(setCookies(response).some((c) => c.name === "x" || c.name.includes("Set-Cookie"))).toBe(false);
}

describe.each(FLOWS)("%s", (flow) => {
  describe.each(SOURCES)("callbackUrl in the %s", (source) => {
    it.each(OPEN_REDIRECTS)("%s → base URL", async (_name, target) => {
      const response = await run(flow, source, target);
      expect(response.status).toBe(302);
      expectSafe(response);
      expect(locationOf(response).href).toBe(BASE);
    });

    it.each(STAY_ON_ORIGIN)("%s → stays on the origin", async (_name, target) => {
      const response = await run(flow, source, target);
      expect(response.status).toBe(302);
      expectSafe(response);
    });

    it.each(ALLOWED)("%s → honoured", async (_name, target, expected) => {
      const response = await run(flow, source, target);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(expected);
    });
  });

  describe("non-string callbackUrl in a JSON body", () => {
    it.each([
      ["object", {}],
      ["object with href", { href: "https://evil.com", toString: "https://evil.com" }],
      ["array", ["https://evil.com"]],
      ["number", 123],
      ["boolean", true],
      ["null", null],
    ])("%s → never a 500, never off-origin", async (_name, value) => {
      const config = credentialsConfig();
      const jar = new CookieJar();
      if (flow === "sign-out") await signInWithCredentials(config, jar);
      const token = await csrfToken(config, jar);
      const json: Record<string, unknown> = { csrfToken: token, callbackUrl: value };
      if (flow === "sign-in") Object.assign(json, { username: "ada", password: "correct horse" });
      const response = await call(config, flow === "sign-in" ? "/auth/callback/credentials" : "/auth/signout", { jar, json });
      expectSafe(response);
      if (response.status === 302) {
        expect(locationOf(response).href).toBe(BASE);
      } else {
        expect(response.status).toBe(400);
        expect(storesSession(response)).toBe(false);
        // A rejected request changes nothing: no session stored, none cleared.
        expect(response.headers.getSetCookie().filter((c) => c.startsWith("authjs.session-token"))).toEqual([]);
      }
    });
  });

  it("the body wins over the query, the query over the cookie", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    if (flow === "sign-out") await signInWithCredentials(config, jar);
    const token = await csrfToken(config, jar);
    jar.cookies.set(CALLBACK_COOKIE, "/from-cookie");
    const form: Record<string, string> = { csrfToken: token, callbackUrl: "/from-body" };
    if (flow === "sign-in") Object.assign(form, { username: "ada", password: "correct horse" });
    const base = flow === "sign-in" ? "/auth/callback/credentials" : "/auth/signout";
    const both = await call(config, `${base}?callbackUrl=%2Ffrom-query`, { jar, form });
    expect(both.headers.get("location")).toBe(`${ORIGIN}/from-body`);

    const jar2 = new CookieJar();
    if (flow === "sign-out") await signInWithCredentials(config, jar2);
    const token2 = await csrfToken(config, jar2);
    jar2.cookies.set(CALLBACK_COOKIE, "/from-cookie");
    const form2: Record<string, string> = { csrfToken: token2 };
    if (flow === "sign-in") Object.assign(form2, { username: "ada", password: "correct horse" });
    const queryOnly = await call(config, `${base}?callbackUrl=%2Ffrom-query`, { jar: jar2, form: form2 });
    expect(queryOnly.headers.get("location")).toBe(`${ORIGIN}/from-query`);
  });

  it("an evil body value does not fall through to a good query value's host either", async () => {
    const response = await run(flow, "body", "//evil.com");
    expect(locationOf(response).href).toBe(BASE);
  });
});

describe("sign-in error redirects and the sign-in page", () => {
  it.each(OPEN_REDIRECTS)("failed sign-in with %s: error redirect stays on origin, callbackUrl dropped", async (_name, target) => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const response = await call(config, "/auth/callback/credentials", {
      jar,
      form: { username: "ada", password: "wrong", csrfToken: token, callbackUrl: target },
    });
    expect(response.status).toBe(302);
    expectSafe(response);
    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
    const callbackUrl = location.searchParams.get("callbackUrl");
    if (callbackUrl !== null) expect(new URL(callbackUrl).origin).toBe(ORIGIN);
    expect(storesSession(response)).toBe(false);
  });

  it.each(OPEN_REDIRECTS)("GET /auth/signin?callbackUrl=%s: the form's callbackUrl stays on origin", async (_name, target) => {
    const response = await call(credentialsConfig(), `/auth/signin?callbackUrl=${encodeURIComponent(target)}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const values = [...html.matchAll(/name="callbackUrl" value="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(new URL(value).origin).toBe(ORIGIN);
    expect(html).not.toContain("evil.com");
  });

  it.each(OPEN_REDIRECTS)("pages.signIn with callbackUrl=%s: redirect carries only a same-origin callbackUrl", async (_name, target) => {
    const config = credentialsConfig({ pages: { signIn: "/login" } });
    const response = await call(config, `/auth/signin?callbackUrl=${encodeURIComponent(target)}`);
    expectSafe(response);
    const location = locationOf(response);
    expect(location.pathname).toBe("/login");
    const callbackUrl = location.searchParams.get("callbackUrl");
    if (callbackUrl !== null) expect(new URL(callbackUrl).origin).toBe(ORIGIN);
  });
});

describe("the redirect callback", () => {
  it.each(FLOWS)("receives {url, baseUrl} and an external URL it returns is honoured (%s)", async (flow) => {
    const redirect = vi.fn(() => "https://partner.example.com/welcome?from=app");
    const response = await run(flow, "body", "/dashboard", credentialsConfig({ callbacks: { redirect } }));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://partner.example.com/welcome?from=app");
    expect(redirect).toHaveBeenCalledWith({ url: "/dashboard", baseUrl: ORIGIN });
  });

  it.each(FLOWS)("without a requested URL gets the base URL as url (%s)", async (flow) => {
    const redirect = vi.fn(({ baseUrl }: { url: string; baseUrl: string }) => baseUrl);
    const config = credentialsConfig({ callbacks: { redirect } });
    const jar = new CookieJar();
    if (flow === "sign-out") await signInWithCredentials(config, jar);
    redirect.mockClear();
    const token = await csrfToken(config, jar);
    const form: Record<string, string> = { csrfToken: token };
    if (flow === "sign-in") Object.assign(form, { username: "ada", password: "correct horse" });
    await call(config, flow === "sign-in" ? "/auth/callback/credentials" : "/auth/signout", { jar, form });
    expect(redirect).toHaveBeenCalledWith({ url: ORIGIN, baseUrl: ORIGIN });
  });

  it.each(FLOWS)("one that throws → base URL, logged, no 500 (%s)", async (flow) => {
    const log = captureLogger();
    const config = credentialsConfig({
      logger: log.logger,
      callbacks: {
        redirect: () => {
          throw new Error("redirect exploded");
        },
      },
    });
    const response = await run(flow, "body", "/dashboard", config);
    expect(response.status).toBe(302);
    expect(locationOf(response).href).toBe(BASE);
    const logged = log.errors.find((e) => (e as any).cause?.err?.message === "redirect exploded");
    expect(logged).toBeDefined();
    if (flow === "sign-in") expect(storesSession(response)).toBe(true);
  });

  it.each([
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["control characters", "https://ok.example.com/\r\nSet-Cookie: x=1"],
    ["backslash host", "/\\evil.com"],
    ["unparsable", "http://[::1"],
    ["non-string", 42 as unknown as string],
    ["undefined", undefined as unknown as string],
  ])("one returning %s → base URL", async (_name, value) => {
    for (const flow of FLOWS) {
      const response = await run(flow, "body", "/dashboard", credentialsConfig({ callbacks: { redirect: () => value } }));
      expect(response.status).toBe(302);
      expect(locationOf(response).href).toBe(BASE);
    }
  });

  it("an async redirect callback is awaited", async () => {
    const config = credentialsConfig({
      callbacks: {
        redirect: async ({ url, baseUrl }) => {
          await new Promise((r) => setTimeout(r, 1));
          return `${baseUrl}/async${url}`;
        },
      },
    });
    const response = await run("sign-in", "body", "/x", config);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/async/x`);
  });
});
