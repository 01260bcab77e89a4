/**
 * GitHub's `userinfo.request` over real HTTP: a `node:http` server on
 * 127.0.0.1 plays GitHub Enterprise (`/api/v3/user`, `/api/v3/user/emails`)
 * with recorded responses; the provider must use the `fetch` it is given.
 * Whether the email is verified is tested in verified-email.test.ts.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GitHub, type OAuthConfig, type UserinfoEndpointHandler } from "@gatehouse/runtime/providers";
import { fixture } from "./fixtures.js";

interface Reply {
  status?: number;
  /** A JSON value, or a raw string body. */
  body?: unknown;
  /** Drop the connection instead of answering. */
  hangUp?: boolean;
}

let routes: Record<string, Reply> = {};
let received: { path: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push({ path: req.url ?? "", headers: req.headers });
    const reply = routes[req.url ?? ""];
    if (!reply) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "Not Found" }));
      return;
    }
    if (reply.hangUp) {
      req.socket.destroy();
      return;
    }
    const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, { "content-type": "application/json; charset=utf-8" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

afterEach(() => {
  routes = {};
  received = [];
  vi.unstubAllGlobals();
});

const realFetch = globalThis.fetch;

/** Calls `userinfo.request` the way core does: the provider plus its `fetch`. The global fetch is made to fail. */
async function requestProfile(provider: OAuthConfig<any> = GitHub({ enterprise: { baseUrl } })) {
  const userinfo = provider.userinfo as UserinfoEndpointHandler;
  let calls = 0;
  const fetch: typeof globalThis.fetch = (...args) => {
    calls++;
    return realFetch(...args);
  };
  vi.stubGlobal("fetch", () => Promise.reject(new Error("the global fetch must not be used")));
  const profile = await userinfo.request!({ tokens: { access_token: "t", token_type: "bearer" }, provider: { ...provider, fetch } });
  vi.unstubAllGlobals();
  return { profile, user: await provider.profile!(profile, {}), calls };
}

const USER = "/api/v3/user";
const EMAILS = "/api/v3/user/emails";

/** The paths GitHub was asked for, sorted: /user and /user/emails go out together, in no set order. */
function paths(): string[] {
  return received.map((r) => r.path).sort();
}

describe("GitHub userinfo.request", () => {
  it("a public email: kept, and /user/emails is read too (it says whether the address is verified)", async () => {
    routes[USER] = { body: fixture("github/user.json") };
    const { profile, user, calls } = await requestProfile();
    expect(user).toEqual({ id: "583231", name: "The Octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/583231?v=4" });
    // No /user/emails route here (404): the address stays, unverified.
    expect(profile.email_verified).toBe(false);
    expect(paths()).toEqual([USER, EMAILS]);
    expect(calls).toBe(2);
  });

  it("sends the access token as a Bearer token, a User-Agent and the API's media type", async () => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { body: fixture("github/emails-primary-verified.json") };
    await requestProfile();
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.headers.authorization).toBe("Bearer t");
      expect(request.headers["user-agent"]).toBe("gatehouse");
      expect(request.headers.accept).toBe("application/vnd.github+json");
    }
  });

  it("no public email: the primary verified address from /user/emails", async () => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { body: fixture("github/emails-primary-verified.json") };
    const { profile, user, calls } = await requestProfile();
    expect(profile.email).toBe("monalisa@example.com");
    expect(user).toEqual({ id: "2", name: "monalisa", email: "monalisa@example.com", image: "https://avatars.githubusercontent.com/u/2?v=4" });
    expect(paths()).toEqual([USER, EMAILS]);
    expect(calls).toBe(2);
  });

  it("the primary address unverified: another verified one, never the unverified primary", async () => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { body: fixture("github/emails-primary-unverified.json") };
    expect((await requestProfile()).user.email).toBe("mona@old-job.example");
  });

  it("no verified address at all: no email", async () => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { body: fixture("github/emails-none-verified.json") };
    expect((await requestProfile()).user.email).toBeNull();
  });

  it("an empty list: no email", async () => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { body: [] };
    expect((await requestProfile()).user.email).toBeNull();
  });

  it.each([404, 500, 403])("/user/emails answers %i: no email, no error", async (status) => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { status, body: fixture("github/emails-404.json") };
    const { user } = await requestProfile();
    expect(user.email).toBeNull();
    expect(user.id).toBe("2");
  });

  it.each([
    ["an object", { message: "unexpected" }],
    ["null", null],
    ["a list of non-objects", ["monalisa@example.com", 42, null]],
    ["entries without an email", [{ primary: true, verified: true }]],
    ["not JSON", "<html>maintenance</html>"],
  ])("/user/emails body is %s: no email, no error", async (_, body) => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { body };
    expect((await requestProfile()).user.email).toBeNull();
  });

  it("/user/emails drops the connection: no email, no error", async () => {
    routes[USER] = { body: fixture("github/user-private-email.json") };
    routes[EMAILS] = { hangUp: true };
    expect((await requestProfile()).user.email).toBeNull();
  });

  it("/user refuses the token: an error naming the status (core reports it as a callback error)", async () => {
    routes[USER] = { status: 401, body: fixture("github/user-401.json") };
    await expect(requestProfile()).rejects.toThrow("GitHub answered 401 to GET /user");
    expect(paths()).toEqual([USER, EMAILS]);
  });

  it("/user is not an object: an error", async () => {
    routes[USER] = { body: [] };
    await expect(requestProfile()).rejects.toThrow(/not a JSON object/);
  });

  it("reads the profile from provider.userinfo.url when core passes one", async () => {
    routes["/custom/user"] = { body: fixture("github/user.json") };
    const provider = GitHub({ enterprise: { baseUrl } });
    const { user } = await requestProfile({ ...provider, userinfo: { ...(provider.userinfo as object), url: `${baseUrl}/custom/user` } });
    expect(user.email).toBe("octocat@github.com");
    // /user/emails stays on the API base: only the profile's URL is configurable.
    expect(paths()).toEqual([EMAILS, "/custom/user"]);
  });
});

describe("GitHub endpoints", () => {
  it("github.com by default", () => {
    const provider = GitHub();
    expect(provider).toMatchObject({
      id: "github",
      type: "oauth",
      authorization: { url: "https://github.com/login/oauth/authorize", params: { scope: "read:user user:email" } },
      token: "https://github.com/login/oauth/access_token",
      userinfo: { url: "https://api.github.com/user" },
    });
  });

  it("enterprise: web endpoints on the base URL, the API under /api/v3; a trailing slash is ignored", () => {
    const provider = GitHub({ enterprise: { baseUrl: "https://github.example.com/" }, clientId: "abc" });
    expect(provider).toMatchObject({
      authorization: { url: "https://github.example.com/login/oauth/authorize" },
      token: "https://github.example.com/login/oauth/access_token",
      userinfo: { url: "https://github.example.com/api/v3/user" },
    });
    // `enterprise` is the factory's own option, not a provider field; the rest are the user's overrides.
    expect(provider.options).toEqual({ clientId: "abc" });
  });
});
