/**
 * Routing: every action of the endpoint table on its methods, and every path or
 * method outside it answered with a 400 JSON `{error, message}`; providers that
 * this version cannot run answer a Configuration error instead of crashing.
 */
import { describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import {
  CookieJar,
  ORIGIN,
  SECRET,
  USER,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  request,
  setCookies,
  signInWithCredentials,
} from "../helpers.js";

import { Auth } from "@gatehouse/runtime";

/** An OAuth provider without its client id and secret (env not filled in yet). */
const github = {
  id: "github",
  name: "GitHub",
  type: "oauth" as const,
  authorization: "https://github.com/login/oauth/authorize",
  token: "https://github.com/login/oauth/access_token",
  userinfo: "https://api.github.com/user",
};

interface ErrorBody {
  error: string;
  message: string;
}

async function expectJsonError(response: Response, status: number): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as ErrorBody;
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(10);
  return body;
}

function sessionCookiesSet(response: Response): string[] {
  return setCookies(response)
    .filter((c) => c.name.includes("session-token") && c.value !== "")
    .map((c) => c.name);
}

describe("every action of the endpoint table answers on its methods", () => {
  it("GET csrf returns a token as JSON", async () => {
    const res = await call(credentialsConfig(), "/auth/csrf");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await res.json()) as { csrfToken: string }).csrfToken).toMatch(/^[0-9a-f]{64}$/);
  });

  it("GET error renders the error page (the error query selects the message)", async () => {
    const config = credentialsConfig();
    const plain = await call(config, "/auth/error");
    expect(plain.headers.get("content-type")).toMatch(/^text\/html/);
    expect(plain.status).toBeLessThan(500);
    expect(await plain.text()).toContain("<h1>");

    const denied = await call(config, "/auth/error?error=AccessDenied");
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain("Access Denied");

    const configuration = await call(config, "/auth/error?error=Configuration");
    expect(configuration.status).toBe(500);
    expect(await configuration.text()).toContain("server configuration");
  });

  it("GET providers lists the providers as JSON", async () => {
    const res = await call(credentialsConfig(), "/auth/providers");
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()) as object)).toEqual(["credentials"]);
  });

  it("GET session answers null without a session", async () => {
    const res = await call(credentialsConfig(), "/auth/session");
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
  });

  it("GET session answers the session of a signed-in user", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const res = await call(config, "/auth/session", { jar });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { name: string; email: string } };
    expect(body.user.name).toBe(USER.name);
    expect(body.user.email).toBe(USER.email);
  });

  it.each(["signin", "signout", "verify-request"])("GET %s renders an HTML page", async (action) => {
    const res = await call(credentialsConfig(), `/auth/${action}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/<html/i);
  });

  it("GET callback/credentials is a 400: credentials are submitted by POST", async () => {
    const res = await call(credentialsConfig(), "/auth/callback/credentials");
    const body = await expectJsonError(res, 400);
    expect(body.message).toContain("POST");
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it("POST session with a valid CSRF token answers (null without a session)", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/session", { jar, json: { csrfToken: token } });
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
  });

  it("POST signin (no provider) redirects to the sign-in page", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/signin", { jar, form: { csrfToken: token } });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).pathname).toBe("/auth/signin");
  });

  it("POST signin/credentials redirects to the sign-in form", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/signin/credentials", { jar, form: { csrfToken: token } });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).pathname).toBe("/auth/signin");
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it("POST callback/credentials signs in and redirects", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const res = await signInWithCredentials(config, jar);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(sessionCookiesSet(res)).toEqual(["authjs.session-token"]);
  });

  it("POST signout clears the session and redirects", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/signout", { jar, form: { csrfToken: token } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`);
    const cleared = setCookies(res).find((c) => c.name === "authjs.session-token");
    expect(cleared?.value).toBe("");
    expect(cleared?.attributes["max-age"]).toBe("0");
    const after = await call(config, "/auth/session", { jar });
    expect(await after.json()).toBeNull();
  });
});

describe("HEAD", () => {
  it("is answered like GET on GET actions (servers drop the body), and refused where only POST exists", async () => {
    const config = credentialsConfig();
    const session = await Auth(request("/auth/session", { method: "HEAD" }), config);
    expect(session.status).toBe(200);
    expect(session.headers.get("content-type")).toBe("application/json");
    const page = await Auth(request("/auth/signin", { method: "HEAD" }), config);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    // A HEAD never runs a POST handler: the credentials callback refuses GET, so HEAD too.
    const callback = await Auth(request("/auth/callback/credentials", { method: "HEAD" }), config);
    expect(callback.status).toBe(400);
    expect(sessionCookiesSet(callback)).toEqual([]);
  });
});

