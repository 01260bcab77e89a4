/**
 * Config resolution: validates the user's config once, fills in defaults and keeps
 * the result (or the configuration error) per config object. The user's object is
 * never changed, and nothing is shared between two configs.
 */
import { decode as defaultDecode, encode as defaultEncode, type JWT, type JWTOptions } from "../../jwt.js";
import type { Adapter } from "../../adapters/types.js";
import type {
  AuthConfig,
  CallbacksOptions,
  EventCallbacks,
  PagesOptions,
  Theme,
} from "../../types.js";
import { defaultCookies, mergeCookies, type CookieSet } from "../http/cookies.js";
import {
  AuthError,
  InvalidConfig,
  MissingAdapter,
  MissingSecret,
  UntrustedHost,
} from "../errors/errors.js";
import { checkAdapterMethods } from "../adapter.js";
import { createLogger, type LoggerInstance } from "../logger.js";
import { LruCache } from "../lru.js";
import { resolveProviders, type ResolvedProvider } from "./providers.js";
import { resolveRateLimit, type ResolvedRateLimit } from "../rate-limit/resolve.js";
import { parseAllowedOrigins, type AllowedOrigin } from "../oauth/proxy-origins.js";
import { defaultRedirectCallback } from "../http/redirect.js";
import { defaultSessionCallback, keepToken } from "../session/session-callback.js";
import { secretEnvName } from "./env.js";
import { developmentEnv, frameworkGlue, hostTrustFromEnv, skipCSRFCheck, type FrameworkGlueOptions } from "../symbols.js";

export const MIN_SECRET_LENGTH = 32;
const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;
const DEFAULT_UPDATE_AGE = 24 * 60 * 60;
/** 90 days: three times the sliding `maxAge`, then sign in again. */
const DEFAULT_ABSOLUTE_MAX_AGE = 90 * 24 * 60 * 60;
/** A revocation on another instance ends a JWT session there within this many seconds (session-version.ts). */
const DEFAULT_REVOCATION_DELAY = 5;
/** Decoded session tokens kept per config; enough for a busy server, bounded for memory. */
const SESSION_CACHE_SIZE = 1000;

export interface DecodedSession {
  payload: JWT;
  /** The payload as JSON, to tell whether the `jwt` callback changed it. */
  json: string;
  /** The cookie it was read from: its name salts the key, so the same token under another name is not this session. */
  cookieName: string;
  /** What a read with the default callbacks answers for this token, as JSON: made on the first such read. */
  defaultSessionJson?: string;
}

export interface ResolvedConfig {
  basePath: string;
  /** Fixed public origin from `url`/`AUTH_URL`; otherwise taken from each request. */
  url?: URL;
  trustHost: boolean;
  /** Framework glue vouches that the request URL is the public one (see `FrameworkGlueOptions`). */
  requestUrlIsPublic: boolean;
  /** The first encrypts, all decrypt (from the env: Auth.js's order, AUTH_SECRET_3 .. AUTH_SECRET). */
  secrets: string[];
  providers: ResolvedProvider[];
  providerById: Map<string, ResolvedProvider>;
  session: {
    strategy: "jwt" | "database";
    maxAge: number;
    updateAge: number;
    /** However it slides, a session ends this long (seconds) after its sign-in. */
    absoluteMaxAge: number;
    /** Seconds a user's session version, once read, is reused by JWT session reads (session-version.ts). */
    revocationDelay: number;
    generateSessionToken: () => string;
  };
  jwt: JWTOptions & { usesDefaultCodec: boolean };
  callbacks: Required<CallbacksOptions>;
  events: EventCallbacks;
  pages: Partial<PagesOptions>;
  theme: Required<Theme>;
  logger: LoggerInstance;
  debug: boolean;
  csrfCheck: boolean;
  adapter?: Adapter;
  useSecureCookies?: boolean;
  cookies: (secure: boolean) => CookieSet;
  /** Session JWTs already decrypted: the same ciphertext always decrypts to the same payload. */
  sessionCache: LruCache<string, DecodedSession>;
  redirectProxyUrl?: string;
  /** Where the redirect proxy may forward callbacks: none unless the app lists them. */
  redirectProxyAllowedOrigins: AllowedOrigin[];
  experimental: { enableWebAuthn: boolean };
  /** `NODE_ENV=development` in the env given to `setEnvDefaults`: pages may say what to set up. */
  development: boolean;
  /** Sign-in rate limiting; `undefined` (the default) means off, and nothing of it runs. */
  rateLimit?: ResolvedRateLimit;
}

