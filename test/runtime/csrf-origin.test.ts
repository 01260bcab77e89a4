/**
 * The origin rule on top of the double-submit token. The token alone does not
 * stop a forged POST where the attacker can plant a cookie (plain http has no
 * `__Host-` prefix; a sibling subdomain or a network attacker can set one): the
 * server hands a valid token/cookie pair to anyone who asks. So a POST whose
 * `Origin` is not the app's, or that the browser marks `Sec-Fetch-Site:
 * cross-site` (or `same-site` without the app's Origin), is refused as
 * `MissingCSRF`, however valid its token. Without either header the token alone
 * decides (the documented fallback).
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Credentials, Email, GitHub, Passkey, Password } from "@gatehouse/runtime/providers";
import { Auth } from "@gatehouse/runtime";
import {
  CookieJar,
  ORIGIN,
  SECRET,
  USER,
  call,
  captureLogger,
  csrfToken,
  isCleared,
  recordAdapterCalls,
  request,
  setCookies,
  signInWithCredentials,
  storesSession,
} from "../helpers.js";

const EVIL = "http://evil.example";
const SIBLING = "http://evil.localhost:3000";
const ATTACKER = { username: "mallory", password: "mallory's password" };
const MALLORY = { id: "user-mallory", name: "Mallory", email: "mallory@example.com" };

/** A browser's headers for a form another site posts to the app. */
const CROSS_SITE = { origin: EVIL, "sec-fetch-site": "cross-site" };

interface World {
  config: AuthConfig;
  writes: string[];
  mails: string[];
  logs: ReturnType<typeof captureLogger>;
}

/** Every provider whose POSTs change state, on a memory adapter whose writes are recorded; Ada exists. */
async function world(overrides: Partial<AuthConfig> = {}): Promise<World> {
  const memory = MemoryAdapter();
  await memory.createUser({ ...USER, emailVerified: new Date() });
  await memory.createUser({ ...MALLORY, emailVerified: new Date() });
  const recorded = recordAdapterCalls(memory);
  const logs = captureLogger();
  const mails: string[] = [];
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: logs.logger,
    adapter: recorded.adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (c) =>
          c.username === "ada" && c.password === "correct horse"
            ? { ...USER }
            : c.username === ATTACKER.username && c.password === ATTACKER.password
              ? { ...MALLORY }
              : null,
      }),
      Email({ sendVerificationRequest: ({ identifier }) => void mails.push(identifier) }),
      Password({ sendMail: ({ to }) => void mails.push(to) }),
      Passkey(),
      GitHub({ clientId: "id", clientSecret: "secret" }),
    ],
    ...overrides,
  };
  return { config, writes: recorded.writes, mails, logs };
}

/** What the attacker does first: ask the app for a token and its cookie, as anyone may. */
async function attackerPair(config: AuthConfig): Promise<{ token: string; cookie: string }> {
  const jar = new CookieJar();
  const token = await csrfToken(config, jar);
  return { token, cookie: `authjs.csrf-token=${encodeURIComponent(jar.get("authjs.csrf-token")!)}` };
}

/** The victim's browser posting the attacker's form: the planted cookie (and the victim's session), the body token. */
async function forgedPost(
  w: World,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = CROSS_SITE,
  session?: CookieJar,
): Promise<Response> {
  const { token, cookie } = await attackerPair(w.config);
  const sessionCookie = session?.get("authjs.session-token");
  const cookies = [cookie, sessionCookie ? `authjs.session-token=${encodeURIComponent(sessionCookie)}` : ""].filter(Boolean).join("; ");
  w.writes.length = 0;
  return Auth(request(path, { headers: { ...headers, cookie: cookies }, form: { ...fields, csrfToken: token } }), w.config);
}

/**
 * Refused as a bad token is: back to the sign-in page with MissingCSRF, nothing
 * written, no cookie set but a CSRF one (a passkey callback clears its challenge,
 * as on every outcome).
 */
function expectRefused(w: World, response: Response): void {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!);
  expect(location.origin).toBe(ORIGIN);
  expect(location.pathname).toBe("/auth/signin");
  expect(location.searchParams.get("error")).toBe("MissingCSRF");
  expect(setCookies(response).filter((c) => c.name !== "authjs.csrf-token" && !isCleared(c))).toEqual([]);
  expect(w.writes).toEqual([]);
}

