/**
 * "Sign in with GitHub" before AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are set:
 * in development (NODE_ENV=development, as a framework's dev server runs) the
 * error page says which keys to set, where to register the app and the callback
 * URL to give it; in production it stays the generic "Server error", and the
 * query can never make it say more than the config knows.
 */
import { describe, expect, it } from "vitest";
import { setEnvDefaults, type AuthConfig } from "@gatehouse/runtime";
import { GitHub, Keycloak } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, locationOf, SECRET } from "../helpers.js";

function config(env: Record<string, string>): AuthConfig {
  return setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_URL: "http://localhost:3000", ...env }, { providers: [GitHub, Keycloak({ issuer: "http://127.0.0.1:1/realms/app" })], logger: captureLogger().logger });
}

async function signInWithGitHub(cfg: AuthConfig): Promise<URL> {
  const jar = new CookieJar();
  const token = await csrfToken(cfg, jar);
  const response = await call(cfg, "/auth/signin/github", { jar, form: { csrfToken: token } });
  expect(response.status).toBe(302);
  return locationOf(response);
}

async function page(cfg: AuthConfig, url: URL): Promise<{ status: number; html: string }> {
  const response = await call(cfg, `${url.pathname}${url.search}`);
  return { status: response.status, html: await response.text() };
}

describe("an OAuth provider without its keys", () => {
  it("in development: the error page names the keys, where to get them and the callback URL", async () => {
    const dev = config({ NODE_ENV: "development" });
    const target = await signInWithGitHub(dev);
    expect(`${target.pathname}${target.search}`).toBe("/auth/error?error=Configuration&provider=github");
    const { status, html } = await page(dev, target);
    expect(status).toBe(500);
    expect(html).toContain("<h1>Sign in with GitHub is not set up yet</h1>");
    expect(html).toContain("Set <code>AUTH_GITHUB_ID</code> and <code>AUTH_GITHUB_SECRET</code> in <code>.env</code>, then restart the dev server.");
    expect(html).toContain('<a href="https://github.com/settings/developers">');
    expect(html).toContain(`<code class="to-copy">http://localhost:3000/auth/callback/github</code>`);
  });

  it("in development, only the missing key is named", async () => {
    const dev = config({ NODE_ENV: "development", AUTH_GITHUB_ID: "set" });
    const { html } = await page(dev, await signInWithGitHub(dev));
    expect(html).toContain("Set <code>AUTH_GITHUB_SECRET</code> in <code>.env</code>");
    expect(html).not.toContain("AUTH_GITHUB_ID");
  });

  it("in production (or with NODE_ENV unset): the generic page, and the redirect does not name the provider", async () => {
    for (const env of [{ NODE_ENV: "production" }, {}] as Record<string, string>[]) {
      const prod = config(env);
      const target = await signInWithGitHub(prod);
      expect(`${target.pathname}${target.search}`).toBe("/auth/error?error=Configuration");
      for (const url of [target, new URL("/auth/error?error=Configuration&provider=github", target)]) {
        const { status, html } = await page(prod, url);
        expect(status).toBe(500);
        expect(html).toContain("<h1>Server error</h1>");
        expect(html).not.toContain("AUTH_GITHUB");
      }
    }
  });

  it("the query only picks a provider: a set-up one, an unknown id or another error shows the generic page", async () => {
    const dev = config({ NODE_ENV: "development", AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "secret" });
    for (const query of ["error=Configuration&provider=github", "error=Configuration&provider=%3Cscript%3E", "error=AccessDenied&provider=keycloak"]) {
      const { html } = await page(dev, new URL(`/auth/error?${query}`, "http://localhost:3000"));
      expect(html, query).not.toContain("is not set up yet");
      expect(html).not.toContain("<script>");
    }
    // Keycloak lacks its keys here, and has no console for everyone: the page says to register with it.
    const { html } = await page(dev, new URL("/auth/error?error=Configuration&provider=keycloak", "http://localhost:3000"));
    expect(html).toContain("Set <code>AUTH_KEYCLOAK_ID</code> and <code>AUTH_KEYCLOAK_SECRET</code>");
    expect(html).toContain("Register this app with Keycloak, with this callback URL:");
  });
});
