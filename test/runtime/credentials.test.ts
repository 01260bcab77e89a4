/**
 * Credentials sign-in through the handler: POST callback/<id> with a form or JSON
 * body, the session it creates, and every way it can be refused.
 */
import { describe, expect, it, vi } from "vitest";
import { Auth, CredentialsSignin, type AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import {
  ORIGIN,
  SECRET,
  USER,
  CookieJar,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  fetchSession,
  isCleared,
  locationOf,
  printedDuring,
  request,
  sessionSetCookies,
  setCookies,
  signInWithCredentials,
  storesSession,
} from "../helpers.js";

const GOOD = { username: "ada", password: "correct horse" };

/** A config whose `authorize` is the given function. */
function withAuthorize(authorize: (c: any, r: Request) => any, extra: Partial<AuthConfig> = {}): AuthConfig {
  return credentialsConfig({
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize,
      }),
    ],
    ...extra,
  });
}

async function postCredentials(
  config: AuthConfig,
  fields: Record<string, string>,
  options: { json?: boolean; headers?: Record<string, string>; path?: string } = {},
) {
  const jar = new CookieJar();
  const token = await csrfToken(config, jar);
  const path = options.path ?? "/auth/callback/credentials";
  const response = options.json
    ? await call(config, path, { jar, json: { ...fields, csrfToken: token }, headers: options.headers })
    : await call(config, path, { jar, form: { ...fields, csrfToken: token }, headers: options.headers });
  return { jar, response, token };
}