describe("paths and methods outside the table: 400 JSON with a clear message", () => {
  it("an unknown action lists the actions that exist", async () => {
    const body = await expectJsonError(await call(credentialsConfig(), "/auth/nope"), 400);
    expect(body.error).toBe("UnknownAction");
    expect(body.message).toContain("nope");
    for (const action of ["session", "csrf", "signin", "signout", "callback", "providers"]) {
      expect(body.message).toContain(action);
    }
  });

  it.each([
    ["PUT", "/auth/session", "session"],
    ["DELETE", "/auth/session", "session"],
    ["PATCH", "/auth/session", "session"],
    ["POST", "/auth/csrf", "csrf"],
    ["POST", "/auth/providers", "providers"],
    ["POST", "/auth/error", "error"],
    ["POST", "/auth/verify-request", "verify-request"],
    ["DELETE", "/auth/signout", "signout"],
    ["PUT", "/auth/callback/credentials", "callback"],
  ])("%s %s is a 400 that names the method and the methods allowed", async (method, path, action) => {
    const logs = captureLogger();
    const config = credentialsConfig({ logger: logs.logger });
    const res = await Auth(request(path, { method }), config);
    const body = await expectJsonError(res, 400);
    expect(body.error).toBe("UnknownAction");
    expect(body.message).toContain(action);
    expect(body.message).toContain(method);
    expect(body.message).toMatch(/GET/);
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it.each(["/other/session", "/authx/session", "/auth", "/", "/api/auth/session"])(
    "%s (outside the base path) is a 400 that names the base path",
    async (path) => {
      const body = await expectJsonError(await call(credentialsConfig(), path), 400);
      expect(body.error).toBe("UnknownAction");
      expect(body.message).toContain("/auth");
    },
  );

  it.each([
    "/auth/session/x",
    "/auth/csrf/extra",
    "/auth/signin/credentials/x",
    "/auth/callback/credentials/extra/more",
    "/auth/providers/github",
  ])("%s (extra segments) is a 400", async (path) => {
    const body = await expectJsonError(await call(credentialsConfig(), path), 400);
    expect(body.error).toBe("UnknownAction");
    expect(body.message).toContain(path);
  });

  it.each(["/auth/", "/auth//session", "/auth/signin//", "/auth/callback//credentials", "/auth//"])(
    "%s (empty segments) is a 400",
    async (path) => {
      const body = await expectJsonError(await call(credentialsConfig(), path), 400);
      expect(body.error).toBe("UnknownAction");
    },
  );

  it("an empty segment on a POST is a 400 too and signs nobody in", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth//callback/credentials", {
      jar,
      form: { username: "ada", password: "correct horse", csrfToken: token },
    });
    await expectJsonError(res, 400);
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it("one trailing slash is accepted", async () => {
    const res = await call(credentialsConfig(), "/auth/session/");
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
  });
});

describe("custom basePath", () => {
  it.each(["/api/auth", "/api/auth/"])("basePath %s serves every action under it", async (basePath) => {
    const config = credentialsConfig({ basePath });
    const jar = new CookieJar();
    const token = await csrfToken(config, jar, "/api/auth");
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    const signIn = await call(config, "/api/auth/callback/credentials", {
      jar,
      form: { username: "ada", password: "correct horse", csrfToken: token },
    });
    expect(signIn.status).toBe(302);
    expect(sessionCookiesSet(signIn)).toEqual(["authjs.session-token"]);

    const session = await call(config, "/api/auth/session", { jar });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { name: string } }).user.name).toBe(USER.name);

    const providers = (await (await call(config, "/api/auth/providers")).json()) as Record<string, { signinUrl: string }>;
    expect(providers.credentials!.signinUrl).toBe(`${ORIGIN}/api/auth/signin/credentials`);

    const page = await call(config, "/api/auth/signin");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("/api/auth/callback/credentials");
  });

  it("with basePath /api/auth the default /auth paths are outside it", async () => {
    const config = credentialsConfig({ basePath: "/api/auth" });
    const body = await expectJsonError(await call(config, "/auth/session"), 400);
    expect(body.message).toContain("/api/auth");
    await expectJsonError(await call(config, "/api/authx/session"), 400);
  });

  it("errors after a failed check redirect under the custom basePath", async () => {
    const config = credentialsConfig({ basePath: "/api/auth" });
    const res = await call(config, "/api/auth/signout", { form: { csrfToken: "x" } });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.pathname).toBe("/api/auth/signin");
    expect(location.searchParams.get("error")).toBe("MissingCSRF");
  });
});

