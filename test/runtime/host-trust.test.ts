/**
 * Host trust without AUTH_URL, side by side with `@auth/core` 0.41.3's
 * `setEnvDefaults`: `trustHost = !!(AUTH_URL ?? AUTH_TRUST_HOST ?? VERCEL ??
 * CF_PAGES ?? NODE_ENV !== "production")`. We trust where it does, except:
 * an unset (or other) NODE_ENV is not development, AUTH_TRUST_HOST=false means
 * false, and trust inferred from the platform or NODE_ENV covers the request's
 * own URL, never X-Forwarded-Host. The attack: a forged X-Forwarded-Host
 * steering the links the app builds, above all the sign-in link it mails.
 */
import { createActionURL as authJsCreateActionURL, setEnvDefaults as authJsSetEnvDefaults } from "@auth/core";
import { setEnvDefaults, type AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Credentials, Email } from "@gatehouse/runtime/providers";
import { describe, expect, it } from "vitest";
import { CookieJar, SECRET, USER, call, captureLogger } from "../helpers.js";

const APP = "https://app.example.com";
const FORGED = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

function userConfig(logger = captureLogger().logger, sent: string[] = []): AuthConfig {
  return {
    logger,
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    providers: [
      Credentials({ credentials: { username: {} }, authorize: () => ({ ...USER }) }),
      Email({ sendVerificationRequest: ({ url }) => void sent.push(url) }),
    ],
  };
}

function authJsTrust(env: Record<string, string>): boolean {
  const config = { providers: [] } as { providers: never[]; trustHost?: boolean };
  authJsSetEnvDefaults({ ...env }, config as never);
  return config.trustHost === true;
}

/** The env, what @auth/core decides, what we decide: `url` (AUTH_URL fixes it), `request` (the request's own URL), `forwarded` (X-Forwarded-Host too), or `refused`. */
const CASES: [string, Record<string, string>, boolean, "url" | "request" | "forwarded" | "refused"][] = [
  ["AUTH_URL", { AUTH_URL: APP, NODE_ENV: "production" }, true, "url"],
  ["AUTH_TRUST_HOST=true", { AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true, "forwarded"],
  ["VERCEL=1 (Vercel sets it)", { VERCEL: "1", NODE_ENV: "production" }, true, "request"],
  ["CF_PAGES=1 (Cloudflare Pages sets it)", { CF_PAGES: "1", NODE_ENV: "production" }, true, "request"],
  ["NODE_ENV=development", { NODE_ENV: "development" }, true, "request"],
  ["NODE_ENV=test", { NODE_ENV: "test" }, true, "request"],
  ["NODE_ENV=production", { NODE_ENV: "production" }, false, "refused"],
  // The deliberate differences.
  ["NODE_ENV unset (Auth.js: trusted; here: production)", {}, true, "refused"],
  ["NODE_ENV=staging (Auth.js: trusted; here: production)", { NODE_ENV: "staging" }, true, "refused"],
  ["AUTH_TRUST_HOST=false in development (Auth.js: !!\"false\" is true)", { AUTH_TRUST_HOST: "false", NODE_ENV: "development" }, true, "refused"],
];

describe.each(CASES)("%s", (_, env, authJsTrusts, ours) => {
  it(`@auth/core ${authJsTrusts ? "trusts" : "does not trust"} the host; we ${ours === "refused" ? "refuse to run" : `take the origin from ${ours}`}`, async () => {
    expect(authJsTrust(env)).toBe(authJsTrusts);
    const logs = captureLogger();
    const config = setEnvDefaults({ AUTH_SECRET: SECRET, ...env }, userConfig(logs.logger));
    const res = await call(config, "/auth/providers", { origin: "http://localhost:5173", headers: FORGED });
    if (ours === "refused") {
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ error: "Configuration" });
      expect(logs.errors[0]!.name).toBe("UntrustedHost");
      expect(logs.errors[0]!.message).toMatch(/AUTH_URL.*AUTH_TRUST_HOST=true.*VERCEL.*CF_PAGES.*NODE_ENV=development or test; an unset NODE_ENV counts as production/);
      return;
    }
    expect(res.status).toBe(200);
    const { credentials } = (await res.json()) as Record<string, { signinUrl: string }>;
    const expected = { url: APP, request: "http://localhost:5173", forwarded: "https://evil.example" }[ours];
    expect(credentials!.signinUrl).toBe(`${expected}/auth/signin/credentials`);
  });
});

describe("the attack: a forged X-Forwarded-Host on the sign-in link the app mails", () => {
  async function mailedLinkHost(env: Record<string, string>): Promise<string> {
    const sent: string[] = [];
    const config = setEnvDefaults({ AUTH_SECRET: SECRET, ...env }, userConfig(captureLogger().logger, sent));
    const jar = new CookieJar();
    const { csrfToken: token } = (await (await call(config, "/auth/csrf", { origin: APP, jar })).json()) as { csrfToken: string };
    const res = await call(config, "/auth/signin/email", { origin: APP, jar, headers: FORGED, form: { email: "victim@example.com", csrfToken: token } });
    expect(res.status).toBe(302);
    expect(sent, res.headers.get("location")!).toHaveLength(1);
    return new URL(sent[0]!).origin;
  }

  it.each([
    ["VERCEL=1", { VERCEL: "1" }],
    ["CF_PAGES=1", { CF_PAGES: "1" }],
    ["NODE_ENV=development", { NODE_ENV: "development" }],
  ])("%s: the link stays on the host the request came to", async (_, env) => {
    expect(await mailedLinkHost(env)).toBe(APP);
  });

  it("@auth/core's integrations on CF_PAGES (or in development) build the URL from X-Forwarded-Host: the attacker's host", () => {
    const headers = new Headers({ host: "app.example.com", ...FORGED });
    expect(authJsTrust({ CF_PAGES: "1" })).toBe(true);
    expect(authJsCreateActionURL("signin", "https", headers, { CF_PAGES: "1" }, { basePath: "/auth" } as never).origin).toBe("https://evil.example");
  });

  it("AUTH_TRUST_HOST=true is the operator saying a proxy sets X-Forwarded-Host: it is read (behind that proxy a client cannot forge it)", async () => {
    expect(await mailedLinkHost({ AUTH_TRUST_HOST: "true" })).toBe("https://evil.example");
  });
});

it("an explicit trustHost in the config wins over every variable", () => {
  const explicit = { ...userConfig(), trustHost: false };
  expect(setEnvDefaults({ AUTH_SECRET: SECRET, VERCEL: "1", NODE_ENV: "development" }, explicit).trustHost).toBe(false);
});