async function signedIn(w: World): Promise<CookieJar> {
  const jar = new CookieJar();
  const res = await signInWithCredentials(w.config, jar);
  expect(storesSession(res)).toBe(true);
  return jar;
}

async function sessionName(w: World, jar: CookieJar): Promise<string | undefined> {
  const res = await call(w.config, "/auth/session", { jar });
  return ((await res.json()) as { user?: { name?: string } } | null)?.user?.name;
}

describe("attack: a token/cookie pair from the server, planted in the victim's browser, and a cross-site POST", () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });

  it("login CSRF: callback/credentials does not sign the victim's browser in as the attacker", async () => {
    const res = await forgedPost(w, "/auth/callback/credentials", ATTACKER);
    expectRefused(w, res);
    expect(storesSession(res)).toBe(false);
  });

  it("signin/email mails no link to the attacker's address and stores no token", async () => {
    const res = await forgedPost(w, "/auth/signin/email", { email: MALLORY.email });
    expectRefused(w, res);
    expect(w.mails).toEqual([]);
  });

  it("signin/credentials is refused too (it only shows the form, but it is a POST)", async () => {
    expectRefused(w, await forgedPost(w, "/auth/signin/credentials", {}));
  });

  it("signin/<oauth> starts no sign-in: no check cookies, no redirect to the provider", async () => {
    const res = await forgedPost(w, "/auth/signin/github", {});
    expectRefused(w, res);
  });

  it("signout does not sign the victim out", async () => {
    const victim = await signedIn(w);
    const res = await forgedPost(w, "/auth/signout", {}, CROSS_SITE, victim);
    expectRefused(w, res);
    expect(setCookies(res).some((c) => c.name === "authjs.session-token" && isCleared(c))).toBe(false);
    expect(await sessionName(w, victim)).toBe(USER.name);
  });

  it("session (update) is a 400 MissingCSRF and the session is unchanged", async () => {
    const victim = await signedIn(w);
    const { token, cookie } = await attackerPair(w.config);
    const res = await Auth(
      request("/auth/session", {
        headers: { ...CROSS_SITE, cookie: `${cookie}; authjs.session-token=${encodeURIComponent(victim.get("authjs.session-token")!)}` },
        json: { csrfToken: token, data: { name: "Mallory" } },
      }),
      w.config,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("MissingCSRF");
    expect(setCookies(res).filter((c) => c.name !== "authjs.csrf-token")).toEqual([]);
  });

  it("update-profile does not rename the victim", async () => {
    const victim = await signedIn(w);
    const res = await forgedPost(w, "/auth/update-profile", { name: "Pwned", callbackUrl: "/account" }, CROSS_SITE, victim);
    expectRefused(w, res);
    expect(await sessionName(w, victim)).toBe(USER.name);
  });

  // Each of these would act for the signed-in victim; the refusal comes before anything is read.
  it.each([
    ["/auth/revoke-session", { sessionId: "current" }],
    ["/auth/revoke-other-sessions", {}],
    ["/auth/unlink-account", { provider: "github" }],
    ["/auth/rename-passkey", { credentialID: "abc", name: "x" }],
    ["/auth/remove-passkey", { credentialID: "abc" }],
    ["/auth/delete-account", { email: USER.email, password: "x" }],
    ["/auth/change-password", { currentPassword: "x", password: "a new password 1" }],
  ])("%s is refused in the victim's session", async (path, fields) => {
    const victim = await signedIn(w);
    expectRefused(w, await forgedPost(w, path, { ...fields, callbackUrl: "/account" }, CROSS_SITE, victim));
  });

  it.each([
    ["/auth/signup", { email: "victim-made@example.com", password: "a long password" }],
    ["/auth/callback/password", { email: MALLORY.email, password: "a long password" }],
    ["/auth/forgot-password", { email: MALLORY.email }],
    ["/auth/reset-password", { email: MALLORY.email, token: "a".repeat(64), password: "a long password" }],
    ["/auth/callback/email", { email: MALLORY.email, token: "a".repeat(64) }],
    ["/auth/callback/passkey", { action: "authenticate", data: "{}" }],
  ])("%s is refused: nothing stored, nothing mailed", async (path, fields) => {
    expectRefused(w, await forgedPost(w, path, fields));
    expect(w.mails).toEqual([]);
  });
});

