/**
 * A config spec made real: the `AuthConfig` (a new object per case, so nothing
 * is cached across cases), its observed memory adapter with the planted user,
 * sessions and sign-in link, and what the checks need to know about it.
 */
import { createHash } from "node:crypto";
import { CredentialsSignin, skipCSRFCheck, type AuthConfig, type RateLimitStore } from "@gatehouse/runtime";
import { MemoryAdapter, type MemoryAdapterInstance } from "@gatehouse/runtime/adapters/memory";
import { Credentials, Email, OAuth, OIDC, Passkey } from "@gatehouse/runtime/providers";
import { captureLogger } from "../../helpers.js";
import { observedAdapter, WriteLedger, type FaultState } from "./adapter.js";
import { PROVIDER_IDS, PROVIDER_ORIGIN, type ConfigSpec, type ProviderKind, type ValidConfigSpec } from "./config-specs.js";
import {
  AUTHORIZE_FAULT,
  CALLBACK_FAULT,
  CLIENT_SECRET,
  EVENT_FAULT,
  OLD_SECRET,
  PLANTED,
  REDIRECT_FAULT,
  SECRET,
  SENDER_FAULT,
  SHORT_SECRET,
  SIGNIN_FAULT,
} from "./sentinels.js";

export interface BuiltConfig {
  spec: ConfigSpec;
  valid: boolean;
  config: AuthConfig;
  memory?: MemoryAdapterInstance;
  ledger: WriteLedger;
  fault: FaultState;
  /** Newest first; what valid cookies are made with. */
  secrets: string[];
  strategy: "jwt" | "database";
  /** Ids of the configured providers (of the valid base, for an invalid config). */
  providerIds: string[];
  /** The base path the handler serves (for a valid config). */
  basePath: string;
  /** The origin of `url`, when the config fixes one. */
  fixedOrigin?: string;
  useSecureCookies?: boolean;
  /** Origins besides the app's that a redirect may go to: the providers' and the configured pages'. */
  externalOrigins: string[];
  /** Links the email provider "sent". */
  sent: string[];
  /** The addresses it sent them to. */
  mailedTo: string[];
}

class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login";
}

const DAY = 24 * 60 * 60 * 1000;

function credentialsProvider() {
  return Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize: (c) => {
      if (c.username === "boom") throw new Error(AUTHORIZE_FAULT);
      if (c.username === "deny") throw new InvalidLogin();
      if (c.username === "weird") return "not a user" as never;
      if (c.username === "ada" && c.password === "correct horse") return { ...PLANTED.user };
      return null;
    },
  });
}

function providerOf(kind: ProviderKind, spec: ValidConfigSpec, sent: string[], mailedTo: string[]) {
  const checks = spec.oauthChecks === "none" ? { checks: ["none" as const] } : {};
  switch (kind) {
    case "credentials":
      return credentialsProvider();
    case "email":
      return Email({
        confirmLink: spec.emailConfirmLink,
        sendVerificationRequest: async ({ identifier, url }) => {
          if (spec.emailSendFails || identifier.includes("fail")) throw new Error(SENDER_FAULT);
          sent.push(url);
          mailedTo.push(identifier);
        },
      });
    case "passkey":
      return Passkey();
    case "oidc":
      return OIDC({ id: "oidc", name: "Unreachable OIDC", issuer: `${PROVIDER_ORIGIN}/`, clientId: "fuzz-client", clientSecret: CLIENT_SECRET, requestTimeout: 500, ...checks });
    case "oauth":
      return OAuth({
        id: "loop",
        name: "Unreachable OAuth",
        authorization: { url: `${PROVIDER_ORIGIN}/authorize`, params: { scope: "read" } },
        token: `${PROVIDER_ORIGIN}/token`,
        userinfo: `${PROVIDER_ORIGIN}/userinfo`,
        clientId: "fuzz-client",
        clientSecret: CLIENT_SECRET,
        requestTimeout: 500,
        profile: (p: Record<string, unknown>) => ({ id: String(p.id), name: null, email: null, image: null }),
        ...checks,
      });
  }
}

