/**
 * Passkey flows through the real handler: a config, the options request, the
 * callback POST, and an adapter wrapper that records every write, so a test
 * can say "nothing was stored".
 */
import { expect } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Passkey } from "@gatehouse/runtime/providers";
import { CookieJar, recordAdapterCalls, ORIGIN, SECRET, call, captureLogger, csrfToken, isCleared, setCookies, storesSession } from "../../helpers.js";
import { SoftwareAuthenticator } from "./authenticator.js";

export const CHALLENGE_COOKIE = "authjs.challenge";


export interface PasskeySetup {
  config: AuthConfig;
  memory: ReturnType<typeof MemoryAdapter>;
  writes: string[];
  logs: ReturnType<typeof captureLogger>;
  events: { name: string; message: any }[];
}

/** A passkey config on a fresh memory adapter (database sessions unless `session` says otherwise). */
export function passkeySetup(overrides: Partial<AuthConfig> = {}, adapter?: Adapter): PasskeySetup {
  const memory = MemoryAdapter();
  const recorded = recordAdapterCalls(adapter ?? memory);
  const logs = captureLogger();
  const events: { name: string; message: any }[] = [];
  const record = (name: string) => (message: unknown) => void events.push({ name, message });
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: logs.logger,
    adapter: recorded.adapter,
    experimental: { enableWebAuthn: true },
    providers: [Passkey()],
    events: { createUser: record("createUser"), linkAccount: record("linkAccount"), signIn: record("signIn") },
    ...overrides,
  };
  return { config, memory, writes: recorded.writes, logs, events };
}

export async function fetchOptions(
  config: AuthConfig,
  jar: CookieJar,
  query: Record<string, string> = {},
  provider = "passkey",
  headers?: Record<string, string>,
): Promise<{ response: Response; body: any }> {
  const search = new URLSearchParams(query).toString();
  const response = await call(config, `/auth/webauthn-options/${provider}${search ? `?${search}` : ""}`, { jar, headers });
  return { response, body: await response.clone().json() };
}

export interface PostOptions {
  callbackUrl?: string;
  /** Leave out the CSRF token. */
  noCsrf?: boolean;
  /** Form fields as given (replaces action and data). */
  fields?: Record<string, string>;
  headers?: Record<string, string>;
  provider?: string;
}

/** `POST callback/<provider>` as the sign-in page's script sends it. */
export async function postCallback(config: AuthConfig, jar: CookieJar, action: string, data: unknown, options: PostOptions = {}): Promise<Response> {
  const token = options.noCsrf ? undefined : await csrfToken(config, jar);
  const fields: Record<string, string> = options.fields ?? {
    action,
    data: typeof data === "string" ? data : JSON.stringify(data),
  };
  if (token) fields.csrfToken = token;
  if (options.callbackUrl) fields.callbackUrl = options.callbackUrl;
  return call(config, `/auth/callback/${options.provider ?? "passkey"}`, { jar, form: fields, headers: options.headers });
}

/** Registers a new user with `email`: options, the authenticator's answer, the callback. */
export async function signUp(config: AuthConfig, jar: CookieJar, authenticator: SoftwareAuthenticator, email: string, callbackUrl = "/welcome") {
  const { body } = await fetchOptions(config, jar, { email });
  expect(body.action).toBe("register");
  const { credential, response: data } = authenticator.register(body.options);
  const response = await postCallback(config, jar, "register", data, { callbackUrl });
  return { options: body.options, credential, data, response };
}

/** Signs in with the authenticator's passkey (the email narrows the allowed passkeys when given). */
export async function signIn(config: AuthConfig, jar: CookieJar, authenticator: SoftwareAuthenticator, email?: string, callbackUrl = "/home") {
  const { body } = await fetchOptions(config, jar, email ? { email } : {});
  expect(body.action).toBe("authenticate");
  const data = authenticator.authenticate(body.options);
  const response = await postCallback(config, jar, "authenticate", data, { callbackUrl });
  return { options: body.options, data, response };
}

/** The response cleared the challenge cookie. */
export function clearsChallenge(response: Response): boolean {
  return setCookies(response).some((c) => c.name === CHALLENGE_COOKIE && isCleared(c));
}

/** A refused callback: no session cookie, the challenge cookie cleared. */
export function expectRefused(response: Response): void {
  expect(storesSession(response)).toBe(false);
  expect(clearsChallenge(response)).toBe(true);
}

export function newAuthenticator(origin = ORIGIN): SoftwareAuthenticator {
  return new SoftwareAuthenticator(origin);
}

export { CookieJar, ORIGIN };