describe("credentials sign-in: success", () => {
  it("signs in with a form body: 302 to the absolute same-origin callbackUrl, session cookie set", async () => {
    const config = credentialsConfig();
    const { jar, response } = await postCredentials(config, { ...GOOD, callbackUrl: "/dashboard" });

    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const [cookie] = sessionSetCookies(response);
    expect(cookie).toBeDefined();
    expect(cookie!.value.length).toBeGreaterThan(0);
    expect(cookie!.attributes.httponly).toBe(true);
    expect(String(cookie!.attributes.samesite).toLowerCase()).toBe("lax");
    expect(cookie!.attributes.path).toBe("/");
    expect(cookie!.attributes.secure).toBeUndefined();
    expect(jar.get("authjs.session-token")).toBeTruthy();
  });

  it("signs in with a JSON body", async () => {
    const config = credentialsConfig();
    const { jar, response } = await postCredentials(config, { ...GOOD, callbackUrl: "/dashboard" }, { json: true });

    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(storesSession(response)).toBe(true);
    const { body } = await fetchSession(config, jar);
    expect(body.user).toEqual({ name: USER.name, email: USER.email, image: USER.image });
  });

  it("without a callbackUrl redirects to the base URL", async () => {
    const { response } = await postCredentials(credentialsConfig(), GOOD);
    expect(response.status).toBe(302);
    expect(locationOf(response).href).toBe(`${ORIGIN}/`);
  });

  it("GET /auth/session afterwards returns {user: {name, email, image}, expires} and nothing more", async () => {
    const config = withAuthorize(() => ({ ...USER, role: "admin", passwordHash: "x$y", internal: { a: 1 } }));
    const jar = new CookieJar();
    const signIn = await signInWithCredentials(config, jar);
    expect(signIn.status).toBe(302);

    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["expires", "user"]);
    expect(body.user).toEqual({ name: USER.name, email: USER.email, image: USER.image });
    expect(new Date(body.expires).toISOString()).toBe(body.expires);
    expect(new Date(body.expires).getTime()).toBeGreaterThan(Date.now());
  });

  it("authorize receives the submitted fields without csrfToken, and the Request", async () => {
    const authorize = vi.fn((_c: any, _r: Request) => ({ ...USER }));
    const config = withAuthorize(authorize);
    const { response } = await postCredentials(config, { ...GOOD, remember: "yes" });

    expect(response.status).toBe(302);
    expect(authorize).toHaveBeenCalledTimes(1);
    const [credentials, req] = authorize.mock.calls[0]!;
    expect(credentials).toEqual({ username: "ada", password: "correct horse", remember: "yes" });
    expect(credentials).not.toHaveProperty("csrfToken");
    expect(req).toBeInstanceOf(Request);
    expect(req.method).toBe("POST");
    expect(new URL(req.url).pathname).toBe("/auth/callback/credentials");
  });

  it("authorize receives JSON fields as sent (without csrfToken)", async () => {
    const authorize = vi.fn((_c: any) => ({ ...USER }));
    const { response } = await postCredentials(withAuthorize(authorize), GOOD, { json: true });
    expect(response.status).toBe(302);
    expect(authorize.mock.calls[0]![0]).toEqual(GOOD);
  });

  it("an async authorize is awaited", async () => {
    const config = withAuthorize(async () => {
      await new Promise((r) => setTimeout(r, 1));
      return { ...USER };
    });
    const { response } = await postCredentials(config, GOOD);
    expect(response.status).toBe(302);
    expect(storesSession(response)).toBe(true);
  });

  it("a provider with a custom id works at /auth/callback/<id>", async () => {
    const config = credentialsConfig({
      providers: [Credentials({ id: "password", authorize: (c) => (c.username === "ada" ? { ...USER } : null) })],
    });
    const { jar, response } = await postCredentials(config, GOOD, { path: "/auth/callback/password" });
    expect(response.status).toBe(302);
    expect(storesSession(response)).toBe(true);
    const { body } = await fetchSession(config, jar);
    expect(body.user.email).toBe(USER.email);

    // The default id is not configured any more.
    const other = await postCredentials(config, GOOD, { path: "/auth/callback/credentials" });
    expect(other.response.status).toBe(400);
    expect(storesSession(other.response)).toBe(false);
  });

  it("X-Auth-Return-Redirect: 1 answers 200 {url} with the session cookie instead of a redirect", async () => {
    const { response } = await postCredentials(
      credentialsConfig(),
      { ...GOOD, callbackUrl: "/dashboard" },
      { headers: { "X-Auth-Return-Redirect": "1" } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ url: `${ORIGIN}/dashboard` });
    expect(storesSession(response)).toBe(true);
  });

  it("on an https origin uses __Host-/__Secure- cookies with the Secure attribute", async () => {
    const origin = "https://app.example.com";
    const config = credentialsConfig();
    const jar = new CookieJar();
    const csrf = await call(config, "/auth/csrf", { jar, origin });
    const csrfCookie = setCookies(csrf).find((c) => c.name === "__Host-authjs.csrf-token");
    expect(csrfCookie).toBeDefined();
    expect(csrfCookie!.attributes.secure).toBe(true);
    expect(csrfCookie!.attributes.path).toBe("/");
    expect(csrfCookie!.attributes.domain).toBeUndefined();
    const { csrfToken: token } = (await csrf.json()) as { csrfToken: string };

    const response = await call(config, "/auth/callback/credentials", {
      jar,
      origin,
      form: { ...GOOD, csrfToken: token, callbackUrl: "/dashboard" },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/dashboard`);
    expect(sessionSetCookies(response, "authjs.session-token")).toEqual([]);
    const [session] = sessionSetCookies(response, "__Secure-authjs.session-token");
    expect(session).toBeDefined();
    expect(session!.attributes.secure).toBe(true);
    expect(session!.attributes.httponly).toBe(true);

    const { body } = await fetchSession(config, jar, origin);
    expect(body?.user?.email).toBe(USER.email);
  });
});

describe("credentials sign-in: refused", () => {
  it("authorize returning null → sign-in page with error=CredentialsSignin&code=credentials, no session", async () => {
    const config = credentialsConfig();
    const { jar, response } = await postCredentials(config, { username: "ada", password: "wrong" });

    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
    expect(location.searchParams.get("code")).toBe("credentials");
    expect(storesSession(response)).toBe(false);
    expect(jar.get("authjs.session-token")).toBeUndefined();
    expect((await fetchSession(config, jar)).body).toBeNull();
  });

  it("authorize returning undefined is refused the same way", async () => {
    const { response } = await postCredentials(withAuthorize(() => undefined), GOOD);
    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
    expect(storesSession(response)).toBe(false);
  });

  it("the sign-in error redirect keeps a same-origin callbackUrl", async () => {
    const { response } = await postCredentials(credentialsConfig(), { username: "x", password: "y", callbackUrl: "/dashboard" });
    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
  });

  it("throwing CredentialsSignin → error=CredentialsSignin&code=credentials, logged as a warning (not an error), no session", async () => {
    const log = captureLogger();
    const config = withAuthorize(() => {
      throw new CredentialsSignin();
    }, { logger: log.logger });
    const { response } = await postCredentials(config, GOOD);

    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
    expect(location.searchParams.get("code")).toBe("credentials");
    expect(storesSession(response)).toBe(false);
    expect(log.warnings).toEqual(["credentials-signin-refused"]);
    expect(log.errors).toEqual([]);
  });

  it("a wrong password with the default logger: one warning line on the console, no error line, nothing of the password", async () => {
    const printed = await printedDuring(async () => {
      // The default logger: the config's own left out.
      const { logger: _captured, ...defaults } = credentialsConfig();
      const { response } = await postCredentials(defaults, { username: "ada", password: "wrong horse" });
      expect(locationOf(response).searchParams.get("error")).toBe("CredentialsSignin");
    });
    expect(printed.errors).toEqual([]);
    expect(printed.warnings).toHaveLength(1);
    const [line] = printed.warnings;
    expect(line).toMatch(/^\[auth\]\[warn\]\[credentials-signin-refused\] A credentials sign-in was refused/);
    expect(String(line)).not.toContain("wrong horse");
  });

  it("an authorize that fails (not a refusal) is still an error in the log", async () => {
    const log = captureLogger();
    const config = withAuthorize(() => {
      throw new Error("the user store is down");
    }, { logger: log.logger });
    await postCredentials(config, GOOD);
    expect(log.warnings).not.toContain("credentials-signin-refused");
    expect(log.errors).toHaveLength(1);
  });

  it("a CredentialsSignin subclass sets its own code", async () => {
    class InvalidLogin extends CredentialsSignin {
      override code = "invalid_login";
    }
    const config = withAuthorize(() => {
      throw new InvalidLogin();
    });
    const { response } = await postCredentials(config, GOOD);
    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
    expect(location.searchParams.get("code")).toBe("invalid_login");
    expect(storesSession(response)).toBe(false);
  });

  it("a plain Error thrown by authorize → the error page with error=ServerError (not Configuration), full error logged, no session", async () => {
    const log = captureLogger();
    const config = withAuthorize(() => {
      throw new Error("database is down: secret-host:5432");
    }, { logger: log.logger });
    const { response } = await postCredentials(config, GOOD);

    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("ServerError");
    expect(location.searchParams.get("code")).toBeNull();
    // The browser never sees the original message.
    expect(location.href).not.toContain("database");
    expect(storesSession(response)).toBe(false);

    expect(log.errors.length).toBeGreaterThan(0);
    const logged = log.errors.find((e) => {
      const cause = (e as { cause?: { err?: Error } }).cause;
      return cause?.err?.message === "database is down: secret-host:5432";
    });
    expect(logged).toBeDefined();
  });

  it("authorize returning a non-object → the error page with error=ServerError, no session", async () => {
    const log = captureLogger();
    const { response } = await postCredentials(withAuthorize(() => "ada", { logger: log.logger }), GOOD);
    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("ServerError");
    expect(storesSession(response)).toBe(false);
    expect(log.errors.length).toBeGreaterThan(0);
  });

  it("X-Auth-Return-Redirect: 1 answers 200 {url} for a CredentialsSignin error too", async () => {
    const { response } = await postCredentials(
      credentialsConfig(),
      { username: "ada", password: "wrong" },
      { headers: { "X-Auth-Return-Redirect": "1" } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    const { url } = (await response.json()) as { url: string };
    const parsed = new URL(url);
    expect(parsed.origin).toBe(ORIGIN);
    expect(parsed.pathname).toBe("/auth/signin");
    expect(parsed.searchParams.get("error")).toBe("CredentialsSignin");
    expect(parsed.searchParams.get("code")).toBe("credentials");
    expect(storesSession(response)).toBe(false);
  });

  it("X-Auth-Return-Redirect: 1 answers 200 {url} of the error page for a thrown plain Error", async () => {
    const config = withAuthorize(() => {
      throw new Error("db down");
    }, { logger: captureLogger().logger });
    const { response } = await postCredentials(config, GOOD, { headers: { "X-Auth-Return-Redirect": "1" } });
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    expect(new URL(url).pathname).toBe("/auth/error");
    expect(new URL(url).searchParams.get("error")).toBe("ServerError");
    expect(url).not.toContain("db down");
    expect(storesSession(response)).toBe(false);
  });

  it("pages.signIn sends credential errors to the app's page", async () => {
    const config = withAuthorize(() => null, { pages: { signIn: "/login" } });
    const { response } = await postCredentials(config, GOOD);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
    expect(location.searchParams.get("code")).toBe("credentials");

    class Locked extends CredentialsSignin {
      override code = "locked";
    }
    const thrown = withAuthorize(() => {
      throw new Locked();
    }, { pages: { signIn: "/login" } });
    const second = locationOf((await postCredentials(thrown, GOOD)).response);
    expect(second.pathname).toBe("/login");
    expect(second.searchParams.get("code")).toBe("locked");
  });

  it("without a CSRF token → MissingCSRF on the sign-in page, authorize not called, no session", async () => {
    const authorize = vi.fn(() => ({ ...USER }));
    const config = withAuthorize(authorize);
    const jar = new CookieJar();
    await csrfToken(config, jar);
    const response = await call(config, "/auth/callback/credentials", { jar, form: GOOD });

    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("MissingCSRF");
    expect(authorize).not.toHaveBeenCalled();
    expect(storesSession(response)).toBe(false);
  });

  it("with a wrong CSRF token or no CSRF cookie → MissingCSRF, no session", async () => {
    const authorize = vi.fn(() => ({ ...USER }));
    const config = withAuthorize(authorize);
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);

    const wrong = await call(config, "/auth/callback/credentials", { jar, form: { ...GOOD, csrfToken: "0".repeat(64) } });
    expect(locationOf(wrong).searchParams.get("error")).toBe("MissingCSRF");
    expect(storesSession(wrong)).toBe(false);

    const noCookie = await call(config, "/auth/callback/credentials", { form: { ...GOOD, csrfToken: token } });
    expect(locationOf(noCookie).searchParams.get("error")).toBe("MissingCSRF");
    expect(storesSession(noCookie)).toBe(false);

    const nonString = await call(config, "/auth/callback/credentials", { jar, json: { ...GOOD, csrfToken: [token] } });
    expect(nonString.status).not.toBe(500);
    expect(storesSession(nonString)).toBe(false);
    expect(authorize).not.toHaveBeenCalled();
  });

  it("GET /auth/callback/credentials is a 400 client error, not a sign-in", async () => {
    const authorize = vi.fn(() => ({ ...USER }));
    const response = await call(withAuthorize(authorize), "/auth/callback/credentials?username=ada&password=correct+horse");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(authorize).not.toHaveBeenCalled();
    expect(storesSession(response)).toBe(false);
  });

  it("an unknown provider id is a 400 naming the configured providers", async () => {
    const { response } = await postCredentials(credentialsConfig(), GOOD, { path: "/auth/callback/nope" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string };
    expect(body.message).toContain("credentials");
    expect(storesSession(response)).toBe(false);
  });
});

describe("credentials with a database session strategy", () => {
  it.each([
    ["without an adapter", {}],
    ["with an adapter", { adapter: {} }],
  ])("is a Configuration error (%s): 500, logged, no session", async (_name, extra) => {
    const log = captureLogger();
    const config = credentialsConfig({ session: { strategy: "database" }, logger: log.logger, ...extra });
    const jar = new CookieJar();

    const csrf = await call(config, "/auth/csrf", { jar });
    expect(csrf.status).toBe(500);
    expect(await csrf.json()).toMatchObject({ error: "Configuration" });

    const response = await Auth(
      request("/auth/callback/credentials", { form: { ...GOOD, csrfToken: "x" } }),
      config as Omit<AuthConfig, "raw">,
    );
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("problem with the server configuration");
    expect(storesSession(response)).toBe(false);

    const session = await call(config, "/auth/session");
    expect(session.status).toBe(500);
    expect(await session.json()).toMatchObject({ error: "Configuration" });
    expect(log.errors.length).toBeGreaterThan(0);
  });
});

describe("credentials sign-in: cookies", () => {
  it("a failed sign-in does not clear an existing session either", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const failed = await signInWithCredentials(config, jar, { username: "ada", password: "wrong" });
    expect(locationOf(failed).searchParams.get("error")).toBe("CredentialsSignin");
    expect(sessionSetCookies(failed).filter((c) => !isCleared(c))).toEqual([]);
  });

  it("the session cookie is an encrypted token, not the user data in clear", async () => {
    const { response } = await postCredentials(credentialsConfig(), GOOD);
    const [cookie] = sessionSetCookies(response);
    expect(cookie!.value.split(".")).toHaveLength(5); // compact JWE
    expect(cookie!.value).not.toContain(USER.email);
    expect(cookie!.value).not.toContain(SECRET);
  });
});
