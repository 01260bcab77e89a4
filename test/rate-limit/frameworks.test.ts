/// <reference path="../../runtime/src/frameworks/sveltekit/env.d.ts" />
/**
 * The client address comes from the framework glue: SvelteKit's
 * `event.getClientAddress()` (in the `handle` hook and the `signIn` form
 * action) and SolidStart's `event.clientAddress`. Driven here with fake events
 * (SvelteKit's `$env`/`$app` modules mocked); test/e2e runs the glue in real apps.
 * Also: what the browser client reports for a refused sign-in.
 */
import { isHttpError } from "@sveltejs/kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RateLimitOptions } from "@gatehouse/runtime";
import { SolidAuth, type SolidAuthConfig } from "@gatehouse/runtime/solid-start";
import { ORIGIN, SECRET, USER, captureLogger } from "../helpers.js";
import { Credentials } from "@gatehouse/runtime/providers";
import { signIn as solidClientSignIn } from "../../runtime/src/frameworks/solid-start/client.js";
import { SvelteKitAuth } from "../../runtime/src/frameworks/sveltekit/index.js";
import { PASSWORD, isLimited } from "./support.js";

vi.mock("$env/dynamic/private", () => ({ env: { AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789", AUTH_URL: "http://localhost:3000" } }));
vi.mock("$app/paths", () => ({ base: "" }));
vi.mock("$app/environment", () => ({ dev: false }));

function providers() {
  const authorize = vi.fn(async (c: Partial<Record<string, unknown>>) => (c.email === "ada@example.com" && c.password === PASSWORD ? { ...USER } : null));
  return { authorize, providers: [Credentials({ credentials: { email: {}, password: {} }, authorize })] };
}

/** The parts of SvelteKit's RequestEvent the glue uses. */
function svelteKitEvent(path: string, form: Record<string, string> | undefined, clientAddress: string | (() => string), headers: Record<string, string> = {}) {
  const url = new URL(path, ORIGIN);
  const request = new Request(url, form
    ? { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers }, body: new URLSearchParams(form) }
    : { headers });
  const set: Record<string, string> = {};
  const event = {
    url,
    request,
    locals: {} as Record<string, unknown>,
    cookies: { set: vi.fn() },
    setHeaders: (headers: Record<string, string>) => Object.assign(set, headers),
    getClientAddress: typeof clientAddress === "function" ? clientAddress : () => clientAddress,
  };
  return { event: event as never, headersSet: set };
}

describe("SvelteKitAuth", () => {
  it("handle: the per-address limit uses getClientAddress(), not X-Forwarded-For", async () => {
    const { providers: list, authorize } = providers();
    const { handle } = SvelteKitAuth({ providers: list, logger: captureLogger().logger, rateLimit: { ip: 3, identifier: false } });
    const resolve = vi.fn();
    const post = (address: string, forwardedFor: string) =>
      handle({
        event: svelteKitEvent("/auth/callback/credentials", { email: "ada@example.com", password: "wrong" }, address, { "x-forwarded-for": forwardedFor }).event,
        resolve,
      }) as Promise<Response>;
    for (let i = 0; i < 3; i++) expect((await post("198.51.100.50", `192.0.2.${i}`)).status).toBe(302);
    const refused = await post("198.51.100.50", "192.0.2.200");
    expect(isLimited(refused)).toBe(true);
    expect(await refused.text()).toContain("Too many attempts");
    expect((await post("198.51.100.51", "192.0.2.200")).status).toBe(302);
    expect(authorize).toHaveBeenCalledTimes(4);
    expect(resolve).not.toHaveBeenCalled();
  });

  it("handle: an adapter without getClientAddress leaves the identifier limit working", async () => {
    const { providers: list } = providers();
    const log = captureLogger();
    const { handle } = SvelteKitAuth({ providers: list, logger: log.logger, rateLimit: { identifier: 1 } });
    const noAddress = () => {
      throw new Error("adapter does not specify getClientAddress");
    };
    const post = () =>
      handle({ event: svelteKitEvent("/auth/callback/credentials", { email: "ada@example.com", password: "wrong" }, noAddress).event, resolve: vi.fn() }) as Promise<Response>;
    expect((await post()).status).toBe(302);
    expect(isLimited(await post())).toBe(true);
    // The first attempt's wrong password is a warning too (credentials-signin-refused).
    expect(log.warnings).toEqual(["rate-limit-no-client-address", "credentials-signin-refused", "rate-limited"]);
  });

  it("the signIn form action: a refused attempt is SvelteKit's 429 with Retry-After; the address is the event's", async () => {
    const { providers: list, authorize } = providers();
    const { signIn } = SvelteKitAuth({ providers: list, logger: captureLogger().logger, rateLimit: { ip: 2, identifier: false } });
    const action = (address: string) => {
      const { event, headersSet } = svelteKitEvent("/signin", { providerId: "credentials", email: "ada@example.com", password: "wrong" }, address);
      return { run: signIn(event).catch((error: unknown) => error), headersSet };
    };
    for (let i = 0; i < 2; i++) {
      const thrown = await action("198.51.100.60").run;
      expect((thrown as Error).name).toBe("CredentialsSignin");
    }
    const { run, headersSet } = action("198.51.100.60");
    const thrown = await run;
    expect(isHttpError(thrown, 429)).toBe(true);
    expect((thrown as { body: { message: string } }).body.message).toMatch(/too many sign-in attempts/i);
    expect(Number(headersSet["retry-after"])).toBeGreaterThan(890);
    expect(authorize).toHaveBeenCalledTimes(2);
    expect(((await action("198.51.100.61").run) as Error).name).toBe("CredentialsSignin");
  });

  it("an app's own rateLimit.clientAddress wins, and gets the original request (with its proxy's header) in the form action", async () => {
    const { providers: list } = providers();
    const rateLimit: RateLimitOptions = { ip: 1, identifier: false, clientAddress: (request) => request.headers.get("cf-connecting-ip") };
    const { signIn } = SvelteKitAuth({ providers: list, logger: captureLogger().logger, rateLimit });
    const action = (proxyHeader: string, socket: string) =>
      signIn(svelteKitEvent("/signin", { providerId: "credentials", email: "ada@example.com", password: "wrong" }, socket, { "cf-connecting-ip": proxyHeader }).event).catch((e: unknown) => e);
    expect(((await action("203.0.113.1", "10.0.0.1")) as Error).name).toBe("CredentialsSignin");
    // Same proxy header from another socket address: the app's function decides.
    expect(isHttpError(await action("203.0.113.1", "10.0.0.2"), 429)).toBe(true);
    expect(((await action("203.0.113.2", "10.0.0.1")) as Error).name).toBe("CredentialsSignin");
  });
});

describe("SolidAuth", () => {
  beforeEach(() => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", ORIGIN);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  function solid(rateLimit: RateLimitOptions) {
    const { providers: list, authorize } = providers();
    const config: SolidAuthConfig = { providers: list, logger: captureLogger().logger, rateLimit };
    return { ...SolidAuth(config), authorize };
  }

  it("the handler limits per event.clientAddress", async () => {
    const { GET, POST, authorize } = solid({ ip: 2, identifier: false });
    const csrf = await GET({ request: new Request(`${ORIGIN}/api/auth/csrf`) });
    const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const { csrfToken } = await csrf.json();
    const post = (clientAddress: string) =>
      POST({
        clientAddress,
        request: new Request(`${ORIGIN}/api/auth/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
          body: new URLSearchParams({ email: "ada@example.com", password: "wrong", csrfToken }),
        }),
      });
    expect((await post("198.51.100.70")).status).toBe(302);
    expect((await post("198.51.100.70")).status).toBe(302);
    expect(isLimited(await post("198.51.100.70"))).toBe(true);
    expect((await post("198.51.100.71")).status).toBe(302);
    expect(authorize).toHaveBeenCalledTimes(3);
  });

  it("the browser client's signIn(..., { redirect: false }) reports RateLimited and 429", async () => {
    const { GET, POST } = solid({ identifier: 1 });
    const cookies = new Map<string, string>();
    // A browser on the app: fetch goes to the handler with the cookies it set, and from one address.
    vi.stubGlobal("window", { location: { href: `${ORIGIN}/login` } });
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
      const request = new Request(new URL(input, ORIGIN), { ...init, headers });
      const response = await (request.method === "POST" ? POST : GET)({ request, clientAddress: "198.51.100.80" });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const eq = pair!.indexOf("=");
        cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      return response;
    });
    const first = await solidClientSignIn("credentials", { email: "ada@example.com", password: "wrong", redirect: false });
    expect(first).toMatchObject({ ok: false, status: 200, error: "CredentialsSignin" });
    const refused = await solidClientSignIn("credentials", { email: "ada@example.com", password: PASSWORD, redirect: false });
    expect(refused).toMatchObject({ ok: false, status: 429, error: "RateLimited", code: null });
    expect(new URL(refused!.url!).pathname).toBe("/api/auth/signin");
  });
});
