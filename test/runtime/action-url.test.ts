/**
 * `createActionURL` (public in `@auth/core`, exported by `@gatehouse/runtime`):
 * the same inputs through Auth.js's and ours, side by side. Where they agree the
 * URLs are equal; where ours refuses (bad input, an untrusted host) the test says
 * what Auth.js builds instead. And the URL ours gives is one our handler answers
 * on, with the same origin in what it answers.
 */
import { createActionURL as authJsCreateActionURL } from "@auth/core";
import {
  Auth,
  InvalidConfig,
  InvalidRequest,
  UnknownAction,
  UntrustedHost,
  createActionURL,
  isAuthAction,
  type ActionURLConfig,
  type AuthAction,
} from "@gatehouse/runtime";
import { describe, expect, it } from "vitest";
import { captureLogger, credentialsConfig } from "../helpers.js";

type Env = Record<string, string | undefined>;

interface Case {
  action?: AuthAction;
  protocol?: string;
  headers?: Record<string, string>;
  env?: Env;
  config?: ActionURLConfig;
}

/** Auth.js's `createActionURL` always reads forwarded headers; trust is a handler setting there. */
const TRUSTED: ActionURLConfig = { trustHost: true, basePath: "/auth" };

function both(c: Case): { ours: () => URL; theirs: () => URL; oursWarnings: string[]; theirsWarnings: string[] } {
  const oursLog = captureLogger();
  const theirsLog = captureLogger();
  const action = c.action ?? "signin";
  const env = c.env ?? {};
  const headers = () => new Headers(c.headers ?? { host: "app.example.com" });
  return {
    ours: () => createActionURL(action, c.protocol as string, headers(), env, { ...c.config, logger: oursLog.logger }),
    theirs: () => authJsCreateActionURL(action as never, c.protocol as string, headers(), env, { ...c.config, logger: theirsLog.logger } as never),
    oursWarnings: oursLog.warnings,
    theirsWarnings: theirsLog.warnings,
  };
}

describe("createActionURL agrees with Auth.js's for the same inputs", () => {
  const cases: [string, Case, string][] = [
    [
      "AUTH_URL set: it wins over the Host and X-Forwarded-Host",
      { env: { AUTH_URL: "https://app.example.com" }, config: { basePath: "/auth" }, headers: { host: "evil.example", "x-forwarded-host": "evil.example" } },
      "https://app.example.com/auth/signin",
    ],
    ["AUTH_URL with a trailing slash", { env: { AUTH_URL: "https://app.example.com/" }, config: { basePath: "/auth" } }, "https://app.example.com/auth/signin"],
    ["AUTH_URL with a path and no basePath: the path is the base path", { env: { AUTH_URL: "https://app.example.com/api/auth" } }, "https://app.example.com/api/auth/signin"],
    ["AUTH_URL with a port", { env: { AUTH_URL: "http://localhost:5173" }, config: { basePath: "/auth" }, action: "session" }, "http://localhost:5173/auth/session"],
    ["AUTH_URL unset, trusted host: the Host header and the protocol", { config: TRUSTED, protocol: "https:", action: "session" }, "https://app.example.com/auth/session"],
    ["the protocol without its colon", { config: TRUSTED, protocol: "http", headers: { host: "localhost:3000" } }, "http://localhost:3000/auth/signin"],
    ["no protocol: https", { config: TRUSTED, protocol: undefined }, "https://app.example.com/auth/signin"],
    [
      "trusted X-Forwarded-Host and X-Forwarded-Proto over the Host",
      { config: TRUSTED, protocol: "http:", headers: { host: "internal:3000", "x-forwarded-host": "public.example.com", "x-forwarded-proto": "https" } },
      "https://public.example.com/auth/signin",
    ],
    [
      "trusted X-Forwarded-Host with a port, the request's protocol",
      { config: TRUSTED, protocol: "http:", headers: { host: "internal:3000", "x-forwarded-host": "public.example.com:8080" } },
      "http://public.example.com:8080/auth/signin",
    ],
    ["a basePath with slashes around it", { config: { trustHost: true, basePath: "/custom/auth/" }, protocol: "https" }, "https://app.example.com/custom/auth/signin"],
    ["a deeper basePath", { config: { trustHost: true, basePath: "/api/v1/auth" }, protocol: "https", action: "callback" }, "https://app.example.com/api/v1/auth/callback"],
  ];

  it.each(cases)("%s", (_, c, expected) => {
    const { ours, theirs } = both(c);
    expect(theirs().href).toBe(expected);
    expect(ours().href).toBe(expected);
  });

  it("AUTH_URL with a path other than basePath: both warn env-url-basepath-mismatch and use basePath on AUTH_URL's origin", () => {
    const run = both({ env: { AUTH_URL: "https://app.example.com/api/auth" }, config: { basePath: "/auth" } });
    expect([run.ours().href, run.theirs().href]).toEqual(["https://app.example.com/auth/signin", "https://app.example.com/auth/signin"]);
    expect(run.oursWarnings).toEqual(["env-url-basepath-mismatch"]);
    expect(run.theirsWarnings).toEqual(["env-url-basepath-mismatch"]);
  });

  it("isAuthAction is exported as in Auth.js, and knows the actions the handler has", () => {
    expect(["signin", "callback", "session", "csrf", "providers", "signout", "error", "verify-request", "webauthn-options"].every(isAuthAction)).toBe(true);
    expect(["account", "signup"].every(isAuthAction)).toBe(true);
    expect(["", "admin", "../signin", "constructor", "__proto__", 1, null].some((v) => isAuthAction(v as string))).toBe(false);
  });
});