const resolved = new WeakMap<AuthConfig, ResolvedConfig | AuthError>();

/** The resolved config, computed once per config object. Throws the configuration error, every time. */
export function resolveConfig(config: AuthConfig): ResolvedConfig {
  let entry = resolved.get(config);
  if (!entry) {
    try {
      entry = buildConfig(config);
    } catch (error) {
      entry = error instanceof AuthError ? error : new InvalidConfig("The configuration could not be read.", error as Error);
    }
    resolved.set(config, entry);
  }
  if (entry instanceof AuthError) throw entry;
  return entry;
}

/** `resolveConfig`, or `undefined` for a config it refuses: for glue that answers around the handler, which reports the error itself. */
export function resolveConfigOrUndefined(config: AuthConfig): ResolvedConfig | undefined {
  try {
    return resolveConfig(config);
  } catch {
    return undefined;
  }
}

function buildConfig(config: AuthConfig): ResolvedConfig {
  if (!config || typeof config !== "object") throw new InvalidConfig("The config must be an object.");
  const debug = config.debug === true;
  const logger = createLogger(config.logger, debug);
  const secrets = resolveSecrets(config.secret);
  const url = resolveUrl(config.url);
  const basePath = resolveBasePath(config.basePath, url, logger);
  const trustHost = config.trustHost === true;
  if (!trustHost && !url) {
    throw new UntrustedHost(
      "The request's host is not trusted. Set AUTH_URL to the public URL of the app, or `trustHost: true` (AUTH_TRUST_HOST=true) when a proxy in front of it sets the Host and X-Forwarded-Host headers itself. " +
        "Without either the host is trusted only on Vercel (VERCEL), Cloudflare Pages (CF_PAGES) and with NODE_ENV=development or test; an unset NODE_ENV counts as production.",
    );
  }
  const providers = resolveProviders(config);
  const session = resolveSession(config);
  if (session.strategy === "database" && !config.adapter) {
    throw new MissingAdapter('`session.strategy: "database"` stores sessions through an adapter: set `adapter`, or use the "jwt" strategy.');
  }
  if (config.adapter) checkAdapterMethods(config.adapter, session.strategy, providers);
  const glue: FrameworkGlueOptions = (config as { [frameworkGlue]?: FrameworkGlueOptions })[frameworkGlue] ?? {};
  const csrfCheck = config.skipCSRFCheck !== skipCSRFCheck && glue.checksOrigin !== true;
  if (debug) logger.warn("debug-enabled");
  if (!csrfCheck && glue.checksOrigin !== true) logger.warn("csrf-disabled");
  if (config.experimental?.enableWebAuthn) logger.warn("experimental-webauthn");

  // Both variants now, so a `cookies` option browsers could not honour is a configuration error at once, not on the first https request.
  const cookieVariants = new Map<boolean, CookieSet>([true, false].map((secure) => [secure, mergeCookies(defaultCookies(secure), config.cookies)]));
  return {
    basePath,
    url,
    trustHost,
    // Trust inferred from the platform or NODE_ENV covers the request URL, not X-Forwarded-Host (see `hostTrust` in env.ts).
    requestUrlIsPublic: requestUrlIsPublic(config),
    secrets,
    providers,
    providerById: new Map(providers.map((p) => [p.id, p])),
    session,
    jwt: resolveJwt(config, secrets, session.maxAge),
    callbacks: resolveCallbacks(config.callbacks),
    events: config.events ?? {},
    pages: resolvePages(config.pages),
    theme: {
      colorScheme: config.theme?.colorScheme ?? "auto",
      logo: config.theme?.logo ?? "",
      brandColor: config.theme?.brandColor ?? "",
      buttonText: config.theme?.buttonText ?? "",
    },
    logger,
    debug,
    csrfCheck,
    adapter: config.adapter,
    useSecureCookies: config.useSecureCookies,
    cookies: (secure) => cookieVariants.get(secure)!,
    sessionCache: new LruCache(SESSION_CACHE_SIZE),
    redirectProxyUrl: config.redirectProxyUrl,
    redirectProxyAllowedOrigins: parseAllowedOrigins(config.redirectProxyAllowedOrigins ?? []),
    experimental: { enableWebAuthn: config.experimental?.enableWebAuthn === true },
    rateLimit: resolveRateLimit(config.rateLimit),
    development: (config as { [developmentEnv]?: boolean })[developmentEnv] === true,
  };
}

