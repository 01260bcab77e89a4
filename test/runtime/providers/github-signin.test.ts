/**
 * A whole GitHub Enterprise sign-in through our handler, against a fake GitHub
 * on 127.0.0.1 that answers with recorded responses: the authorization
 * request the provider makes, the token exchange, `/user` and `/user/emails`
 * through the provider's `fetch`, and the session that comes out.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { GitHub } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, fetchSession, locationOf, SECRET } from "../../helpers.js";
import { fixture } from "./fixtures.js";

const CLIENT = { id: "Iv1.0123456789abcdef", secret: "s3cr3t-github-client" };
const received: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let baseUrl: string;

/** GitHub's answers: the token endpoint, then the API. */
function answer(path: string): { status: number; body: unknown } {
  if (path === "/login/oauth/access_token") return { status: 200, body: { access_token: "gho_16C7e42F292c6912E7710c838347Ae178B4a", token_type: "bearer", scope: "read:user,user:email" } };
  if (path === "/api/v3/user") return { status: 200, body: fixture("github/user-private-email.json") };
  if (path === "/api/v3/user/emails") return { status: 200, body: fixture("github/emails-primary-unverified.json") };
  return { status: 404, body: { message: "Not Found" } };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const { status, body: reply } = answer(req.url ?? "");
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("GitHub Enterprise sign-in through the handler", () => {
  it("redirects to the enterprise authorize URL, exchanges the code, and signs in with the verified email", async () => {
    const logs = captureLogger();
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: logs.logger,
      providers: [GitHub({ enterprise: { baseUrl }, clientId: CLIENT.id, clientSecret: CLIENT.secret })],
    };
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const started = await call(config, "/auth/signin/github", { jar, form: { csrfToken: token } });
    expect(started.status).toBe(302);

    const authorize = locationOf(started);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${baseUrl}/login/oauth/authorize`);
    expect(authorize.searchParams.get("client_id")).toBe(CLIENT.id);
    expect(authorize.searchParams.get("scope")).toBe("read:user user:email");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toMatch(/\/auth\/callback\/github$/);
    const state = authorize.searchParams.get("state");
    expect(state).toBeTruthy();

    // GitHub sends the user back with a code; no real browser trip is needed for that.
    const callback = await call(config, `/auth/callback/github?code=4b3c2a1d&state=${encodeURIComponent(state!)}`, { jar });
    expect(logs.errors).toEqual([]);
    expect(callback.status).toBe(302);

    const exchange = received.find((r) => r.path === "/login/oauth/access_token")!;
    expect(exchange.method).toBe("POST");
    const form = new URLSearchParams(exchange.body);
    expect(form.get("code")).toBe("4b3c2a1d");
    expect(form.get("code_verifier")).toBeTruthy();
    expect(exchange.headers.authorization).toMatch(/^Basic /);

    const api = received.filter((r) => r.path.startsWith("/api/v3/"));
    // Sent together, so they may arrive in either order.
    expect(api.map((r) => r.path).sort()).toEqual(["/api/v3/user", "/api/v3/user/emails"]);
    for (const request of api) {
      expect(request.headers.authorization).toBe("Bearer gho_16C7e42F292c6912E7710c838347Ae178B4a");
      expect(request.headers["user-agent"]).toBe("gatehouse");
    }

    const { body: session } = await fetchSession(config, jar);
    // The primary address is unverified: the verified one is used.
    expect(session.user).toEqual({ name: "monalisa", email: "mona@old-job.example", image: "https://avatars.githubusercontent.com/u/2?v=4" });
  });
});
