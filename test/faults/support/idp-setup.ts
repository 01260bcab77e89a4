/**
 * A fresh handler config per test against the faulty IdP: a new provider object
 * means nothing cached from an earlier test (discovery document, signing keys),
 * a recording adapter says what was written, and the logger keeps what the
 * operator would read.
 */
import { expect } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { OIDC } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, locationOf, ORIGIN, SECRET, storesSession } from "../../helpers.js";
import type { OidcServer } from "../../oauth/support/oidc-server.js";
import { recordingAdapter } from "./recording-adapter.js";

/** `oidc` reads the profile from the ID token (token + JWKS); `oidc-userinfo` (`idToken: false`) also calls userinfo. */
export const PROVIDER_IDS = ["oidc", "oidc-userinfo"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export const REDIRECT_URIS = PROVIDER_IDS.map((id) => `${ORIGIN}/auth/callback/${id}`);

export function idpSetup(idp: Pick<OidcServer, "issuer" | "clients">, id: ProviderId, requestTimeout: number, issuer = idp.issuer) {
  const store = recordingAdapter();
  const log = captureLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    adapter: store.adapter,
    session: { strategy: "database" },
    providers: [
      OIDC({
        id,
        name: "IdP",
        issuer,
        clientId: idp.clients.basic.client_id,
        clientSecret: idp.clients.basic.client_secret,
        requestTimeout,
        ...(id === "oidc-userinfo" ? { idToken: false } : {}),
      }),
    ],
  };
  return { config, store, log };
}

/** The sign-in page with `error`, no session cookie, and no session for the browser afterwards. */
export async function expectSignInPageError(config: AuthConfig, jar: CookieJar, response: Response, error: string): Promise<void> {
  expect(response.status).toBe(302);
  const target = locationOf(response);
  expect(`${target.pathname}?error=${target.searchParams.get("error")}`).toBe(`/auth/signin?error=${error}`);
  expect(storesSession(response)).toBe(false);
  expect(await (await call(config, "/auth/session", { jar })).json()).toBeNull();
}

/** Every logged error with its causes, one per line: what the operator reads. */
export function loggedText(errors: Error[]): string {
  const lines: string[] = [];
  for (const error of errors) {
    let line = `${error.name}: ${error.message}`;
    let cause: unknown = (error.cause as { err?: unknown } | undefined)?.err ?? error.cause;
    for (let depth = 0; cause instanceof Error && depth < 4; depth++) {
      line += ` <- ${cause.name}: ${cause.message}${(cause as { code?: string }).code ? ` (${(cause as { code?: string }).code})` : ""}`;
      cause = cause.cause;
    }
    lines.push(line);
  }
  return lines.join("\n");
}