function callbacksOf(spec: ValidConfigSpec): AuthConfig["callbacks"] {
  const { signIn, redirect, jwt, session } = spec.callbacks;
  const callbacks: NonNullable<AuthConfig["callbacks"]> = {};
  if (signIn === "refuse") callbacks.signIn = () => false;
  if (signIn === "throw") callbacks.signIn = () => { throw new Error(SIGNIN_FAULT); };
  if (signIn === "foreign-url") callbacks.signIn = () => "https://evil.com/welcome";
  if (signIn === "relative-url") callbacks.signIn = () => "/welcome";
  if (redirect === "throw") callbacks.redirect = () => { throw new Error(REDIRECT_FAULT); };
  if (redirect === "javascript") callbacks.redirect = () => "javascript:alert(1)";
  if (redirect === "base") callbacks.redirect = ({ baseUrl }) => baseUrl;
  if (jwt === "null") callbacks.jwt = () => null;
  if (jwt === "throw") callbacks.jwt = () => { throw new Error(CALLBACK_FAULT); };
  if (jwt === "claims") callbacks.jwt = ({ token }) => ({ ...token, role: "member" });
  if (jwt === "huge") callbacks.jwt = ({ token }) => ({ ...token, notes: "n".repeat(6000) });
  if (session === "throw") callbacks.session = () => { throw new Error(CALLBACK_FAULT); };
  return callbacks;
}

function eventsOf(spec: ValidConfigSpec): AuthConfig["events"] {
  if (!spec.eventsThrow) return undefined;
  const fail = () => { throw new Error(EVENT_FAULT); };
  return { signIn: fail, signOut: fail, session: fail, createUser: fail, updateUser: fail, linkAccount: fail };
}

/** The base path as the handler resolves it (config, else the path of `url`, else `/auth`). */
function resolvedBasePath(spec: ValidConfigSpec): string {
  const normalize = (path: string) => {
    const trimmed = path.replace(/\/+$/, "");
    return trimmed === "" ? "" : trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
  };
  if (spec.basePath !== undefined) return normalize(spec.basePath);
  return (spec.url ? normalize(new URL(spec.url).pathname) : "") || "/auth";
}

/** A rate-limit store whose every count is over any limit: one request meets the refusal a long attack would. */
const EXHAUSTED_STORE: RateLimitStore = {
  hit: async (_key, windowSeconds) => ({ count: 1_000_000, resetAt: Date.now() + windowSeconds * 1000 }),
  reset: async () => {},
};

function rateLimitOf({ clientAddressHeader, exhausted }: NonNullable<ValidConfigSpec["rateLimit"]>): NonNullable<AuthConfig["rateLimit"]> {
  return { ...(clientAddressHeader === undefined ? {} : { clientAddressHeader }), ...(exhausted ? { store: EXHAUSTED_STORE } : {}) };
}

function validConfig(spec: ValidConfigSpec, sent: string[], mailedTo: string[], adapter: AuthConfig["adapter"]): AuthConfig {
  return {
    secret: spec.rotation ? [SECRET, OLD_SECRET] : SECRET,
    trustHost: spec.trustHost,
    logger: captureLogger().logger,
    debug: spec.debug,
    providers: spec.providers.map((kind) => providerOf(kind, spec, sent, mailedTo)),
    adapter,
    session: {
      ...(spec.strategy === "default" ? {} : { strategy: spec.strategy }),
      ...(spec.updateAge === undefined ? {} : { updateAge: spec.updateAge }),
    },
    ...(spec.basePath === undefined ? {} : { basePath: spec.basePath }),
    ...(spec.url === undefined ? {} : { url: spec.url }),
    ...(spec.rateLimit === undefined ? {} : { rateLimit: rateLimitOf(spec.rateLimit) }),
    ...(spec.skipCSRFCheck ? { skipCSRFCheck } : {}),
    ...(spec.useSecureCookies === undefined ? {} : { useSecureCookies: spec.useSecureCookies }),
    ...(spec.theme ? { theme: spec.theme as AuthConfig["theme"] } : {}),
    ...(spec.pages ? { pages: spec.pages } : {}),
    experimental: { enableWebAuthn: spec.providers.includes("passkey") },
    callbacks: callbacksOf(spec),
    events: eventsOf(spec),
  };
}

