/**
 * Where a person lands when a sign-in goes wrong, side by side with Auth.js
 * (`@auth/core` 0.41.3): an unknown provider on callback/signin, an unknown
 * path, an `authorize` that throws a plain Error. A browser navigation (a link,
 * a form, a provider's redirect back) always gets a page that says what
 * happened; a program (fetch, `X-Auth-Return-Redirect`, no `Accept: text/html`)
 * keeps the JSON answer with its status.
 */
import { Auth as AuthJsOverloaded } from "@auth/core";
import AuthJsCredentials from "@auth/core/providers/credentials";
import AuthJsGitHub from "@auth/core/providers/github";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { describe, expect, it } from "vitest";
import { CookieJar, ORIGIN, SECRET, USER, captureLogger, request, storesSession, type RequestOptions } from "../helpers.js";

const AuthJs = AuthJsOverloaded as unknown as (request: Request, config: unknown) => Promise<Response>;
type Handler = (request: Request, config: AuthConfig) => Promise<Response>;
const HANDLERS: [string, Handler][] = [
  ["gatehouse", (r, c) => Auth(r, c)],
  ["Auth.js", (r, c) => AuthJs(r, c)],
];

/** What Chromium sends when a person follows a link or a provider redirects back. */
const LINK = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", "sec-fetch-site": "cross-site" };
/** What Chromium sends when a person submits a form of the app's page. */
const FORM = { ...LINK, "sec-fetch-site": "same-origin", origin: ORIGIN };
/** What `fetch` sends from the app's page. */
const FETCH = { accept: "application/json", "sec-fetch-mode": "cors", "sec-fetch-site": "same-origin", origin: ORIGIN };

/** One config that runs on both handlers: Auth.js's own provider factories. */
function config(authorize: () => unknown = () => ({ ...USER }), extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: captureLogger().logger,
    providers: [
      AuthJsCredentials({ credentials: { username: {}, password: {} }, authorize: authorize as never }) as AuthConfig["providers"][number],
      AuthJsGitHub({ clientId: "id", clientSecret: "secret" }) as AuthConfig["providers"][number],
    ],
    ...extra,
  };
}

async function send(handler: Handler, cfg: AuthConfig, path: string, options: RequestOptions & { csrf?: boolean } = {}): Promise<Response> {
  const jar = options.jar ?? new CookieJar();
  let form = options.form;
  if (options.csrf) {
    const csrf = await handler(request("/auth/csrf", { jar }), cfg);
    jar.store(csrf);
    form = { ...form, csrfToken: ((await csrf.json()) as { csrfToken: string }).csrfToken };
  }
  return handler(request(path, { ...options, jar, form }), cfg);
}

/** The page a browser ends on: the answer itself, or where its redirect leads (followed once, as a browser would). */
async function landing(handler: Handler, cfg: AuthConfig, response: Response): Promise<{ status: number; url: string | null; html: string }> {
  const location = response.headers.get("location");
  if (!location) return { status: response.status, url: null, html: await response.text() };
  const page = await handler(new Request(location, { headers: LINK }), cfg);
  return { status: page.status, url: location, html: await page.text() };
}

const heading = (html: string) => html.match(/<h1>([^<]*)<\/h1>/)?.[1];

describe("an unknown provider, as a person's browser meets it", () => {
  const cases: [string, string, RequestOptions & { csrf?: boolean }][] = [
    ["GET callback/<unknown> (a provider redirecting back to a provider since removed)", "/auth/callback/gone?code=abc&state=xyz", { headers: LINK }],
    ["GET signin/<unknown> (an old link)", "/auth/signin/gone", { headers: LINK }],
    ["POST signin/<unknown> from a form", "/auth/signin/gone", { headers: FORM, form: {}, csrf: true }],
  ];

  it.each(cases)("%s: Auth.js says 'Server error' (Configuration); gatehouse a 400 page that the link does not work", async (_, path, options) => {
    const cfg = config();
    const [ours, theirs] = await Promise.all(HANDLERS.map(async ([, handler]) => landing(handler, cfg, await send(handler, cfg, path, options))));

    expect(theirs!.url).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect([theirs!.status, heading(theirs!.html)]).toEqual([500, "Server error"]);

    // The stricter status stays (the request is the client's, not a server fault), on a page that says so.
    expect(ours!.url).toBeNull();
    expect(ours!.status).toBe(400);
    expect(heading(ours!.html)).toBe("This link does not work");
    expect(ours!.html).toContain("sign-in method this site does not have");
    expect(ours!.html).toContain(`href="${ORIGIN}/auth/signin"`);
    expect(ours!.html).not.toContain("gone");
  });

  it.each([
    ["fetch (Sec-Fetch-Mode: cors), even with Accept: text/html", { ...FETCH, accept: "text/html" }],
    ["a client module (X-Auth-Return-Redirect: 1)", { "x-auth-return-redirect": "1", accept: "text/html" }],
    ["a program that names no type (curl: Accept */*)", { accept: "*/*" }],
    ["a program asking for JSON", { accept: "application/json" }],
  ])("a program keeps the 400 JSON that names the configured providers: %s", async (_, headers) => {
    for (const [path, method] of [["/auth/callback/gone", "GET"], ["/auth/signin/gone", "GET"], ["/auth/signin/gone", "POST"]] as const) {
      const response = await send(HANDLERS[0]![1], config(), path, method === "POST" ? { headers, form: {}, csrf: true } : { headers });
      expect([path, method, response.status, response.headers.get("content-type")]).toEqual([path, method, 400, "application/json"]);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe("UnknownAction");
      expect(body.message).toContain("credentials, github");
    }
  });

  it("a forged POST signin/<unknown> is refused for its missing CSRF token first, on the sign-in page (as for a known provider)", async () => {
    const response = await send(HANDLERS[0]![1], config(), "/auth/signin/gone", { headers: FORM, form: {} });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
  });

  it("GET signin/<known id> still shows the sign-in page", async () => {
    const response = await send(HANDLERS[0]![1], config(), "/auth/signin/github", { headers: LINK });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`${ORIGIN}/auth/signin/github`);
  });

  it("with pages.error the browser goes to the app's page with error=UnknownAction (Auth.js: error=Configuration)", async () => {
    const cfg = config(undefined, { pages: { error: "/oops" } });
    const [ours, theirs] = await Promise.all(HANDLERS.map(([, handler]) => send(handler, cfg, "/auth/callback/gone", { headers: LINK })));
    expect([ours!.status, ours!.headers.get("location")]).toEqual([302, `${ORIGIN}/oops?error=UnknownAction`]);
    expect([theirs!.status, theirs!.headers.get("location")]).toEqual([302, `${ORIGIN}/oops?error=Configuration`]);
  });

  it("a pages.error under the base path (which would come back here, for ever) gets the built-in page instead", async () => {
    const response = await send(HANDLERS[0]![1], config(undefined, { pages: { error: "/auth/oops" } }), "/auth/oops", { headers: LINK });
    expect(response.status).toBe(400);
    expect(heading(await response.text())).toBe("This link does not work");
  });
});

