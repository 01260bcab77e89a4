/**
 * Issue 19, item 4, for OAuth: the address a provider's profile gives goes
 * through the same canonical form as one typed into a form. A profile address
 * with NUL reached PostgreSQL (a Configuration error, a stack trace in the log),
 * and one with a bidi override or a zero-width space became a look-alike user.
 * Now such a profile is refused as the provider's fault (nothing stored), and a
 * full-width spelling is the plain address, so it finds the plain user.
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { migrate, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { OIDC } from "@gatehouse/runtime/providers";
import { openPGlite } from "../adapters/support/pglite.js";
import { captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET, storesSession } from "../helpers.js";
import { signInThroughProvider } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";

const REFUSED: [string, string][] = [
  ["NUL", "eve\u0000@example.test"],
  ["a right-to-left override", "eve\u202e@example.test"],
  ["a zero-width space", "e\u200bve@example.test"],
  ["two addresses", "eve@example.test,mallory@example.test"],
];

let server: OidcServer;
let db: PGlite;
let adapter: Adapter;

beforeAll(async () => {
  const accounts: Record<string, { email: string; email_verified: boolean }> = { wide: { email: "ＡＤＡ@example。test", email_verified: true } };
  REFUSED.forEach(([, email], i) => (accounts[`odd-${i}`] = { email, email_verified: true }));
  db = await openPGlite();
  const client = fromPGlite(db);
  await migrate(client);
  adapter = PostgresAdapter(client);
  server = await startOidcServer({ redirectUris: [`${ORIGIN}/auth/callback/oidc`], accounts });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await db?.close();
});

function setup() {
  const logs = captureLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: logs.logger,
    adapter,
    session: { strategy: "database" },
    providers: [OIDC({ id: "oidc", name: "IdP", issuer: server.issuer, clientId: server.clients.basic.client_id, clientSecret: server.clients.basic.client_secret })],
  };
  return { config, logs };
}

describe("a provider's profile address", () => {
  it.each(REFUSED.map(([label], i) => [label, i] as const))("with %s: refused as the provider's fault (OAuthCallbackError), nobody signed in, nothing stored", async (_label, i) => {
    const { config, logs } = setup();
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login: `odd-${i}` });
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(storesSession(callback)).toBe(false);
    expect((await fetchSession(config, jar)).body).toBeNull();
    expect(await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: `odd-${i}` })).toBeNull();
    expect(logs.errors.map((e) => e.message).join("\n")).toMatch(/is not a plain email address/);
  });

  it("in full-width letters and another script's full stop: the plain address, stored and matched as such", async () => {
    const { config } = setup();
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login: "wide" });
    expect(locationOf(callback).searchParams.get("error")).toBeNull();
    expect((await fetchSession(config, jar)).body.user.email).toBe("ada@example.test");
    expect((await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "wide" }))?.email).toBe("ada@example.test");
  });
});