function resolveSecrets(secret: AuthConfig["secret"]): string[] {
  const list = secret === undefined ? [] : Array.isArray(secret) ? secret : [secret];
  if (list.length === 0 || list.every((s) => s === "")) {
    throw new MissingSecret(
      `No secret is set. Set AUTH_SECRET in your environment to a random string of at least ${MIN_SECRET_LENGTH} characters (generate one with \`npx @gatehouse/cli secret\`), or pass \`secret\` in the config.`,
    );
  }
  list.forEach((s, i) => {
    const name = secretEnvName(list, i);
    const where = list.length > 1 ? `secret[${i}]${name ? ` (${name})` : ""}` : "AUTH_SECRET (or `secret`)";
    if (typeof s !== "string") throw new MissingSecret(`${where} must be a string.`);
    if (s.length < MIN_SECRET_LENGTH) {
      throw new MissingSecret(
        `${where} is ${s.length} characters long; it must be at least ${MIN_SECRET_LENGTH}. Generate one with \`npx @gatehouse/cli secret\` (it writes AUTH_SECRET, or the next AUTH_SECRET_n with --rotate).`,
      );
    }
  });
  return list;
}

/**
 * Whether the request URL is the public one: the framework glue says so, or the
 * host trust came from the platform or NODE_ENV (see `hostTrust` in env.ts),
 * which covers the request's own URL, never X-Forwarded-Host. Shared with
 * `createActionURL`, so both read the same headers.
 */
export function requestUrlIsPublic(config: AuthConfig): boolean {
  const glue: FrameworkGlueOptions = (config as { [frameworkGlue]?: FrameworkGlueOptions })[frameworkGlue] ?? {};
  return glue.requestUrlIsPublic === true || (config as { [hostTrustFromEnv]?: unknown })[hostTrustFromEnv] !== undefined;
}

export function resolveUrl(url: AuthConfig["url"]): URL | undefined {
  if (url === undefined || url === "") return undefined;
  const problem = urlProblem(url);
  if (typeof problem === "string") {
    throw new InvalidConfig(`AUTH_URL (or \`url\` in the config) is ${JSON.stringify(String(url))}: ${problem}. It must be the app's public URL, such as https://example.com.`);
  }
  return problem;
}

/**
 * The URL, or what is wrong with it in words the operator can act on. A value
 * such as "localhost:3000" parses (as the scheme `localhost:`), so the scheme is
 * what tells it apart.
 */
