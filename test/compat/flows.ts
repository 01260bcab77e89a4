/**
 * The configs and scripted flows the side-by-side suite runs through both
 * handlers. Every config is built fresh per run (fresh MemoryAdapter, fresh
 * spies), with Auth.js's own provider factories where a config written for
 * Auth.js would use them.
 */
import AuthJsCredentials from "@auth/core/providers/credentials";
import type { AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { OIDC } from "@gatehouse/runtime/providers";
import { SECRET, USER } from "../helpers.js";
import { ProviderUserAgent } from "../oauth/support/user-agent.js";
import type { FlowState, Step } from "./support/driver.js";

const quiet = { error() {}, warn() {}, debug() {} };
type Provider = AuthConfig["providers"][number];

/** What both runs share: secret, trusted host, quiet logger, and a `jwt` callback that applies `update()`. */
function base(overrides: Partial<AuthConfig>): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    // Ours re-issues the JWT cookie once per updateAge, Auth.js on every read: 0 makes them comparable.
    session: { strategy: "jwt", updateAge: 0 },
    callbacks: {
      jwt: ({ token, trigger, session }) => (trigger === "update" && session?.name ? { ...token, name: session.name } : token),
      // Database mode: the client shape, with `update()`'s name (returning the stored session is a documented difference).
      session: ({ session, trigger, newSession, user }: any) =>
        user
          ? { user: { name: trigger === "update" && newSession?.name ? newSession.name : user.name, email: user.email, image: user.image }, expires: session.expires }
          : session,
    },
    providers: [],
    ...overrides,
  };
}

export function credentialsConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return base({
    providers: [
      AuthJsCredentials({
        credentials: { username: {}, password: {} },
        authorize: (c) => (c.username === "ada" && c.password === "correct horse" ? { ...USER } : null),
      }) as Provider,
    ],
    ...overrides,
  });
}

/** An email provider whose `sendVerificationRequest` spy keeps the link in `captured.link`. */
export function emailConfig(captured: Record<string, string>, overrides: { confirmLink?: boolean; session?: AuthConfig["session"] } = {}): AuthConfig {
  const provider = {
    id: "email",
    type: "email",
    name: "Email",
    from: "auth@example.com",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: ({ url }: { url: string }) => void (captured.link = url),
    ...(overrides.confirmLink === undefined ? {} : { confirmLink: overrides.confirmLink }),
  } as unknown as Provider;
  return base({ adapter: MemoryAdapter(), session: overrides.session ?? { strategy: "database", updateAge: 0 }, providers: [provider] });
}

export function oidcConfig(issuer: string, client: { client_id: string; client_secret?: string }, session: AuthConfig["session"]): AuthConfig {
  return base({
    adapter: MemoryAdapter(),
    session,
    providers: [OIDC({ id: "oidc", name: "Test IdP", issuer, clientId: client.client_id, clientSecret: client.client_secret! })],
  });
}

const csrf = (state: FlowState) => ({ csrfToken: state.csrfToken! });

/** Read, update (`POST session`, the client's `update()`), read, sign out, read. */
export const AFTER_SIGN_IN: Step[] = [
  { name: "GET session", path: "/auth/session" },
  { name: "POST session (update)", path: "/auth/session", json: (s) => ({ ...csrf(s), data: { name: "Ada L" } }) },
  { name: "GET session after update", path: "/auth/session" },
  // With its own destination: where a sign-out without one lands is a documented difference.
  { name: "POST signout", path: "/auth/signout", form: (s) => ({ ...csrf(s), callbackUrl: "/bye" }) },
  { name: "GET session after signout", path: "/auth/session" },
];

export const CREDENTIALS_FLOW: Step[] = [
  { name: "GET csrf", path: "/auth/csrf" },
  { name: "GET providers", path: "/auth/providers" },
  { name: "POST callback/credentials (wrong password)", path: "/auth/callback/credentials", form: (s) => ({ ...csrf(s), username: "ada", password: "no" }) },
  {
    name: "POST callback/credentials",
    path: "/auth/callback/credentials",
    form: (s) => ({ ...csrf(s), username: "ada", password: "correct horse", callbackUrl: "/dashboard" }),
  },
  ...AFTER_SIGN_IN,
];

export const EMAIL_SIGN_IN: Step[] = [
  { name: "GET csrf", path: "/auth/csrf" },
  { name: "POST signin/email", path: "/auth/signin/email", form: (s) => ({ ...csrf(s), email: "ada@example.com", callbackUrl: "/dashboard" }) },
  { name: "GET the mailed link", path: (s) => s.captured.link! },
];

export const EMAIL_FLOW: Step[] = [...EMAIL_SIGN_IN, ...AFTER_SIGN_IN];

/** Sign in at the IdP with the provider's own browser profile, then bring its answer to our callback. */
export function oidcFlow(login: string): Step[] {
  return [
    { name: "GET csrf", path: "/auth/csrf" },
    { name: "POST signin/oidc", path: "/auth/signin/oidc", form: (s) => ({ ...csrf(s), callbackUrl: "/dashboard" }) },
    {
      name: "GET callback/oidc (from the IdP)",
      path: async (s) => {
        const answer = await new ProviderUserAgent().authorize(s.location!, { login });
        if (answer.callbackUrl === undefined) throw new Error("the IdP answered with form_post");
        return answer.callbackUrl;
      },
    },
    ...AFTER_SIGN_IN,
  ];
}
