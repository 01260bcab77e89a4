/**
 * The pre-account takeover scenes: one app (OIDC provider, email links, passkeys,
 * optionally passwords) and two people. Mallory claims Ada's address first
 * (a provider that does not vouch for it, a passkey sign-up, a password);
 * Ada proves it later (her mailbox, or a provider that vouches for it). Real
 * parts: oidc-provider and an SMTP server on 127.0.0.1, the software
 * authenticator, the handler driven with `Request`s.
 */
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { Nodemailer, OIDC, Passkey } from "@gatehouse/runtime/providers";
import { captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET } from "../../helpers.js";
import { followLink, mailedLink } from "../../email/support/flow.js";
import type { MailServer } from "../../email/support/smtp.js";
import { signInThroughProvider } from "../../oauth/support/handler-flow.js";
import { startOidcServer, type OidcServer } from "../../oauth/support/oidc-server.js";
import { newAuthenticator, signUp as passkeySignUp } from "../../webauthn/support/flow.js";

/** The address both people use: Ada's mailbox. */
export const ADA = "ada@example.test";

/** Provider ids: the same IdP with and without `allowDangerousEmailAccountLinking`. */
export const PROVIDER_IDS = ["oidc", "oidc-linking"] as const;

/**
 * The IdP's people: `ada` (the default claims: ada@example.test, verified),
 * `mallory`, whose account there says Ada's address without having verified it
 * (`email_verified: false`, as Keycloak, Okta or Auth0 send for an address
 * nobody confirmed), and `mallory-silent`, whose provider says nothing about it.
 */
export function startTakeoverIdp(): Promise<OidcServer> {
  return startOidcServer({
    redirectUris: PROVIDER_IDS.map((id) => `${ORIGIN}/auth/callback/${id}`),
    accounts: {
      mallory: { email: ADA, email_verified: false, name: "Mallory" },
      "mallory-silent": { email: ADA, email_verified: undefined, name: "Mallory" },
    },
  });
}

export interface TakeoverApp {
  config: AuthConfig;
  logs: ReturnType<typeof captureLogger>;
}

/** The app: both IdP entries, email links to `mail`, passkeys, the given adapter and session strategy. */
export function takeoverApp(idp: OidcServer, mail: MailServer, adapter: Adapter, overrides: Partial<AuthConfig> = {}): TakeoverApp {
  const logs = captureLogger();
  const oidc = (id: string, extra: Record<string, unknown> = {}) =>
    OIDC({ id, name: id, issuer: idp.issuer, clientId: idp.clients.basic.client_id, clientSecret: idp.clients.basic.client_secret, ...extra });
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: logs.logger,
    adapter,
    experimental: { enableWebAuthn: true },
    providers: [
      oidc("oidc"),
      oidc("oidc-linking", { allowDangerousEmailAccountLinking: true }),
      Nodemailer({ server: mail.url, from: "Sign in <no-reply@example.com>" }),
      Passkey(),
    ],
    ...overrides,
  };
  return { config, logs };
}

/** Signs `login` in at the IdP through provider `id`; the jar holds the app session, if any. */
export async function signInWithIdp(config: AuthConfig, login: string, id: (typeof PROVIDER_IDS)[number] = "oidc", jar = new CookieJar()) {
  const { callback } = await signInThroughProvider(config, jar, id, { login });
  return { jar, callback, location: locationOf(callback) };
}

/** Requests a link to `email`, opens it and presses the button, in a browser of its own. */
export async function signInWithEmailLink(config: AuthConfig, mail: MailServer, email = ADA, jar = new CookieJar()) {
  const link = await mailedLink(config, mail, jar, email);
  const { result } = await followLink(config, jar, link);
  return { jar, result, location: locationOf(result) };
}

/** A passkey sign-up with `email` on a new software authenticator. */
export async function signUpWithPasskey(config: AuthConfig, email = ADA, jar = new CookieJar()) {
  const authenticator = newAuthenticator();
  const { response } = await passkeySignUp(config, jar, authenticator, email);
  return { jar, authenticator, response };
}

/** The email of the session in `jar`, or null when it has none. */
export async function sessionEmail(config: AuthConfig, jar: CookieJar): Promise<string | null> {
  const { body } = await fetchSession(config, jar);
  return body?.user?.email ?? null;
}