describe("where ours refuses or differs, on purpose", () => {
  it("an untrusted host without AUTH_URL: UntrustedHost (Auth.js builds a URL on whatever X-Forwarded-Host says)", () => {
    const run = both({
      env: { NODE_ENV: "production" },
      config: { trustHost: false, basePath: "/auth" },
      headers: { host: "app.example.com", "x-forwarded-host": "evil.example" },
    });
    expect(run.theirs().href).toBe("https://evil.example/auth/signin");
    expect(run.ours).toThrow(UntrustedHost);
  });

  it("trust from NODE_ENV (no trustHost, no AUTH_TRUST_HOST) covers the Host, not X-Forwarded-Host, as in the handler", () => {
    const run = both({ env: { NODE_ENV: "development" }, config: { basePath: "/auth" }, headers: { host: "localhost:5173", "x-forwarded-host": "evil.example" }, protocol: "http:" });
    expect(run.theirs().href).toBe("http://evil.example/auth/signin");
    expect(run.ours().href).toBe("http://localhost:5173/auth/signin");
  });

  it.each([
    ["a path and query", "evil.example/phish?x="],
    ["markup", '"><script>alert(1)</script>'],
    ["credentials", "user@evil.example"],
    ["a second host", "a.example b.example"],
  ])("a malformed X-Forwarded-Host (%s) is ignored for the Host header, as in the handler", (_, forwarded) => {
    const run = both({ config: TRUSTED, protocol: "https:", headers: { host: "app.example.com", "x-forwarded-host": forwarded } });
    expect(run.ours().href).toBe("https://app.example.com/auth/signin");
    let theirs: string;
    try {
      theirs = run.theirs().href;
    } catch (error) {
      theirs = String(error);
    }
    expect(theirs).not.toBe("https://app.example.com/auth/signin");
  });

  it("no Host header and nothing forwarded: InvalidRequest (Auth.js: https://null/auth/signin)", () => {
    const run = both({ config: TRUSTED, headers: {} });
    expect(run.theirs().href).toBe("https://null/auth/signin");
    expect(run.ours).toThrow(InvalidRequest);
  });

  it.each([
    ["a malformed Host", { host: "app.example.com/evil" }],
    ["a Host with markup", { host: "<x>" }],
  ])("%s: InvalidRequest", (_, headers) => {
    expect(both({ config: TRUSTED, headers }).ours).toThrow(InvalidRequest);
  });

  it("a protocol other than http(s): InvalidRequest (Auth.js builds javascript://...)", () => {
    const run = both({ config: TRUSTED, protocol: "javascript:" });
    expect(run.theirs().href).toBe("javascript://app.example.com/auth/signin");
    expect(run.ours).toThrow(InvalidRequest);
  });

  it("a malformed AUTH_URL: InvalidConfig saying so (Auth.js: TypeError Invalid URL)", () => {
    const run = both({ env: { AUTH_URL: "not a url" }, config: { basePath: "/auth" } });
    expect(run.theirs).toThrow(TypeError);
    expect(run.ours).toThrow(InvalidConfig);
    expect(run.ours).toThrow(/AUTH_URL/);
  });

  it("a malformed basePath: InvalidConfig", () => {
    expect(both({ config: { trustHost: true, basePath: "/auth?x=1" } }).ours).toThrow(InvalidConfig);
  });

  it("an action the handler does not have: UnknownAction (Auth.js resolves ../ out of the base path)", () => {
    const run = both({ config: TRUSTED, action: "../../admin" as AuthAction });
    expect(run.theirs().href).toBe("https://app.example.com/admin");
    expect(run.ours).toThrow(UnknownAction);
  });

  it("no basePath and no AUTH_URL: the handler's default /auth (Auth.js leaves the base path out)", () => {
    const run = both({ config: { trustHost: true }, protocol: "https:" });
    expect(run.theirs().href).toBe("https://app.example.com/signin");
    expect(run.ours().href).toBe("https://app.example.com/auth/signin");
  });

  it("NEXTAUTH_URL is not read, as the handler does not read it (Auth.js's createActionURL does)", () => {
    const run = both({ env: { NEXTAUTH_URL: "https://old.example.com" }, config: TRUSTED, protocol: "https:" });
    expect(run.theirs().href).toBe("https://old.example.com/auth/signin");
    expect(run.ours().href).toBe("https://app.example.com/auth/signin");
  });

  it("X-Forwarded-Proto without X-Forwarded-Host gives the scheme, as Auth.js reads it (the handler does the same)", () => {
    const run = both({ config: TRUSTED, protocol: "http:", headers: { host: "app.example.com", "x-forwarded-proto": "https" } });
    expect(run.theirs().href).toBe("https://app.example.com/auth/signin");
    expect(run.ours().href).toBe("https://app.example.com/auth/signin");
  });
});

describe("the URL it gives is one the handler answers on", () => {
  it.each([
    ["AUTH_URL", { url: "https://app.example.com" }, { host: "internal:3000" }],
    ["a trusted forwarded host", { trustHost: true }, { host: "internal:3000", "x-forwarded-host": "public.example.com", "x-forwarded-proto": "https" }],
    ["a trusted Host, a custom basePath", { trustHost: true, basePath: "/api/auth" }, { host: "localhost:3000" }],
  ])("%s: the sign-out page it names posts back to the same URL", async (_, overrides, headerRecord) => {
    const config = credentialsConfig(overrides);
    const headers = new Headers(headerRecord);
    const signout = createActionURL("signout", "http:", headers, {}, config);
    const response = await Auth(new Request(signout, { headers }), config);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`action="${signout.href}"`);
    const session = await Auth(new Request(createActionURL("session", "http:", headers, {}, config), { headers }), config);
    expect(session.status).toBe(200);
  });
});