describe("the origin rule", () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });

  const signsIn = async (headers: Record<string, string>) => {
    const jar = new CookieJar();
    const token = await csrfToken(w.config, jar);
    return call(w.config, "/auth/callback/credentials", { jar, headers, form: { username: "ada", password: "correct horse", csrfToken: token } });
  };

  it.each([
    ["the app's Origin", { origin: ORIGIN }],
    ["the app's Origin and Sec-Fetch-Site: same-origin", { origin: ORIGIN, "sec-fetch-site": "same-origin" }],
    ["Sec-Fetch-Site: same-origin without Origin", { "sec-fetch-site": "same-origin" }],
    ["Sec-Fetch-Site: none (the user's own navigation)", { "sec-fetch-site": "none" }],
    ["the app's Origin with Sec-Fetch-Site: same-site (the Origin shows it is the app's page)", { origin: ORIGIN, "sec-fetch-site": "same-site" }],
    ["neither header (old browsers, server-to-server: the token alone decides)", {}],
  ])("%s, with the token: signed in", async (_, headers) => {
    const res = await signsIn(headers);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`);
    expect(storesSession(res)).toBe(true);
  });

  it.each([
    ["another site's Origin", { origin: EVIL }],
    ["a sibling subdomain's Origin (same site, another origin)", { origin: SIBLING, "sec-fetch-site": "same-site" }],
    ["Origin: null (sandboxed frame, data: URL, a redirect across origins)", { origin: "null" }],
    ["the app's host on another scheme", { origin: "https://localhost:3000" }],
    ["the app's host on another port", { origin: "http://localhost:3001" }],
    ["the app's origin with a path", { origin: `${ORIGIN}/` }],
    ["Sec-Fetch-Site: cross-site without Origin", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: cross-site even beside the app's Origin", { origin: ORIGIN, "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site without Origin (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
  ])("%s, with a valid token: refused as MissingCSRF, no session", async (_, headers) => {
    w.writes.length = 0;
    const res = await signsIn(headers);
    expectRefused(w, res);
    expect(w.logs.errors.map((e) => e.name)).toContain("MissingCSRF");
    expect(w.logs.errors.at(-1)!.message).toMatch(/origin|Sec-Fetch-Site/i);
  });

  it("the app's Origin does not replace the token: without it, refused", async () => {
    const jar = new CookieJar();
    await csrfToken(w.config, jar);
    w.writes.length = 0;
    const res = await call(w.config, "/auth/callback/credentials", { jar, headers: { origin: ORIGIN, "sec-fetch-site": "same-origin" }, form: { username: "ada", password: "correct horse" } });
    expectRefused(w, res);
  });

  it("the fallback: without Origin and Sec-Fetch-Site a planted pair still passes (documented limitation)", async () => {
    const res = await forgedPost(w, "/auth/callback/credentials", ATTACKER, {});
    expect(res.status).toBe(302);
    expect(storesSession(res)).toBe(true);
  });

  it("the app's origin is the one the handler resolves: AUTH_URL (url) when set", async () => {
    w = await world({ url: "https://app.example.com/auth" });
    // The request reaches the server as http://localhost:3000 (through a proxy); the browser's page is on the public origin.
    const post = async (origin: string) => {
      const jar = new CookieJar();
      const token = await csrfToken(w.config, jar);
      return call(w.config, "/auth/callback/credentials", { jar, headers: { origin }, form: { username: "ada", password: "correct horse", csrfToken: token } });
    };
    expect(storesSession(await post("https://app.example.com"), "__Secure-authjs.session-token")).toBe(true);
    const refused = await post(ORIGIN);
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
    expect(storesSession(refused, "__Secure-authjs.session-token")).toBe(false);
  });

  it("behind a trusted proxy, the forwarded origin is the app's", async () => {
    const forwarded = { "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" };
    const post = async (origin: string) => {
      const jar = new CookieJar();
      const res = await call(w.config, "/auth/csrf", { jar, headers: forwarded });
      const token = ((await res.json()) as { csrfToken: string }).csrfToken;
      return call(w.config, "/auth/callback/credentials", { jar, headers: { ...forwarded, origin }, form: { username: "ada", password: "correct horse", csrfToken: token } });
    };
    expect(storesSession(await post("https://app.example.com"), "__Secure-authjs.session-token")).toBe(true);
    expect(new URL((await post(EVIL)).headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
  });
});