describe("actions that need what this version does not bring: Configuration error, not a crash", () => {
  it("webauthn-options in an app without passkeys is a 400 JSON, as an unknown path is", async () => {
    const config = credentialsConfig();
    for (const path of ["/auth/webauthn-options", "/auth/webauthn-options/passkey"]) {
      const body = await expectJsonError(await call(config, path), 400);
      expect(body.error).toBe("UnknownAction");
      expect(body.message).toContain("enableWebAuthn");
    }
  });

  it.each([
    ["a plain object", () => github],
    ["a factory function", () => () => ({ ...github })],
  ])("an oauth provider without a client id, given as %s: POST signin/github redirects to ?error=Configuration and logs which env keys to set", async (_, make) => {
    const logs = captureLogger();
    const base = credentialsConfig();
    const config: AuthConfig = { ...base, logger: logs.logger, providers: [...base.providers, make() as never] };
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const res = await call(config, "/auth/signin/github", { jar, form: { csrfToken: token } });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("Configuration");
    expect(sessionCookiesSet(res)).toEqual([]);
    const missing = logs.errors.find((e) => (e as { type?: string }).type === "InvalidProvider");
    expect(missing).toBeDefined();
    expect(missing!.message).toContain("AUTH_GITHUB_ID");
    expect(missing!.message).toContain("AUTH_GITHUB_SECRET");

    // The provider still appears in the providers list and on the sign-in page.
    const providers = (await (await call(config, "/auth/providers")).json()) as Record<string, { name: string; type: string }>;
    expect(providers.github).toMatchObject({ id: "github", name: "GitHub", type: "oauth" });
  });

  it("GET callback/github of a provider without a client id is a Configuration redirect, not a crash", async () => {
    const logs = captureLogger();
    const config: AuthConfig = { ...credentialsConfig(), logger: logs.logger, providers: [github] };
    const res = await call(config, "/auth/callback/github?code=abc&state=xyz");
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("Configuration");
    expect(logs.errors.some((e) => (e as { type?: string }).type === "InvalidProvider")).toBe(true);
  });
});

