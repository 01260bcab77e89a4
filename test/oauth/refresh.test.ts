/**
 * `refreshAccessToken` against oidc-provider's real refresh grant: a valid token
 * is left alone, an expired one is refreshed and stored through the adapter,
 * concurrent callers share one request, a caller still holding a rotated refresh
 * token gets the new tokens, two servers refreshing at once store one result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customFetch, refreshAccessToken, type AdapterAccount, type AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { OIDC } from "@gatehouse/runtime/providers";
import { captureLogger, CookieJar, ORIGIN, SECRET } from "../helpers.js";
import { signInThroughProvider } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";

let server: OidcServer;

beforeAll(async () => {
  // Access tokens outlive the helper's default 60-second leeway, so a fresh one counts as valid.
  server = await startOidcServer({ redirectUris: [`${ORIGIN}/auth/callback/oidc`], accessTokenTtl: 600 });
});
afterAll(() => server?.close());

function setup(client: "basic" | "public" = "basic", adapter = MemoryAdapter()) {
  const tokenRequests: string[] = [];
  const registered = server.clients[client];
  const provider = {
    ...OIDC({
      id: "oidc",
      name: "IdP",
      issuer: server.issuer,
      clientId: registered.client_id,
      clientSecret: registered.client_secret,
      client: { token_endpoint_auth_method: registered.token_endpoint_auth_method as "client_secret_basic" | "none" },
    }),
    [customFetch]: (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/token")) tokenRequests.push(new URLSearchParams(String(init?.body ?? "")).get("grant_type") ?? "?");
      return fetch(input, init);
    },
  };
  const logs = captureLogger();
  const config: AuthConfig = { secret: SECRET, trustHost: true, logger: logs.logger, adapter, providers: [provider] };
  return { config, adapter, tokenRequests, logs };
}

async function signedInAccount(config: AuthConfig, adapter: ReturnType<typeof MemoryAdapter>, login: string): Promise<AdapterAccount> {
  await signInThroughProvider(config, new CookieJar(), "oidc", { login });
  return (await adapter.getAccount(login, "oidc"))!;
}

/** The account as if its access token had expired a minute ago. */
function expired(account: AdapterAccount): AdapterAccount {
  return { ...account, expires_at: Math.floor(Date.now() / 1000) - 60 };
}

describe("refreshAccessToken", () => {
  it("leaves an account whose token is still valid alone (no request)", async () => {
    const { config, adapter, tokenRequests } = setup();
    const account = await signedInAccount(config, adapter, "ada");
    tokenRequests.length = 0;
    expect(await refreshAccessToken(config, account)).toBe(account);
    expect(tokenRequests).toEqual([]);
  });

  it("refreshes an expired token and stores the new tokens through the adapter", async () => {
    const { config, adapter, tokenRequests } = setup();
    const account = await signedInAccount(config, adapter, "bea");
    tokenRequests.length = 0;
    const fresh = await refreshAccessToken(config, expired(account));
    expect(tokenRequests).toEqual(["refresh_token"]);
    expect(fresh.access_token).toEqual(expect.any(String));
    expect(fresh.access_token).not.toBe(account.access_token);
    expect(fresh.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(fresh.token_type).toBe("bearer");
    const stored = await adapter.getAccount("bea", "oidc");
    expect(stored!.access_token).toBe(fresh.access_token);
    expect(stored!.userId).toBe(account.userId);
  });

  it("concurrent calls for the same account make one request and all get the new token", async () => {
    const { config, adapter, tokenRequests } = setup();
    const account = expired(await signedInAccount(config, adapter, "cai"));
    tokenRequests.length = 0;
    const results = await Promise.all(Array.from({ length: 8 }, () => refreshAccessToken(config, account)));
    expect(tokenRequests).toEqual(["refresh_token"]);
    expect(new Set(results.map((r) => r.access_token)).size).toBe(1);
  });

  it("a rotated refresh token: a later caller with the old one gets the new tokens, not a failure", async () => {
    const { config, adapter, tokenRequests } = setup("public");
    const account = expired(await signedInAccount(config, adapter, "dov"));
    tokenRequests.length = 0;
    const first = await refreshAccessToken(config, account);
    expect(first.refresh_token).not.toBe(account.refresh_token);
    const late = await refreshAccessToken(config, account);
    expect(late.access_token).toBe(first.access_token);
    expect(tokenRequests).toEqual(["refresh_token"]);
    // The rotated token is the one stored, and it works.
    const stored = await adapter.getAccount("dov", "oidc");
    expect(stored!.refresh_token).toBe(first.refresh_token);
    const next = await refreshAccessToken(config, expired(stored!));
    expect(next.access_token).not.toBe(first.access_token);
  });

  it("another server that already refreshed (and rotated the refresh token): a stale copy gets the stored tokens, no request", async () => {
    const adapter = MemoryAdapter();
    const a = setup("public", adapter);
    const b = setup("public", adapter);
    const stale = expired(await signedInAccount(a.config, adapter, "eli"));
    const fromA = await refreshAccessToken(a.config, stale);
    b.tokenRequests.length = 0;
    const fromB = await refreshAccessToken(b.config, stale);
    expect(b.tokenRequests).toEqual([]);
    expect(fromB.access_token).toBe(fromA.access_token);
    expect(fromB.refresh_token).toBe(fromA.refresh_token);
  });

  it("two servers refreshing a non-rotating account at once: both get a working token, one is stored", async () => {
    const adapter = MemoryAdapter();
    const a = setup("basic", adapter);
    const b = setup("basic", adapter);
    const account = expired(await signedInAccount(a.config, adapter, "fin"));
    const [fromA, fromB] = await Promise.all([refreshAccessToken(a.config, account), refreshAccessToken(b.config, account)]);
    const stored = await adapter.getAccount("fin", "oidc");
    expect([fromA.access_token, fromB.access_token]).toContain(stored!.access_token);
    for (const token of [fromA.access_token, fromB.access_token]) {
      const me = await fetch(server.url("/me"), { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
    }
  });

  it("with { persist: false } (JWT sessions) the new tokens are returned, not stored", async () => {
    const { config, adapter } = setup();
    const account = await signedInAccount(config, adapter, "fox");
    const fresh = await refreshAccessToken(config, { provider: "oidc", refresh_token: account.refresh_token, expires_at: 0 }, { persist: false });
    expect(fresh.access_token).not.toBe(account.access_token);
    expect((await adapter.getAccount("fox", "oidc"))!.access_token).toBe(account.access_token);
  });

  it("errors say what is wrong: no refresh token, an unknown provider, a refresh token the provider refuses", async () => {
    const { config } = setup();
    await expect(refreshAccessToken(config, { provider: "oidc", expires_at: 0 })).rejects.toMatchObject({
      type: "TokenRefreshError",
      message: expect.stringContaining("no refresh token"),
    });
    await expect(refreshAccessToken(config, { provider: "nope", refresh_token: "x", expires_at: 0 })).rejects.toMatchObject({
      type: "InvalidProvider",
    });
    const refused = refreshAccessToken(config, { provider: "oidc", providerAccountId: "ghost", refresh_token: "not-a-token", expires_at: 0 });
    await expect(refused).rejects.toMatchObject({ type: "TokenRefreshError", message: expect.stringContaining("invalid_grant") });
  });
});
