/// <reference path="../../runtime/src/frameworks/sveltekit/env.d.ts" />
/**
 * What an app moved from `@auth/sveltekit` keeps using: `locals.getSession()`
 * (Auth.js's older name of `locals.auth()`), and the `authorizationParams-*`
 * form fields Auth.js's SignIn component sends, which reach the handler as the
 * sign-in's query (the provider's `allowedAuthorizationParams` still decides
 * what reaches the provider). Driven with fake events; test/e2e/from-authjs
 * runs a moved app.
 */
import { isRedirect } from "@sveltejs/kit";
import { describe, expect, it, vi } from "vitest";
import { GitHub } from "@gatehouse/runtime/providers";
import { SvelteKitAuth } from "../../runtime/src/frameworks/sveltekit/index.js";
import { ORIGIN, captureLogger } from "../helpers.js";

vi.mock("$env/dynamic/private", () => ({ env: { AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789", AUTH_URL: "http://localhost:3000" } }));
vi.mock("$app/paths", () => ({ base: "" }));
vi.mock("$app/environment", () => ({ dev: false }));

const auth = SvelteKitAuth({
  logger: captureLogger().logger,
  providers: [GitHub({ clientId: "client", clientSecret: "secret", allowedAuthorizationParams: ["login"] })],
});

function event(path: string, init?: RequestInit) {
  const url = new URL(path, ORIGIN);
  const cookies = { set: vi.fn() };
  return { url, request: new Request(url, init), locals: {} as App.Locals, cookies, setHeaders: vi.fn(), getClientAddress: () => "198.51.100.7" };
}

async function redirectOf(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown.location;
    throw thrown;
  }
  throw new Error("the action did not redirect");
}

describe("an app moved from @auth/sveltekit", () => {
  it("locals.getSession() is locals.auth()", async () => {
    const e = event("/");
    await auth.handle({ event: e as never, resolve: vi.fn(async () => new Response("page")) });
    expect(e.locals.getSession).toBe(e.locals.auth);
    expect(await e.locals.getSession()).toBeNull();
  });

  it("authorizationParams-* fields reach the provider when it allows them, and only then", async () => {
    const form = new URLSearchParams({
      providerId: "github",
      redirectTo: "/dashboard",
      "authorizationParams-login": "ada",
      "authorizationParams-redirect_uri": "https://evil.example/steal",
      "authorizationParams-scope": "repo",
    });
    const e = event("/signin", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN }, body: form });
    const location = new URL(await redirectOf(auth.signIn(e as never)));
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(location.searchParams.get("login")).toBe("ada");
    expect(location.searchParams.get("redirect_uri")).toBe("http://localhost:3000/auth/callback/github");
    expect(location.searchParams.get("scope")).toBe("read:user user:email");
    // The fields did not reach the handler's body either (it would have passed them on as provider fields).
    expect([...location.searchParams.keys()].some((key) => key.startsWith("authorizationParams"))).toBe(false);
  });
});
