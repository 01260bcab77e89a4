/**
 * A provider that does not answer: the sign-in fails after `requestTimeout` with
 * the sign-in page's error, instead of holding the request open.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { OAuth, OIDC } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, locationOf, SECRET } from "../helpers.js";
import { startSignIn } from "./support/handler-flow.js";

let silent: Server;
let origin: string;
const held: ServerResponse[] = [];

beforeAll(async () => {
  // Accepts every request and never answers.
  silent = createServer((_request, response) => void held.push(response));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held) response.destroy();
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

function configWith(provider: unknown, logs = captureLogger()): AuthConfig {
  return { secret: SECRET, trustHost: true, logger: logs.logger, providers: [provider as never] };
}

describe("a provider that does not answer", () => {
  it("discovery: OAuthSignin after requestTimeout", async () => {
    const logs = captureLogger();
    const config = configWith(OIDC({ id: "slow", name: "Slow", issuer: origin, clientId: "c", clientSecret: "s", requestTimeout: 300 }), logs);
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const started = Date.now();
    const res = await call(config, "/auth/signin/slow", { jar, form: { csrfToken: token } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(locationOf(res).searchParams.get("error")).toBe("OAuthSignin");
    expect(logs.errors.map((e) => `${e.message} ${String((e.cause as { err?: Error })?.err)}`).join("\n")).toMatch(/metadata|timeout|abort/i);
  });

  it("the token endpoint: OAuthCallbackError after requestTimeout, no session", async () => {
    const logs = captureLogger();
    const config = configWith(
      OAuth({
        id: "slow",
        name: "Slow",
        authorization: `${origin}/authorize`,
        token: `${origin}/token`,
        userinfo: `${origin}/userinfo`,
        clientId: "c",
        clientSecret: "s",
        requestTimeout: 300,
      }),
      logs,
    );
    const jar = new CookieJar();
    const { authorizationUrl } = await startSignIn(config, jar, "slow");
    const state = authorizationUrl.searchParams.get("state")!;
    const res = await call(config, `/auth/callback/slow?code=abc&state=${state}`, { jar });
    expect(locationOf(res).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token=") && !c.startsWith("authjs.session-token=;"))).toBe(false);
  });

  it("a requestTimeout that is not a positive number is a configuration error", async () => {
    const logs = captureLogger();
    const config = configWith(OIDC({ id: "x", name: "X", issuer: origin, requestTimeout: -1 }), logs);
    expect((await call(config, "/auth/session")).status).toBe(500);
    expect(logs.errors[0]!.message).toContain("requestTimeout");
  });
});
