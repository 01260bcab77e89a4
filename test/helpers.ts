/**
 * Test helpers: build `Request`s, keep cookies between calls like a browser, and
 * run the common steps (get a CSRF token, sign in with credentials).
 */
import { vi } from "vitest";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";

export const ORIGIN = "http://localhost:3000";
export const SECRET = "test-secret-test-secret-test-secret-0123456789";
export const OLD_SECRET = "old-secret-old-secret-old-secret-0123456789ab";

export const USER = { id: "user-1", name: "Ada Lovelace", email: "ada@example.com", image: "https://example.com/ada.png" };

/**
 * A credentials config that accepts `ada` / `correct horse`. Its logger keeps the
 * test output quiet; tests that inspect logs pass their own (`captureLogger`).
 */
export function credentialsConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: captureLogger().logger,
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: (c) => (c.username === "ada" && c.password === "correct horse" ? { ...USER } : null),
      }),
    ],
    ...overrides,
  };
}

export interface ParsedSetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** Parses one `Set-Cookie` header; attribute names are lowercased. */
export function parseSetCookie(header: string): ParsedSetCookie {
  const [pair, ...attrs] = header.split(";").map((s) => s.trim());
  const eq = pair!.indexOf("=");
  const attributes: Record<string, string | true> = {};
  for (const attr of attrs) {
    const i = attr.indexOf("=");
    if (i === -1) attributes[attr.toLowerCase()] = true;
    else attributes[attr.slice(0, i).toLowerCase()] = attr.slice(i + 1);
  }
  return { name: pair!.slice(0, eq), value: decodeURIComponent(pair!.slice(eq + 1)), attributes };
}

export function setCookies(response: Response): ParsedSetCookie[] {
  return response.headers.getSetCookie().map(parseSetCookie);
}

export function isCleared(cookie: ParsedSetCookie): boolean {
  return cookie.value === "" && (cookie.attributes["max-age"] === "0" || String(cookie.attributes.expires).includes("1970"));
}

/** Keeps cookies between requests, as a browser would. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  store(response: Response): Response {
    for (const cookie of setCookies(response)) {
      if (isCleared(cookie)) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

export interface RequestOptions {
  method?: string;
  jar?: CookieJar;
  headers?: Record<string, string>;
  /** Sent as a URL-encoded form unless `json` is set. */
  form?: Record<string, string>;
  json?: unknown;
  origin?: string;
}

export function request(path: string, options: RequestOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.jar && options.jar.cookies.size > 0) headers.set("cookie", options.jar.header());
  let body: string | undefined;
  if (options.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.json);
  }
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  return new Request(`${options.origin ?? ORIGIN}${path}`, { method, headers, body });
}

/** Calls the handler and stores the cookies it sets in `options.jar`. */
export async function call(config: AuthConfig, path: string, options: RequestOptions = {}): Promise<Response> {
  const response = await Auth(request(path, options), config as Omit<AuthConfig, "raw">);
  options.jar?.store(response);
  return response;
}

/** Gets a CSRF token (and its cookie into `jar`). */
export async function csrfToken(config: AuthConfig, jar: CookieJar, basePath = "/auth"): Promise<string> {
  const response = await call(config, `${basePath}/csrf`, { jar });
  const body = (await response.json()) as { csrfToken: string };
  return body.csrfToken;
}

/** Signs in through the credentials provider; the session cookie lands in `jar`. */
export async function signInWithCredentials(
  config: AuthConfig,
  jar: CookieJar,
  fields: Record<string, string> = { username: "ada", password: "correct horse" },
): Promise<Response> {
  const token = await csrfToken(config, jar);
  return call(config, "/auth/callback/credentials", { jar, form: { ...fields, csrfToken: token } });
}

/** Collects what the handler logs, instead of printing it. */
/**
 * What `run` printed through the default logger's `console.warn` and
 * `console.error` (each call's first argument), the console silenced meanwhile.
 */
export async function printedDuring(run: () => Promise<void>): Promise<{ warnings: unknown[]; errors: unknown[] }> {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await run();
    return { warnings: warn.mock.calls.map(([line]) => line), errors: error.mock.calls.map(([line]) => line) };
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
}

export function captureLogger() {
  const errors: Error[] = [];
  const warnings: string[] = [];
  const debug: { message: string; metadata: unknown }[] = [];
  return {
    errors,
    warnings,
    debug,
    logger: {
      error: (e: Error) => void errors.push(e),
      warn: (code: string) => void warnings.push(code),
      debug: (message: string, metadata?: unknown) => void debug.push({ message, metadata }),
    },
  };
}

// --- Added for the handler-level suites in test/runtime (session cookie and redirect helpers). ---

/** `Set-Cookie` entries for the session cookie and its chunks (`name`, `name.0`, `name.1`, ...). */
export function sessionSetCookies(response: Response, name = "authjs.session-token"): ParsedSetCookie[] {
  return setCookies(response).filter((c) => c.name === name || (c.name.startsWith(name) && /^\.\d+$/.test(c.name.slice(name.length))));
}

/** Whether the response stores a session (a non-empty, not-expired session cookie or chunk). */
export function storesSession(response: Response, name = "authjs.session-token"): boolean {
  return sessionSetCookies(response, name).some((c) => !isCleared(c));
}

/** The `Location` of a redirect as a URL; throws when there is none. */
export function locationOf(response: Response): URL {
  const location = response.headers.get("location");
  if (location === null) throw new Error(`expected a redirect, got status ${response.status} without Location`);
  return new URL(location);
}

/** `GET /auth/session` with the jar's cookies; returns the response and its parsed JSON body. */
export async function fetchSession(config: AuthConfig, jar: CookieJar, origin?: string): Promise<{ response: Response; body: any }> {
  const response = await call(config, "/auth/session", { jar, origin });
  return { response, body: await response.json() };
}

/** Adapter methods that change the store, for tests that record what a request wrote. */
export const ADAPTER_WRITES: ReadonlySet<string> = new Set([
  "createUser",
  "createUserWithAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "updateAccount",
  "createSession",
  "updateSession",
  "deleteSession",
  "createAuthenticator",
  "updateAuthenticatorCounter",
  "createVerificationToken",
  "useVerificationToken",
]);

/**
 * `adapter` with every method call recorded by name, in order: `calls` (reads
 * included, to count round trips) and `writes` (the `ADAPTER_WRITES` among them).
 */
export function recordAdapterCalls<A extends object>(adapter: A): { adapter: A; calls: string[]; writes: string[] } {
  const calls: string[] = [];
  const writes: string[] = [];
  const wrapped = new Proxy(adapter, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        if (ADAPTER_WRITES.has(String(property))) writes.push(String(property));
        return value.apply(target, args);
      };
    },
  });
  return { adapter: wrapped, calls, writes };
}