function urlProblem(url: string | URL): URL | string {
  if (typeof url !== "string" && !(url instanceof URL)) return `it is a ${typeof url}, not a string`;
  const text = String(url).trim();
  if (text.startsWith("/")) return "it is a path, without the scheme and host";
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    if (/^https?\/\//i.test(text)) return 'the ":" after http or https is missing';
    if (/^https?:\/*(?:[?#]|$)/i.test(text)) return "it has no host";
    if (/^https?:/i.test(text)) return "its host is not a valid host name";
    return "it is not a URL (it must start with http:// or https://)";
  }
  if (parsed.protocol === "http:" || parsed.protocol === "https:") return parsed;
  if (!text.includes("//")) return `it has no http:// or https:// in front (the host was read as the scheme "${parsed.protocol}")`;
  return `its scheme is ${parsed.protocol} (only http: and https: serve the app)`;
}

function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "" : trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

export function resolveBasePath(basePath: unknown, url: URL | undefined, logger: LoggerInstance): string {
  const urlPath = url ? normalizePath(url.pathname) : "";
  if (basePath === undefined) return urlPath || "/auth";
  if (typeof basePath !== "string" || /[?#\\\s]/.test(basePath)) {
    throw new InvalidConfig(`basePath is ${JSON.stringify(basePath)}; it must be a path such as "/auth".`);
  }
  const path = normalizePath(basePath);
  if (urlPath) logger.warn(urlPath === path ? "env-url-basepath-redundant" : "env-url-basepath-mismatch");
  return path;
}

function positiveSeconds(value: unknown, name: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidConfig(`${name} is ${JSON.stringify(value)}; it must be a ${allowZero ? "non-negative" : "positive"} number of seconds.`);
  }
  return value;
}

function resolveSession(config: AuthConfig): ResolvedConfig["session"] {
  const s = config.session ?? {};
  const strategy = s.strategy ?? (config.adapter ? "database" : "jwt");
  if (strategy !== "jwt" && strategy !== "database") {
    throw new InvalidConfig(`session.strategy is ${JSON.stringify(strategy)}; use "jwt" or "database".`);
  }
  return {
    strategy,
    maxAge: positiveSeconds(s.maxAge, "session.maxAge", DEFAULT_MAX_AGE),
    updateAge: positiveSeconds(s.updateAge, "session.updateAge", DEFAULT_UPDATE_AGE, true),
    absoluteMaxAge: positiveSeconds(s.absoluteMaxAge, "session.absoluteMaxAge", DEFAULT_ABSOLUTE_MAX_AGE),
    revocationDelay: positiveSeconds(s.revocationDelay, "session.revocationDelay", DEFAULT_REVOCATION_DELAY, true),
    generateSessionToken: s.generateSessionToken ?? (() => crypto.randomUUID()),
  };
}

function resolveJwt(config: AuthConfig, secrets: string[], sessionMaxAge: number): ResolvedConfig["jwt"] {
  const jwt = config.jwt ?? {};
  const usesDefaultCodec = jwt.encode === undefined && jwt.decode === undefined;
  return {
    secret: jwt.secret ?? secrets,
    maxAge: positiveSeconds(jwt.maxAge, "jwt.maxAge", sessionMaxAge),
    encode: jwt.encode ?? defaultEncode,
    decode: jwt.decode ?? defaultDecode,
    usesDefaultCodec,
  };
}

function resolveCallbacks(callbacks: AuthConfig["callbacks"]): Required<CallbacksOptions> {
  return {
    signIn: callbacks?.signIn ?? (() => true),
    redirect: callbacks?.redirect ?? defaultRedirectCallback,
    jwt: callbacks?.jwt ?? keepToken,
    session: callbacks?.session ?? defaultSessionCallback,
  };
}

function resolvePages(pages: AuthConfig["pages"]): Partial<PagesOptions> {
  const out: Partial<PagesOptions> = {};
  for (const [key, value] of Object.entries(pages ?? {})) {
    if (value === undefined) continue;
    if (!isSafePage(value)) {
      throw new InvalidConfig(`pages.${key} is ${JSON.stringify(value)}; it must be a path such as "/login" or an absolute http(s) URL.`);
    }
    out[key as keyof PagesOptions] = value;
  }
  return out;
}

/**
 * A path on this site (`/login`, not `//host`), or an absolute http(s) URL. Browsers read a
 * backslash as a slash and drop tabs and line breaks, so "/\\evil.example" would leave the site:
 * no backslash, control character or whitespace anywhere.
 */
function isSafePage(value: unknown): value is string {
  if (typeof value !== "string" || /[\\\s\u0000-\u001f\u007f]/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  if (!/^https?:\/\//.test(value)) return false;
  try {
    return new URL(value).protocol.startsWith("http");
  } catch {
    return false;
  }
}
