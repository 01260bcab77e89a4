/**
 * Drop-in compatibility with Auth.js (`@auth/core` 0.41.3, a devDependency): the
 * same config object runs on both, their sessions are interchangeable, and the
 * `raw` symbol and warning codes behave as documented.
 */
import { Auth as AuthJsOverloaded } from "@auth/core";
import AuthJsCredentials from "@auth/core/providers/credentials";
import { Auth, raw, skipCSRFCheck, type AuthConfig, type ResponseInternal } from "@gatehouse/runtime";
import { describe, expect, it } from "vitest";
import { CookieJar, ORIGIN, SECRET, USER, call, captureLogger, credentialsConfig, csrfToken, request, signInWithCredentials } from "../helpers.js";

const quiet = { error() {}, warn() {}, debug() {} };
/** Auth.js's handler, typed for the plain-Response overload (our AuthConfig is structurally its own). */
const AuthJs = AuthJsOverloaded as unknown as (request: Request, config: unknown) => Promise<Response>;

/** A config written for Auth.js: its own Credentials factory, its callback shapes. */
function authJsStyleConfig(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    providers: [
      AuthJsCredentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: (c) => (c.username === "ada" && c.password === "correct horse" ? { ...USER } : null),
      }) as AuthConfig["providers"][number],
    ],
    callbacks: {
      jwt: ({ token, user }) => (user ? { ...token, role: "admin" } : token),
      session: ({ session, token }: { session: any; token: any }) => ({ ...session, role: token.role }),
    },
  };
}

async function authJsCall(config: AuthConfig, path: string, jar: CookieJar, form?: Record<string, string>): Promise<Response> {
  const response = await AuthJs(request(path, { jar, form }), config);
  jar.store(response);
  return response;
}

describe("a config written for @auth/core", () => {
  it("signs in on gatehouse with Auth.js's own Credentials factory and callbacks", async () => {
    const config = authJsStyleConfig();
    const jar = new CookieJar();
    const response = await signInWithCredentials(config, jar);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
    const session = await (await call(config, "/auth/session", { jar })).json();
    expect(session).toMatchObject({ user: { name: USER.name, email: USER.email }, role: "admin" });
  });

  it("a session signed in on Auth.js is read by gatehouse, and the other way round", async () => {
    const config = authJsStyleConfig();

    const authJsJar = new CookieJar();
    const { csrfToken: authJsToken } = (await (await authJsCall(config, "/auth/csrf", authJsJar)).json()) as { csrfToken: string };
    const signedIn = await authJsCall(config, "/auth/callback/credentials", authJsJar, {
      csrfToken: authJsToken,
      username: "ada",
      password: "correct horse",
    });
    expect(signedIn.status).toBe(302);
    const onGatehouse = await (await call(config, "/auth/session", { jar: authJsJar })).json();
    expect(onGatehouse).toMatchObject({ user: { email: USER.email }, role: "admin" });

    const ourJar = new CookieJar();
    await signInWithCredentials(config, ourJar);
    const sessionCookie = ourJar.get("authjs.session-token")!;
    const onAuthJs = await AuthJs(
      new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `authjs.session-token=${sessionCookie}` } }),
      config,
    );
    expect(await onAuthJs.json()).toMatchObject({ user: { email: USER.email }, role: "admin" });
  });

  it("answers the same statuses, redirects and cookie names as Auth.js for the same requests", async () => {
    const config = authJsStyleConfig();
    const cases: [string, Record<string, string> | undefined][] = [
      ["/auth/session", undefined],
      ["/auth/providers", undefined],
      ["/auth/signin", undefined],
      ["/auth/callback/credentials", { username: "ada", password: "wrong" }],
      ["/auth/callback/credentials", { username: "ada", password: "correct horse" }],
    ];
    for (const [path, fields] of cases) {
      const ours = new CookieJar();
      const theirs = new CookieJar();
      const oursToken = await csrfToken(config, ours);
      const { csrfToken: theirsToken } = (await (await authJsCall(config, "/auth/csrf", theirs)).json()) as { csrfToken: string };
      const a = await call(config, path, { jar: ours, form: fields && { ...fields, csrfToken: oursToken } });
      const b = await authJsCall(config, path, theirs, fields && { ...fields, csrfToken: theirsToken });
      // Locations are compared as URLs: gatehouse writes the origin with its "/", Auth.js without.
      const location = (r: Response) => (r.headers.get("location") ? new URL(r.headers.get("location")!).href : null);
      expect([path, a.status, location(a)]).toEqual([path, b.status, location(b)]);
      // Auth.js also stores the default callback URL in a cookie on every first request;
      // gatehouse sets that cookie only for flows that leave the site (OAuth).
      const names = (jar: CookieJar) => [...jar.cookies.keys()].filter((n) => n !== "authjs.callback-url").sort();
      expect([path, ...names(ours)]).toEqual([path, ...names(theirs)]);
    }
  });
});

describe("the raw symbol", () => {
  it("returns the internal response value instead of a Response", async () => {
    const config = { ...credentialsConfig(), raw } as AuthConfig & { raw: typeof raw };
    const result: ResponseInternal = await Auth(request("/auth/csrf"), config);
    expect(result).not.toBeInstanceOf(Response);
    expect(result.body).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(result.cookies?.map((c) => c.name)).toEqual(["authjs.csrf-token"]);
  });

  it("gives errors as values too: a refused sign-in is a redirect value", async () => {
    const jar = new CookieJar();
    const plain = credentialsConfig();
    const token = await csrfToken(plain, jar);
    const config = { ...plain, raw } as AuthConfig & { raw: typeof raw };
    const result = await Auth(
      request("/auth/callback/credentials", { jar, form: { username: "ada", password: "no", csrfToken: token } }),
      config,
    );
    expect(result.redirect).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`);
  });
});

describe("warning codes", () => {
  it("experimental.enableWebAuthn warns experimental-webauthn once per config", async () => {
    const log = captureLogger();
    const config = credentialsConfig({ experimental: { enableWebAuthn: true }, logger: log.logger });
    await call(config, "/auth/session");
    await call(config, "/auth/session");
    expect(log.warnings).toEqual(["experimental-webauthn"]);
  });

  it("skipCSRFCheck warns csrf-disabled, debug warns debug-enabled", async () => {
    const log = captureLogger();
    await call(credentialsConfig({ skipCSRFCheck, debug: true, logger: log.logger }), "/auth/session");
    expect(log.warnings.sort()).toEqual(["csrf-disabled", "debug-enabled"]);
  });
});
