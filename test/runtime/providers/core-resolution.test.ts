/**
 * Every catalog provider, as core resolves it (issuer-based ones with the
 * issuer env would give): accepted, with the scope, checks, client
 * authentication and callback handling the provider asked for, and the user's
 * overrides merged over the defaults.
 */
import { describe, expect, it } from "vitest";
import * as providers from "@gatehouse/runtime/providers";
import { resolveProviders } from "../../../runtime/src/core/config/providers.js";
import { providerCatalog } from "../../../runtime/src/providers/catalog.js";
import type { AuthConfig } from "../../../runtime/src/types.js";

/** What `AUTH_<ID>_ISSUER` would hold for the providers without a fixed issuer. */
const ISSUERS: Record<string, string> = {
  auth0: "https://example.us.auth0.com/",
  okta: "https://example.okta.com/oauth2/default",
  keycloak: "https://sso.example.com/realms/acme",
  cognito: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI",
  zitadel: "https://acme-x1y2z3.zitadel.cloud",
  authentik: "https://auth.example.com/application/o/gatehouse/",
  "microsoft-entra-id": "https://login.microsoftonline.com/9122040d-6c67-4c5b-b112-36a304b66dad/v2.0",
};

type Resolved = { id: string; oauth: { authorizationParams: Record<string, string>; checks: Record<string, boolean>; clientAuth: string; formPost: boolean; callbackProfile?: unknown } };

function resolve(list: unknown[]): Resolved[] {
  return resolveProviders({ providers: list } as AuthConfig) as unknown as Resolved[];
}

const entries = providerCatalog.filter((entry) => entry.type === "oauth" || entry.type === "oidc");
const factory = (importName: string) => (providers as unknown as Record<string, (options?: object) => unknown>)[importName]!;

describe("core resolves every catalog provider", () => {
  it.each(entries.map((entry) => [entry.id, entry] as const))("%s", (id, entry) => {
    const make = factory(entry.importName);
    const [resolved] = resolve([ISSUERS[id] ? make({ issuer: ISSUERS[id] }) : make]);
    expect(resolved!.id).toBe(id);
    expect(resolved!.oauth.authorizationParams.scope).toBeTruthy();
  });

  it("checks, client authentication and form_post as the providers ask", () => {
    const byId = Object.fromEntries(resolve([providers.Apple, providers.Slack, providers.LinkedIn, providers.Twitch, providers.GitHub]).map((p) => [p.id, p.oauth]));
    expect(byId.apple).toMatchObject({ checks: { state: true, pkce: false, nonce: true }, clientAuth: "client_secret_post", formPost: true });
    expect(typeof byId.apple!.callbackProfile).toBe("function");
    expect(byId.slack).toMatchObject({ checks: { state: true, pkce: false, nonce: true } });
    expect(byId.linkedin).toMatchObject({ checks: { state: true, pkce: false, nonce: false }, clientAuth: "client_secret_post" });
    expect(byId.twitch!.authorizationParams.claims).toBe('{"id_token":{"email":null,"email_verified":null,"picture":null,"preferred_username":null}}');
    expect(byId.github).toMatchObject({ checks: { state: true, pkce: true, nonce: false }, clientAuth: "client_secret_basic" });
  });

  it("an override of one parameter keeps the default scope", () => {
    const [google] = resolve([providers.Google({ authorization: { params: { prompt: "consent" } } })]);
    expect(google!.oauth.authorizationParams).toMatchObject({ scope: "openid profile email", prompt: "consent" });
  });
});
