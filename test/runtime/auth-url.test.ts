/**
 * A malformed AUTH_URL (or `url` in the config): the handler says what is wrong
 * once, in the log, naming AUTH_URL and the problem, and answers every request
 * with the generic Configuration error: the JSON one for JSON actions, the error
 * page for pages, nothing stored. `@auth/core` instead swallows the value in
 * `setEnvDefaults` (the host is trusted because AUTH_URL is set) and throws a
 * bare TypeError from `createActionURL`, which its framework packages call on
 * every session read, or builds a URL that is not the app's.
 */
import { createActionURL as authJsCreateActionURL, setEnvDefaults as authJsSetEnvDefaults } from "@auth/core";
import { setEnvDefaults, type AuthConfig } from "@gatehouse/runtime";
import { describe, expect, it } from "vitest";
import { CookieJar, SECRET, call, captureLogger, credentialsConfig, setCookies } from "../helpers.js";
import { MALFORMED_AUTH_URLS } from "./malformed-auth-urls.js";


function fromEnv(authUrl: string, logger = captureLogger().logger): AuthConfig {
  const { secret: _s, trustHost: _t, ...rest } = credentialsConfig({ logger });
  return setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_URL: authUrl }, rest);
}

describe.each(MALFORMED_AUTH_URLS)("AUTH_URL=%j", (authUrl, problem) => {
  it("every request answers the Configuration error (JSON for JSON actions, the page for pages); the log names AUTH_URL and the problem, once", async () => {
    const logs = captureLogger();
    const config = fromEnv(authUrl, logs.logger);
    for (const path of ["/auth/session", "/auth/csrf", "/auth/providers"]) {
      const res = await call(config, path);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: "Configuration", message: "There is a problem with the server configuration. Check the server logs." });
      expect(setCookies(res)).toEqual([]);
    }
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error"]) {
      const res = await call(config, path);
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await res.text()).toContain("There is a problem with the server configuration");
    }
    expect(logs.errors).toHaveLength(1);
    expect(logs.errors[0]!.name).toBe("InvalidConfig");
    expect(logs.errors[0]!.message).toContain(`AUTH_URL (or \`url\` in the config) is ${JSON.stringify(authUrl)}`);
    expect(logs.errors[0]!.message).toMatch(problem);
  });

  it("a sign-in POST stores nothing and signs no one in", async () => {
    const config = fromEnv(authUrl);
    const jar = new CookieJar();
    const res = await call(config, "/auth/callback/credentials", { jar, form: { username: "ada", password: "correct horse", csrfToken: "x" } });
    expect(res.status).toBe(500);
    expect(setCookies(res)).toEqual([]);
  });

  it("the same from `url` in the config object", async () => {
    const logs = captureLogger();
    const res = await call(credentialsConfig({ url: authUrl, trustHost: undefined, logger: logs.logger }), "/auth/session");
    expect(res.status).toBe(500);
    expect(logs.errors[0]!.message).toMatch(problem);
  });

  it("@auth/core: setEnvDefaults swallows it, and createActionURL throws a bare TypeError or builds a URL that is not the app's", () => {
    const config = { providers: [] } as { providers: never[]; basePath?: string; trustHost?: boolean };
    authJsSetEnvDefaults({ AUTH_URL: authUrl }, config as never);
    // No error anywhere: the host is trusted (AUTH_URL is set), and the base path is /auth or whatever the parser made of it.
    expect(config.trustHost).toBe(true);
    let actionUrl: string;
    try {
      actionUrl = authJsCreateActionURL("session", "https", new Headers({ host: "localhost:3000" }), { AUTH_URL: authUrl }, config as never).href;
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      return;
    }
    // Where it parses ("localhost:3000" as the scheme `localhost:`, ftp:), the session URL it builds is not the app's.
    expect(actionUrl).not.toMatch(/^https?:\/\/localhost:3000\/auth\/session$/);
  });
});

it("`url` that is not a string or URL is named as such", async () => {
  const logs = captureLogger();
  await call(credentialsConfig({ url: 42 as never, logger: logs.logger }), "/auth/session");
  expect(logs.errors[0]!.message).toMatch(/is "42": it is a number, not a string/);
});

it.each(["https://example.com", "http://localhost:3000/auth", " https://example.com/auth "])("a well-formed AUTH_URL %j still works", async (authUrl) => {
  const res = await call(fromEnv(authUrl), "/auth/providers");
  expect(res.status).toBe(200);
  expect((await res.json()).credentials.signinUrl).toMatch(/^https?:\/\/(example\.com|localhost:3000)\/auth\/signin\/credentials$/);
});
