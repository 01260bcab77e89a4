/// <reference path="../../runtime/src/frameworks/sveltekit/env.d.ts" />
/**
 * A malformed AUTH_URL through the framework glue: the auth routes answer the
 * generic Configuration error, the session read behind `locals.auth()` /
 * `getSession` fails as `SessionUnavailable` (a page must not take a broken
 * config for "signed out"), the SvelteKit sign-in action answers a 500 with the
 * configuration message instead of sending the user home, SolidStart's
 * `signInUrl` builds a URL instead of throwing, and the log says it once.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { isHttpError } from "@sveltejs/kit";
import { SessionUnavailable } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import { SolidAuth, getSession, signInUrl } from "@gatehouse/runtime/solid-start";
import { SvelteKitAuth } from "../../runtime/src/frameworks/sveltekit/index.js";
import { ORIGIN, SECRET, USER, captureLogger, request } from "../helpers.js";
import { MALFORMED_AUTH_URLS } from "../runtime/malformed-auth-urls.js";

const svelteEnv = vi.hoisted(() => ({ env: {} as Record<string, string | undefined> }));
vi.mock("$env/dynamic/private", () => svelteEnv);
vi.mock("$app/paths", () => ({ base: "" }));
vi.mock("$app/environment", () => ({ dev: false }));

afterEach(() => {
  vi.unstubAllEnvs();
});

const CONFIGURATION = { error: "Configuration", message: "There is a problem with the server configuration. Check the server logs." };

function providers() {
  return [Credentials({ credentials: { username: {}, password: {} }, authorize: (c) => (c.username === "ada" ? { ...USER } : null) })];
}

function svelteEvent(path: string, init: RequestInit = {}) {
  const url = new URL(path, ORIGIN);
  return { url, request: new Request(url, init), locals: {} as App.Locals, cookies: { set: vi.fn() }, setHeaders: vi.fn(), getClientAddress: () => "198.51.100.7" };
}

describe.each(MALFORMED_AUTH_URLS)("AUTH_URL=%j", (authUrl, problem) => {
  it("SvelteKit: the auth routes answer Configuration, locals.auth() is SessionUnavailable, the sign-in action a 500 with the message; logged once", async () => {
    svelteEnv.env = { AUTH_SECRET: SECRET, AUTH_URL: authUrl };
    const logs = captureLogger();
    const { handle, signIn } = SvelteKitAuth({ logger: logs.logger, providers: providers() });

    const session = svelteEvent("/auth/session");
    const res = (await handle({ event: session as never, resolve: vi.fn() })) as Response;
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual(CONFIGURATION);

    const page = svelteEvent("/dashboard");
    const resolve = vi.fn(async () => new Response("page"));
    await handle({ event: page as never, resolve });
    expect(resolve).toHaveBeenCalled();
    await expect(page.locals.auth()).rejects.toBeInstanceOf(SessionUnavailable);

    const form = svelteEvent("/signin", { method: "POST", body: new URLSearchParams({ providerId: "credentials", username: "ada", password: "x" }) });
    const thrown = await signIn(form as never).catch((error: unknown) => error);
    expect(isHttpError(thrown, 500)).toBe(true);
    expect((thrown as { body: { message: string } }).body.message).toBe(CONFIGURATION.message);
    expect(form.cookies.set).not.toHaveBeenCalled();

    expect(logs.errors).toHaveLength(1);
    expect(logs.errors[0]!.message).toContain("AUTH_URL");
    expect(logs.errors[0]!.message).toMatch(problem);
  });

  it("SolidStart: the handler answers Configuration, getSession is SessionUnavailable, signInUrl stays on the request's origin; logged once", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET);
    vi.stubEnv("AUTH_URL", authUrl);
    const logs = captureLogger();
    const config = { logger: logs.logger, providers: providers() };
    const { GET } = SolidAuth(config);
    const res = await GET({ request: request("/api/auth/session") });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual(CONFIGURATION);
    const signin = await GET({ request: request("/api/auth/signin") });
    expect(signin.status).toBe(500);
    expect(await signin.text()).toContain("There is a problem with the server configuration");

    await expect(getSession(request("/dashboard"), config)).rejects.toBeInstanceOf(SessionUnavailable);
    // Before: `new URL(..., "localhost:3000")` threw a TypeError, a bare 500 on every protected page.
    expect(signInUrl(request("/dashboard"), config, "/dashboard")).toBe(`${ORIGIN}/api/auth/signin?callbackUrl=%2Fdashboard`);

    expect(logs.errors).toHaveLength(1);
    expect(logs.errors[0]!.message).toMatch(problem);
  });
});
