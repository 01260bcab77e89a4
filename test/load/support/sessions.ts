/**
 * Database sessions for the session load tests: users stored through the
 * adapter, signed in through the handler (credentials + `strategy: "database"`),
 * the rows aged with SQL so an extension is due without sleeping, and a watcher
 * that records every expiry each session row shows while the load runs.
 */
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import { call, captureLogger, CookieJar, csrfToken, SECRET, signInWithCredentials, storesSession } from "../../helpers.js";
import { watcherConnection, type LoadDatabase } from "./database.js";
import { sessionTokenOf } from "./browsers.js";

export const DAY = 24 * 60 * 60;
export const HOUR = 60 * 60;

/**
 * Database sessions of `maxAge` (default a day) extended at most once per
 * `updateAge` (default an hour); a credentials provider that signs in the stored
 * user with the given email.
 */
export function sessionConfig(adapter: Adapter, log: ReturnType<typeof captureLogger>, session: { maxAge?: number; updateAge?: number } = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    adapter,
    session: { strategy: "database", maxAge: session.maxAge ?? DAY, updateAge: session.updateAge ?? HOUR },
    providers: [
      Credentials({
        credentials: { email: { label: "Email" } },
        authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null),
      }),
    ],
  };
}

export interface SignedInBrowser {
  email: string;
  jar: CookieJar;
  /** The session token its cookie holds (a copy: the jar may lose or regain it). */
  token: string;
}

/** Stores `count` users named `<prefix><i>@example.com` and signs each in, in a browser of its own (which also holds a CSRF cookie). */
export async function signInUsers(config: AuthConfig, prefix: string, count: number): Promise<SignedInBrowser[]> {
  const adapter = config.adapter!;
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const email = `${prefix}${i}@example.com`;
      await adapter.createUser!({ email, emailVerified: null, name: `${prefix} ${i}` } as never);
      const jar = new CookieJar();
      const response = await signInWithCredentials(config, jar, { email });
      if (!storesSession(response)) throw new Error(`${email} was not signed in (status ${response.status})`);
      return { email, jar, token: sessionTokenOf(jar) };
    }),
  );
}

/** Moves the sessions' expiry back by `seconds`, as if that much time had passed since their last extension. */
export async function ageSessions(db: LoadDatabase, tokens: string[], seconds: number): Promise<void> {
  await db.rows(`UPDATE sessions SET expires = expires - make_interval(secs => $2) WHERE "sessionToken" = ANY($1)`, [tokens, seconds]);
}

/** The stored expiry of each token that still has a row. */
export async function storedExpiries(db: LoadDatabase, tokens: string[]): Promise<Map<string, Date>> {
  const rows = await db.rows<{ sessionToken: string; expires: Date }>(`SELECT "sessionToken", expires FROM sessions WHERE "sessionToken" = ANY($1)`, [tokens]);
  return new Map(rows.map((row) => [row.sessionToken, row.expires]));
}

/** `GET session` in `jar`'s browser. */
export function getSession(config: AuthConfig, jar: CookieJar): Promise<Response> {
  return call(config, "/auth/session", { jar });
}

/** `POST session` (the client's `update()`), with the CSRF token the browser got earlier. */
export function updateSession(config: AuthConfig, jar: CookieJar, token: string, data: unknown): Promise<Response> {
  return call(config, "/auth/session", { jar, json: { csrfToken: token, data } });
}

/** `POST signout` with the CSRF token. */
export function signOut(config: AuthConfig, jar: CookieJar, token: string): Promise<Response> {
  return call(config, "/auth/signout", { jar, form: { csrfToken: token } });
}

/** Each browser's CSRF token, fetched before the burst (as a page would have it). */
export function csrfTokens(config: AuthConfig, browsers: SignedInBrowser[]): Promise<string[]> {
  return Promise.all(browsers.map(({ jar }) => csrfToken(config, jar)));
}

export interface ExpiryHistory {
  /** Every distinct expiry each token's row showed, in the order seen. */
  seen: Map<string, number[]>;
  /** Tokens whose row was seen again after it had been seen gone. */
  reappeared: Set<string>;
}

/**
 * Polls the rows of `tokens` from its own connection until `stop()`: what each
 * session's expiry was over time, and whether a row came back after it was gone.
 */
export async function watchExpiries(db: LoadDatabase, tokens: string[]): Promise<{ stop(): Promise<ExpiryHistory> }> {
  const watcher = await watcherConnection(db.url);
  const history: ExpiryHistory = { seen: new Map(tokens.map((token) => [token, []])), reappeared: new Set() };
  const gone = new Set<string>();
  let stopped = false;
  const sample = async () => {
    const { rows } = await watcher.query<{ sessionToken: string; expires: Date }>(
      `SELECT "sessionToken", expires FROM sessions WHERE "sessionToken" = ANY($1)`,
      [tokens],
    );
    const present = new Set<string>();
    for (const { sessionToken, expires } of rows) {
      present.add(sessionToken);
      if (gone.has(sessionToken)) history.reappeared.add(sessionToken);
      const seen = history.seen.get(sessionToken)!;
      if (seen.at(-1) !== expires.valueOf()) seen.push(expires.valueOf());
    }
    for (const token of tokens) if (!present.has(token) && history.seen.get(token)!.length > 0) gone.add(token);
  };
  await sample();
  const loop = (async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await sample();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await sample();
      await watcher.end();
      return history;
    },
  };
}
