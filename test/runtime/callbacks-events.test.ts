/**
 * Callbacks (signIn, jwt, session) and events (signIn, signOut, session) as the
 * credentials flow drives them: what they receive, what their answers do, and that
 * a failing event never breaks the flow.
 */
import { describe, expect, it, vi } from "vitest";
import { AccessDenied, type AuthConfig } from "@gatehouse/runtime";
import {
  ORIGIN,
  USER,
  CookieJar,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  fetchSession,
  locationOf,
  signInWithCredentials,
  storesSession,
} from "../helpers.js";

const GOOD = { username: "ada", password: "correct horse" };

async function signIn(config: AuthConfig, extra: Record<string, string> = {}, headers?: Record<string, string>) {
  const jar = new CookieJar();
  const token = await csrfToken(config, jar);
  const response = await call(config, "/auth/callback/credentials", { jar, form: { ...GOOD, ...extra, csrfToken: token }, headers });
  return { jar, response };
}

describe("signIn callback", () => {
  it("true → the sign-in goes on", async () => {
    const { response } = await signIn(credentialsConfig({ callbacks: { signIn: () => true } }), { callbackUrl: "/home" });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(storesSession(response)).toBe(true);
  });

  it("false → /auth/error?error=AccessDenied, no session cookie", async () => {
    const jwt = vi.fn(({ token }: any) => token);
    const signInEvent = vi.fn();
    const config = credentialsConfig({ callbacks: { signIn: () => false, jwt }, events: { signIn: signInEvent } });
    const { jar, response } = await signIn(config, { callbackUrl: "/home" });

    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("AccessDenied");
    expect(storesSession(response)).toBe(false);
    expect(jwt).not.toHaveBeenCalled();
    expect(signInEvent).not.toHaveBeenCalled();
    expect((await fetchSession(config, jar)).body).toBeNull();
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["0", 0],
    ["an object", {}],
  ])("a non-true, non-string answer (%s) denies too", async (_name, answer) => {
    const config = credentialsConfig({ callbacks: { signIn: () => answer as unknown as boolean } });
    const { response } = await signIn(config);
    expect(locationOf(response).searchParams.get("error")).toBe("AccessDenied");
    expect(storesSession(response)).toBe(false);
  });

  it("false with pages.error → the app's error page", async () => {
    const config = credentialsConfig({ pages: { error: "/oops" }, callbacks: { signIn: () => false } });
    const location = locationOf((await signIn(config)).response);
    expect(location.pathname).toBe("/oops");
    expect(location.searchParams.get("error")).toBe("AccessDenied");
  });

  it("throwing → AccessDenied; the logged error carries the original message", async () => {
    const log = captureLogger();
    const config = credentialsConfig({
      logger: log.logger,
      callbacks: {
        signIn: () => {
          throw new Error("banned");
        },
      },
    });
    const { response } = await signIn(config);
    const location = locationOf(response);
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("AccessDenied");
    expect(location.href).not.toContain("banned");
    expect(storesSession(response)).toBe(false);

    const logged = log.errors.find((e) => e instanceof AccessDenied);
    expect(logged).toBeDefined();
    expect(logged!.message).toContain("banned");
  });

  it("an async rejection is handled the same way", async () => {
    const log = captureLogger();
    const config = credentialsConfig({ logger: log.logger, callbacks: { signIn: async () => Promise.reject(new Error("nope")) } });
    const { response } = await signIn(config);
    expect(locationOf(response).searchParams.get("error")).toBe("AccessDenied");
    expect(log.errors.some((e) => e.message.includes("nope"))).toBe(true);
  });

  it("X-Auth-Return-Redirect: 1 with a refusal answers 200 {url} of the error page", async () => {
    const { response } = await signIn(credentialsConfig({ callbacks: { signIn: () => false } }), {}, { "X-Auth-Return-Redirect": "1" });
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    expect(new URL(url).searchParams.get("error")).toBe("AccessDenied");
    expect(storesSession(response)).toBe(false);
  });

  it("returning a path → redirect there, and (as in Auth.js) no session is created", async () => {
    const jwt = vi.fn(({ token }: any) => token);
    const config = credentialsConfig({ callbacks: { signIn: () => "/welcome", jwt } });
    const { jar, response } = await signIn(config, { callbackUrl: "/dashboard" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/welcome`);
    expect(storesSession(response)).toBe(false);
    expect(jwt).not.toHaveBeenCalled();
    expect((await fetchSession(config, jar)).body).toBeNull();
  });

  it("returning an external URL goes through the default redirect callback → base URL", async () => {
    const config = credentialsConfig({ callbacks: { signIn: () => "https://evil.com/phish" } });
    const { response } = await signIn(config);
    expect(response.status).toBe(302);
    expect(locationOf(response).href).toBe(`${ORIGIN}/`);
    expect(storesSession(response)).toBe(false);
  });

  it("returning javascript: → base URL", async () => {
    const { response } = await signIn(credentialsConfig({ callbacks: { signIn: () => "javascript:alert(1)" } }));
    expect(locationOf(response).href).toBe(`${ORIGIN}/`);
  });

  it("the URL it returns is passed to the redirect callback", async () => {
    const redirect = vi.fn(({ url }: { url: string; baseUrl: string }) => `https://partner.example.com${new URL(url, ORIGIN).pathname}`);
    const config = credentialsConfig({ callbacks: { signIn: () => "/welcome", redirect } });
    const { response } = await signIn(config);
    expect(redirect).toHaveBeenCalledWith({ url: "/welcome", baseUrl: ORIGIN });
    expect(response.headers.get("location")).toBe("https://partner.example.com/welcome");
  });

  it("receives {user, account, credentials}", async () => {
    const signInCb = vi.fn((_params: any) => true);
    const config = credentialsConfig({ callbacks: { signIn: signInCb } });
    await signIn(config);
    expect(signInCb).toHaveBeenCalledTimes(1);
    const params = signInCb.mock.calls[0]![0];
    expect(params.user).toEqual(USER);
    expect(params.account).toEqual({ provider: "credentials", type: "credentials", providerAccountId: USER.id });
    expect(params.credentials).toEqual(GOOD);
    expect(params.credentials).not.toHaveProperty("csrfToken");
  });

  it("account.provider is the custom provider id", async () => {
    const { Credentials } = await import("@gatehouse/runtime/providers");
    const signInCb = vi.fn((_params: any) => true);
    const config = credentialsConfig({
      providers: [Credentials({ id: "pin", authorize: () => ({ ...USER }) })],
      callbacks: { signIn: signInCb },
    });
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    await call(config, "/auth/callback/pin", { jar, form: { pin: "1234", csrfToken: token } });
    expect(signInCb.mock.calls[0]![0].account).toEqual({ provider: "pin", type: "credentials", providerAccountId: USER.id });
    expect(signInCb.mock.calls[0]![0].credentials).toEqual({ pin: "1234" });
  });
});

describe("jwt callback on sign-in", () => {
  it("gets trigger signIn, the default token, user and account", async () => {
    const jwt = vi.fn(({ token }: any) => token);
    const { response } = await signIn(credentialsConfig({ callbacks: { jwt } }));
    expect(storesSession(response)).toBe(true);
    expect(jwt).toHaveBeenCalledTimes(1);
    const params = jwt.mock.calls[0]![0];
    expect(params.trigger).toBe("signIn");
    expect(params.token).toEqual({ name: USER.name, email: USER.email, picture: USER.image, sub: USER.id });
    expect(params.user).toEqual(USER);
    expect(params.account).toEqual({ provider: "credentials", type: "credentials", providerAccountId: USER.id });
  });

  it("claims it adds are in the token later", async () => {
    const config = credentialsConfig({
      callbacks: {
        jwt: ({ token, user }: any) => (user ? { ...token, role: "admin" } : token),
        session: ({ session, token }: any) => ({ ...session, role: token.role }),
      },
    });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    expect((await fetchSession(config, jar)).body.role).toBe("admin");
  });

  it("returning null on sign-in stores no session", async () => {
    const { response } = await signIn(credentialsConfig({ callbacks: { jwt: () => null } }));
    expect(storesSession(response)).toBe(false);
  });

  it("throwing on sign-in → error page, no session, logged", async () => {
    const log = captureLogger();
    const config = credentialsConfig({
      logger: log.logger,
      callbacks: {
        jwt: () => {
          throw new Error("jwt broke");
        },
      },
    });
    const { response } = await signIn(config);
    expect(response.status).toBe(302);
    expect(locationOf(response).pathname).toBe("/auth/error");
    expect(storesSession(response)).toBe(false);
    expect(log.errors.length).toBeGreaterThan(0);
  });
});

describe("events", () => {
  it("signIn fires with user and account", async () => {
    const signInEvent = vi.fn();
    const { response } = await signIn(credentialsConfig({ events: { signIn: signInEvent } }));
    expect(storesSession(response)).toBe(true);
    expect(signInEvent).toHaveBeenCalledTimes(1);
    const message = signInEvent.mock.calls[0]![0];
    expect(message.user).toEqual(USER);
    expect(message.account).toEqual({ provider: "credentials", type: "credentials", providerAccountId: USER.id });
  });

  it("signIn does not fire for a refused sign-in", async () => {
    const signInEvent = vi.fn();
    const config = credentialsConfig({ events: { signIn: signInEvent } });
    await signIn(config, { password: "wrong" });
    expect(signInEvent).not.toHaveBeenCalled();
  });

  it.each([
    ["throws synchronously", () => {
      throw new Error("audit down");
    }],
    ["rejects", async () => {
      throw new Error("audit down");
    }],
  ])("a signIn event that %s is logged as EventError; the flow still succeeds", async (_name, handler) => {
    const log = captureLogger();
    const config = credentialsConfig({ logger: log.logger, events: { signIn: handler } });
    const { jar, response } = await signIn(config, { callbackUrl: "/dashboard" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(storesSession(response)).toBe(true);
    expect((await fetchSession(config, jar)).body.user.email).toBe(USER.email);

    const logged = log.errors.find((e) => (e as any).type === "EventError");
    expect(logged).toBeDefined();
    expect((logged as any).cause?.err?.message).toBe("audit down");
  });

  it("a session event that throws is logged; the session is still returned", async () => {
    const log = captureLogger();
    const config = credentialsConfig({
      logger: log.logger,
      events: {
        session: () => {
          throw new Error("metrics down");
        },
      },
    });
    const jar = new CookieJar();
    await signInWithCredentials(config, jar);
    const { response, body } = await fetchSession(config, jar);
    expect(response.status).toBe(200);
    expect(body.user.email).toBe(USER.email);
    expect(log.errors.some((e) => (e as any).type === "EventError")).toBe(true);
  });

  it("async events are awaited before the response", async () => {
    const done: string[] = [];
    const later = (name: string) => async () => {
      await new Promise((r) => setTimeout(r, 5));
      await Promise.resolve();
      done.push(name);
    };
    const config = credentialsConfig({ events: { signIn: later("signIn"), session: later("session"), signOut: later("signOut") } });
    const jar = new CookieJar();

    await signInWithCredentials(config, jar);
    expect(done).toEqual(["signIn"]);

    await fetchSession(config, jar);
    expect(done).toEqual(["signIn", "session"]);

    const token = await csrfToken(config, jar);
    await call(config, "/auth/signout", { jar, form: { csrfToken: token } });
    expect(done).toEqual(["signIn", "session", "signOut"]);
  });

  it("the signIn event fires after the signIn and jwt callbacks", async () => {
    const order: string[] = [];
    const config = credentialsConfig({
      callbacks: {
        signIn: () => (order.push("signIn callback"), true),
        jwt: ({ token }: any) => (order.push("jwt"), token),
      },
      events: { signIn: () => void order.push("signIn event") },
    });
    await signIn(config);
    expect(order).toEqual(["signIn callback", "jwt", "signIn event"]);
  });
});