describe("an unknown path, as a person's browser meets it", () => {
  it.each([
    ["GET /auth/nope", "/auth/nope", {}],
    ["GET /auth/signin/github/extra", "/auth/signin/github/extra", {}],
    ["POST /auth/nope from a form", "/auth/nope", { form: { x: "1" } }],
  ])("%s: a 400 page (Auth.js: a 400 JSON body, to a browser too)", async (_, path, options) => {
    const headers = "form" in options ? FORM : LINK;
    const theirs = await send(HANDLERS[1]![1], config(), path, { ...options, headers });
    expect([theirs.status, theirs.headers.get("content-type")]).toEqual([400, "application/json"]);
    const response = await send(HANDLERS[0]![1], config(), path, { ...options, headers });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(heading(await response.text())).toBe("This link does not work");
    const json = await send(HANDLERS[0]![1], config(), path, { ...options, headers: FETCH });
    expect([json.status, ((await json.json()) as { error: string }).error]).toEqual([400, "UnknownAction"]);
  });

  it("a form post with a body that cannot be read: the status kept, on a page", async () => {
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, { method: "POST", headers: { ...FORM, "content-type": "text/plain" }, body: "x" }),
      config(),
    );
    expect(response.status).toBe(415);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(heading(await response.text())).toBe("Unable to sign in");
  });
});

describe("an authorize that throws a plain Error", () => {
  const throwing = () => {
    throw new Error("connect ECONNREFUSED db.internal:5432");
  };

  it("Auth.js says 'Server error' (Configuration); gatehouse error=ServerError, a page that says the server failed, nothing of the message", async () => {
    const cfg = config(throwing);
    const [ours, theirs] = await Promise.all(
      HANDLERS.map(async ([, handler]) => {
        const response = await send(handler, cfg, "/auth/callback/credentials", { headers: FORM, form: { username: "ada", password: "x" }, csrf: true });
        expect(storesSession(response)).toBe(false);
        return landing(handler, cfg, response);
      }),
    );
    expect(theirs!.url).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    expect([theirs!.status, heading(theirs!.html)]).toEqual([500, "Server error"]);

    // The error parameter is one the error page knows; it is not Configuration (the app's code failed, not its configuration).
    expect(ours!.url).toBe(`${ORIGIN}/auth/error?error=ServerError`);
    expect(ours!.status).toBe(500);
    expect(heading(ours!.html)).toBe("Something went wrong");
    expect(ours!.html).toContain("Please try again in a moment");
    expect(ours!.html).toContain(`href="${ORIGIN}/auth/signin"`);
    expect(ours!.html).not.toMatch(/ECONNREFUSED|db\.internal|configuration/i);
  });

  it("a client module gets {url} of the same page; a JSON action would say ServerError too", async () => {
    const response = await send(HANDLERS[0]![1], config(throwing), "/auth/callback/credentials", {
      headers: { "x-auth-return-redirect": "1" },
      form: { username: "ada", password: "x" },
      csrf: true,
    });
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    expect(url).toBe(`${ORIGIN}/auth/error?error=ServerError`);
  });

  it("with pages.error the app's page gets error=ServerError, which it can tell from Configuration", async () => {
    const response = await send(HANDLERS[0]![1], config(throwing, { pages: { error: "/oops" } }), "/auth/callback/credentials", {
      headers: FORM,
      form: { username: "ada", password: "x" },
      csrf: true,
    });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/oops?error=ServerError`);
  });
});