describe("unknown providers", () => {
  const config = (): AuthConfig => {
    const base = credentialsConfig();
    return { ...base, providers: [...base.providers, github] };
  };

  it.each(["/auth/signin/nope", "/auth/callback/nope"])("POST %s is a 400 JSON that names the configured ids", async (path) => {
    const c = config();
    const jar = new CookieJar();
    const token = await csrfToken(c, jar);
    const res = await call(c, path, { jar, form: { csrfToken: token, username: "ada", password: "correct horse" } });
    const body = await expectJsonError(res, 400);
    expect(body.message).toContain("nope");
    expect(body.message).toContain("credentials");
    expect(body.message).toContain("github");
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it("GET callback/nope is a 400 JSON too", async () => {
    const body = await expectJsonError(await call(config(), "/auth/callback/nope"), 400);
    expect(body.message).toContain("nope");
    expect(body.message).toContain("credentials");
  });
});

describe("GET providers", () => {
  const config = (overrides: Partial<AuthConfig> = {}): AuthConfig => {
    const base = credentialsConfig(overrides);
    return { ...base, providers: [...base.providers, github] };
  };

  it("lists providers keyed by id with URLs on the request origin", async () => {
    const res = await call(config(), "/auth/providers");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${ORIGIN}/auth/signin/credentials`,
        callbackUrl: `${ORIGIN}/auth/callback/credentials`,
      },
      github: {
        id: "github",
        name: "GitHub",
        type: "oauth",
        signinUrl: `${ORIGIN}/auth/signin/github`,
        callbackUrl: `${ORIGIN}/auth/callback/github`,
      },
    });
  });

  it("never exposes provider functions or secrets", async () => {
    const text = await (await call(config(), "/auth/providers")).text();
    expect(text).not.toContain("authorize");
    expect(text).not.toContain(SECRET);
  });

  it("uses another request origin as given", async () => {
    const res = await call(config(), "/auth/providers", { origin: "http://127.0.0.1:5173" });
    const body = (await res.json()) as Record<string, { signinUrl: string; callbackUrl: string }>;
    expect(body.github!.signinUrl).toBe("http://127.0.0.1:5173/auth/signin/github");
    expect(body.github!.callbackUrl).toBe("http://127.0.0.1:5173/auth/callback/github");
  });

  it("uses X-Forwarded-Host / X-Forwarded-Proto when the host is trusted", async () => {
    const res = await call(config({ trustHost: true }), "/auth/providers", {
      headers: { "x-forwarded-host": "public.example.org", "x-forwarded-proto": "https" },
    });
    const body = (await res.json()) as Record<string, { signinUrl: string; callbackUrl: string }>;
    expect(body.github!.signinUrl).toBe("https://public.example.org/auth/signin/github");
    expect(body.credentials!.callbackUrl).toBe("https://public.example.org/auth/callback/credentials");
  });

  it("behind a proxy that keeps Host and sets only X-Forwarded-Proto (nginx's usual setup): https links and __Secure- cookies", async () => {
    const trusted = config({ trustHost: true });
    const headers = { "x-forwarded-proto": "https" };
    const res = await call(trusted, "/auth/providers", { headers });
    const body = (await res.json()) as Record<string, { signinUrl: string }>;
    expect(body.github!.signinUrl).toBe("https://localhost:3000/auth/signin/github");
    const csrf = await call(trusted, "/auth/csrf", { headers });
    expect(setCookies(csrf).map((c) => c.name)).toEqual(["__Host-authjs.csrf-token"]);
    // A proto that is not http(s) is not a scheme to build links on: the request's own.
    const odd = await call(trusted, "/auth/providers", { headers: { "x-forwarded-proto": "javascript" } });
    expect(((await odd.json()) as Record<string, { signinUrl: string }>).github!.signinUrl).toBe(`${ORIGIN}/auth/signin/github`);
    // Without trust, the header is nobody's word.
    const untrusted = await call(config({ url: "http://localhost:3000" }), "/auth/providers", { headers });
    expect(((await untrusted.json()) as Record<string, { signinUrl: string }>).github!.signinUrl).toBe(`${ORIGIN}/auth/signin/github`);
  });

  // Found by test/fuzz: the URL parser takes hosts such as `"`, which then reached Location unescaped.
  it.each([`"`, "a'b.example", "{x}.example", "x;y.example", "a`b"])(
    "ignores an X-Forwarded-Host %j that is not a plain host name, in links and redirects alike",
    async (host) => {
      const trusted = config({ trustHost: true });
      const res = await call(trusted, "/auth/providers", { headers: { "x-forwarded-host": host, "x-forwarded-proto": "https" } });
      const body = (await res.json()) as Record<string, { signinUrl: string }>;
      expect(body.github!.signinUrl).toBe(`${ORIGIN}/auth/signin/github`);

      const jar = new CookieJar();
      const token = await csrfToken(trusted, jar);
      const signOut = await call(trusted, "/auth/signout", { jar, form: { csrfToken: token }, headers: { "x-forwarded-host": host } });
      expect(signOut.status).toBe(302);
      expect(signOut.headers.get("location")).toBe(`${ORIGIN}/`);
    },
  );

  it("still takes a forwarded host with a port, an IPv6 address or underscores", async () => {
    for (const [host, origin] of [
      ["app.example.com:8443", "https://app.example.com:8443"],
      ["[::1]:3000", "https://[::1]:3000"],
      ["internal_host.lan", "https://internal_host.lan"],
    ]) {
      const res = await call(config({ trustHost: true }), "/auth/providers", { headers: { "x-forwarded-host": host!, "x-forwarded-proto": "https" } });
      const body = (await res.json()) as Record<string, { signinUrl: string }>;
      expect(body.github!.signinUrl).toBe(`${origin}/auth/signin/github`);
    }
  });

  it("uses the configured url over the request and forwarded origins", async () => {
    const res = await call(config({ url: "https://app.example.com", trustHost: undefined }), "/auth/providers", {
      headers: { "x-forwarded-host": "evil.example.net", "x-forwarded-proto": "http" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, { signinUrl: string; callbackUrl: string }>;
    expect(body.github!.signinUrl).toBe("https://app.example.com/auth/signin/github");
    expect(body.github!.callbackUrl).toBe("https://app.example.com/auth/callback/github");
  });
});
