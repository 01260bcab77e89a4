/**
 * What the rate limit suites share: a credentials config whose `authorize` is
 * a spy, an attempt as the sign-in page's form makes it (with the CSRF token),
 * an adapter wrapper that records every call (reads too: a refused attempt
 * must not even look a user up), and a clock the tests move by hand.
 */
import { vi } from "vitest";
import type { AuthConfig, RateLimitOptions } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import { CookieJar, SECRET, USER, call, captureLogger, csrfToken } from "../helpers.js";

export const PASSWORD = "correct horse";

/** A client address header the tests' `clientAddress` trusts, as an app behind its own proxy would. */
export const ADDRESS_HEADER = "x-test-client-address";

/** `rateLimit.clientAddress` reading `ADDRESS_HEADER`. */
export const addressFromHeader = (request: Request) => request.headers.get(ADDRESS_HEADER);

export interface LimitedSetup {
  config: AuthConfig;
  /** The credentials `authorize`: accepts ada@example.com (any case) or username "ada" with `PASSWORD`. */
  authorize: ReturnType<typeof vi.fn>;
  log: ReturnType<typeof captureLogger>;
  jar: CookieJar;
}

/** A JWT credentials config with `rateLimit` (omit it for the default: off). */
export function limitedSetup(rateLimit?: RateLimitOptions, overrides: Partial<AuthConfig> = {}): LimitedSetup {
  const log = captureLogger();
  const authorize = vi.fn(async (c: Partial<Record<string, unknown>>) => {
    const who = String(c.email ?? c.username ?? "").trim().toLowerCase();
    return (who === "ada@example.com" || who === "ada") && c.password === PASSWORD ? { ...USER } : null;
  });
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [Credentials({ credentials: { email: {}, password: { type: "password" } }, authorize })],
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...overrides,
  };
  return { config, authorize, log, jar: new CookieJar() };
}

export interface AttemptOptions {
  /** Sent in `ADDRESS_HEADER`. */
  address?: string;
  headers?: Record<string, string>;
}

/** `POST /auth/callback/credentials` with the jar's CSRF token. */
export async function attempt(setup: LimitedSetup, fields: Record<string, string>, options: AttemptOptions = {}): Promise<Response> {
  const token = await csrfToken(setup.config, setup.jar);
  const headers = { ...options.headers, ...(options.address ? { [ADDRESS_HEADER]: options.address } : {}) };
  return call(setup.config, "/auth/callback/credentials", { jar: setup.jar, form: { ...fields, csrfToken: token }, headers });
}

/** A wrong password for `email`. */
export function wrong(setup: LimitedSetup, email = "ada@example.com", options: AttemptOptions = {}): Promise<Response> {
  return attempt(setup, { email, password: "wrong" }, options);
}

/** Whether the answer is the rate limit's: 429 with a Retry-After of at most `window` seconds. */
export function isLimited(response: Response, window = 900): boolean {
  const retryAfter = Number(response.headers.get("retry-after"));
  return response.status === 429 && Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= window;
}


/** A clock that starts now and moves only when told. */
export function manualClock(start = Date.now()) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

/** Everything the logger received, as one string, to check that no identifier or address is in it. */
export function logText(log: ReturnType<typeof captureLogger>): string {
  return JSON.stringify([log.warnings, log.errors.map((e) => [e.message, String((e as { cause?: unknown }).cause ?? "")]), log.debug]);
}
