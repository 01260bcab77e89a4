/// <reference path="../../runtime/src/frameworks/sveltekit/env.d.ts" />
/**
 * The SvelteKit glue turns the token check off (SvelteKit checks the origin of
 * form posts) and repeats the origin rule for every POST to the auth routes,
 * JSON too: the handler's rule (`checkRequestOrigin`), one rule in one place.
 * Driven with fake events; test/e2e runs the glue in a real app.
 */
import { describe, expect, it, vi } from "vitest";
import { Apple, Credentials } from "@gatehouse/runtime/providers";
import { SvelteKitAuth } from "../../runtime/src/frameworks/sveltekit/index.js";
import { ORIGIN, USER, captureLogger } from "../helpers.js";

vi.mock("$env/dynamic/private", () => ({ env: { AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789", AUTH_URL: "http://localhost:3000" } }));
vi.mock("$app/paths", () => ({ base: "" }));
vi.mock("$app/environment", () => ({ dev: false }));

const GOOD = { email: "ada@example.com", password: "correct horse" };

function handle() {
  return SvelteKitAuth({
    logger: captureLogger().logger,
    providers: [
      Credentials({ credentials: { email: {}, password: {} }, authorize: (c) => (c.email === GOOD.email && c.password === GOOD.password ? { ...USER } : null) }),
      Apple({ clientId: "com.example.web", clientSecret: "apple-client-secret" }),
    ],
  }).handle;
}

/** A JSON POST to the credentials callback (SvelteKit's own check covers only form content types). */
async function post(headers: Record<string, string>, path = "/auth/callback/credentials", form?: Record<string, string>): Promise<Response> {
  const url = new URL(path, ORIGIN);
  const request = form
    ? new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) })
    : new Request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(GOOD) });
  const event = { url, request, locals: {}, cookies: { set: vi.fn() }, setHeaders: vi.fn(), getClientAddress: () => "198.51.100.7" };
  return (await handle()({ event: event as never, resolve: vi.fn() })) as Response;
}

describe("SvelteKitAuth handle: the origin rule on POSTs to the auth routes", () => {
  it.each([
    ["another site's Origin", { origin: "http://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site without Origin", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site without Origin (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
  ])("%s: 403, nothing signed in", async (_, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("Cross-site POST to /auth/callback/credentials refused.");
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it.each([
    ["the app's Origin", { origin: ORIGIN, "sec-fetch-site": "same-origin" }],
    ["Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin" }],
    ["neither header", {}],
  ])("%s: handled (signed in)", async (_, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true);
  });

  it("Apple's form_post callback, posted from Apple's page, is not refused: the handler turns it into a GET of the same URL", async () => {
    // SvelteKit's own check must allow the origin first (kit.csrf.trustedOrigins, docs/providers.md); the hook then lets it through.
    const fields = { code: "the-code", state: "the-state" };
    const res = await post({ origin: "https://appleid.apple.com", "sec-fetch-site": "cross-site" }, "/auth/callback/apple", fields);
    expect(res.status).toBe(303);
    const rebound = new URL(res.headers.get("location")!);
    expect(`${rebound.origin}${rebound.pathname}`).toBe(`${ORIGIN}/auth/callback/apple`);
    expect(Object.fromEntries(rebound.searchParams)).toEqual(fields);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("another site's POST to the callback of a provider that is not OAuth is still refused", async () => {
    const res = await post({ origin: "https://appleid.apple.com", "sec-fetch-site": "cross-site" }, "/auth/callback/credentials", GOOD);
    expect(res.status).toBe(403);
  });
});