/** The base config broken in one way. */
function invalidate(config: AuthConfig, reason: Extract<ConfigSpec, { kind: "invalid" }>["reason"], adapter: AuthConfig["adapter"]): AuthConfig {
  switch (reason) {
    case "short-secret":
      return { ...config, secret: SHORT_SECRET };
    case "no-secret":
      return { ...config, secret: undefined };
    case "no-trust-host":
      return { ...config, trustHost: false, url: undefined };
    case "unknown-provider-type":
      return { ...config, providers: [...(config.providers ?? []), { id: "weird", name: "Weird", type: "saml" } as never] };
    case "duplicate-ids":
      return { ...config, providers: [...(config.providers ?? []), credentialsProvider(), credentialsProvider()] };
    case "bad-base-path":
      return { ...config, basePath: "/auth?x=1" };
    case "database-without-adapter":
      return { ...config, adapter: undefined, session: { strategy: "database" } };
    case "webauthn-not-enabled":
      return { ...config, adapter, providers: [...(config.providers ?? []), Passkey({ id: "passkey2", enableConditionalUI: false })], experimental: {} };
    case "email-without-adapter":
      return { ...config, adapter: undefined, session: { strategy: "jwt" }, providers: [...(config.providers ?? []), Email({ id: "email2", sendVerificationRequest: async () => {} })] };
    case "negative-max-age":
      return { ...config, session: { maxAge: -1 } };
    case "bad-client-address-header":
      // A header name no proxy sets (a space in it): a limit that could never read an address.
      return { ...config, rateLimit: { clientAddressHeader: "x forwarded for" } };
    case "insecure-issuer":
      return { ...config, providers: [...(config.providers ?? []), OIDC({ id: "remote", name: "Remote", issuer: "http://idp.example/", clientId: "x", clientSecret: CLIENT_SECRET })] };
  }
}

/** Stores the planted user, a live session due for extension, an expired session, and a sign-in link. */
async function plant(memory: MemoryAdapterInstance, secret: string): Promise<void> {
  await memory.createUser({ ...PLANTED.user });
  await memory.createSession({ sessionToken: PLANTED.sessionToken, userId: PLANTED.user.id, expires: new Date(Date.now() + 28 * DAY) });
  await memory.createSession({ sessionToken: PLANTED.expiredSessionToken, userId: PLANTED.user.id, expires: new Date(Date.now() - DAY) });
  const hashed = createHash("sha256").update(`${PLANTED.linkToken}${secret}`).digest("hex");
  await memory.createVerificationToken({ identifier: PLANTED.user.email, token: hashed, expires: new Date(Date.now() + DAY) });
}

export async function buildConfig(spec: ConfigSpec): Promise<BuiltConfig> {
  const base = spec.kind === "valid" ? spec : spec.base;
  const needsAdapter = base.adapter || base.strategy === "database" || base.providers.some((p) => p === "email" || p === "passkey");
  const ledger = new WriteLedger();
  const fault: FaultState = { spec: base.fault, fired: false, calls: 0 };
  const sent: string[] = [];
  const mailedTo: string[] = [];
  let memory: MemoryAdapterInstance | undefined;
  let adapter: AuthConfig["adapter"];
  // The invalid configs that add a passkey provider still need a store for it.
  if (needsAdapter || (spec.kind === "invalid" && spec.reason === "webauthn-not-enabled")) {
    memory = MemoryAdapter();
    await plant(memory, SECRET);
    adapter = observedAdapter(memory, ledger, fault);
  }
  const valid = validConfig(base, sent, mailedTo, needsAdapter ? adapter : undefined);
  const config = spec.kind === "valid" ? valid : invalidate(valid, spec.reason, adapter);
  const pageOrigins = Object.values(base.pages ?? {}).filter((p) => p.startsWith("http")).map((p) => new URL(p).origin);
  return {
    spec,
    valid: spec.kind === "valid",
    config,
    memory,
    ledger,
    fault,
    secrets: base.rotation ? [SECRET, OLD_SECRET] : [SECRET],
    strategy: base.strategy === "database" || (base.strategy === "default" && needsAdapter) ? "database" : "jwt",
    providerIds: base.providers.map((kind) => PROVIDER_IDS[kind]),
    basePath: resolvedBasePath(base),
    fixedOrigin: base.url ? new URL(base.url).origin : undefined,
    useSecureCookies: base.useSecureCookies,
    externalOrigins: [PROVIDER_ORIGIN, ...new Set(pageOrigins)],
    sent,
    mailedTo,
  };
}
