/**
 * `GET session` reads the session, `POST session` updates it (client `update()`).
 * With JWT sessions the `jwt` callback runs on both; returning `null` ends the
 * session. Database sessions are in `session-database.ts`.
 */
import type { JWT } from "../../jwt.js";
import type { Cookie, ResponseInternal, Session } from "../../types.js";
import type { RequestContext } from "../context.js";
import { emit } from "../events.js";
import { JWTSessionError } from "../errors/errors.js";
import { requireCsrf } from "../guards.js";
import { keepHandlerClaims, sessionVersionKeptCurrent, sessionVersionRevoked } from "../session/session-version.js";
import { markUnprovenSession, UNPROVEN_EMAIL_CLAIM, unprovenSessionRevoked, unprovenSessionToCheck } from "../identity/proven-email.js";
import { NO_STORE, NO_STORE_JSON } from "../http/response.js";
import { clearSessionCookies, copyPayload, issueSession, needsReissue, readCachedSession, readSession } from "../session/session-cookie.js";
import { answersDefaultSession, defaultSessionCallback, keepToken } from "../session/session-callback.js";
import type { DecodedSession } from "../config/config.js";
import { databaseSessionAction } from "./session-database.js";

export function sessionAction(ctx: RequestContext): ResponseInternal | Promise<ResponseInternal> {
  const isUpdate = ctx.route.method === "POST";
  // A missing token throws MissingCSRF: a JSON action answers it 400 (error-response.ts).
  if (isUpdate) requireCsrf(ctx);
  const data = isUpdate ? ctx.body.data : undefined;
  if (ctx.config.session.strategy === "database") return databaseSessionAction(ctx, isUpdate, data);
  return (!isUpdate && readAnsweredAtHand(ctx)) || jwtSessionAction(ctx, isUpdate, data);
}

/**
 * A JWT session read answered without waiting on anything, when all it needs is
 * at hand: no cookie, or a token in the decoded-token cache with the default
 * callbacks and no `session` event, no unproven claim to check, its session
 * version kept and matching (session-version.ts), and nothing to re-issue. The
 * answer is `jwtSessionAction`'s for the same read; what is saved is the
 * promises, which a busy server pays for on every request (more so where the
 * framework keeps async context, as SolidStart does), and the session's JSON,
 * made once per token. `undefined`: go the whole way.
 */
function readAnsweredAtHand(ctx: RequestContext): ResponseInternal | undefined {
  const read = readCachedSession(ctx);
  if (read === undefined) return undefined;
  if (read.kind === "none") return { headers: NO_STORE, body: null };
  if (read.kind === "invalid") return { headers: NO_STORE, body: null, cookies: read.cookies };
  if (!leavesTokenAsIs(ctx.config)) return undefined;
  const token = read.decoded.payload;
  if (unprovenSessionToCheck(ctx, token) || !sessionVersionKeptCurrent(ctx, token)) return undefined;
  const exp = token.exp;
  if (typeof exp !== "number" || needsReissue(ctx, read.decoded, token)) return undefined;
  const session = () => defaultSessionCallback({ session: defaultSession(token, new Date(exp * 1000).toISOString()) });
  // The same token always answers the same JSON: made once, kept with the decoded token, sent as text
  // (a fresh string per request cost more than the rest of this read, measured in a built SolidStart app).
  if (!ctx.raw) return { headers: NO_STORE_JSON, body: (read.decoded.defaultSessionJson ??= JSON.stringify(session())) };
  return { headers: NO_STORE, body: session() };
}

async function jwtSessionAction(ctx: RequestContext, isUpdate: boolean, data: unknown): Promise<ResponseInternal> {
  const read = await readSession(ctx);
  if (read.kind === "none") return { headers: NO_STORE, body: null };
  if (read.kind === "invalid") return { headers: NO_STORE, body: null, cookies: read.cookies };

  const { config } = ctx;
  // Issued while the user's address was unproven: ends once its owner proved it (the user was handed over).
  // Issued before the user's sessions were revoked (sign out everywhere, a password change or reset): ends too.
  if ((await unprovenSessionRevoked(ctx, read.decoded.payload)) || (await sessionVersionRevoked(ctx, read.decoded.payload))) {
    return { headers: NO_STORE, body: null, cookies: clearSessionCookies(ctx) };
  }
  try {
    // A read with the default callbacks and no `session` event: nothing that sees the token can change it,
    // so the cached payload serves as is (a copy, and the claims put back on it, on every read otherwise).
    const token = !isUpdate && leavesTokenAsIs(config) ? read.decoded.payload : await callbackToken(config, read.decoded, isUpdate, data);
    if (token === null) return { headers: NO_STORE, body: null, cookies: clearSessionCookies(ctx) };
    let cookies: Cookie[] = [];
    let expires = typeof token.exp === "number" ? new Date(token.exp * 1000) : undefined;
    if (isUpdate || !expires || needsReissue(ctx, read.decoded, token)) {
      const issued = await issueSession(ctx, token);
      cookies = issued.cookies;
      expires = issued.expires;
    }
    const session = await config.callbacks.session({
      session: defaultSession(token, expires.toISOString()),
      token,
      ...(isUpdate ? { trigger: "update", newSession: data } : {}),
    });
    await emit(config, "session", { session: session as Session, token });
    return { headers: NO_STORE, body: session, cookies };
  } catch (error) {
    config.logger.error(new JWTSessionError("A session callback failed; the session was ended.", error as Error));
    return { headers: NO_STORE, body: null, cookies: clearSessionCookies(ctx) };
  }
}

function leavesTokenAsIs(config: RequestContext["config"]): boolean {
  return config.callbacks.jwt === keepToken && answersDefaultSession(config);
}

/** The `jwt` callback's token, with the handler's claims kept; `null` ends the session. */
async function callbackToken(config: RequestContext["config"], decoded: DecodedSession, isUpdate: boolean, data: unknown): Promise<JWT | null> {
  const token = await config.callbacks.jwt({
    token: copyPayload(decoded),
    ...(isUpdate ? { trigger: "update" as const, session: data } : {}),
  } as Parameters<typeof config.callbacks.jwt>[0]);
  if (token === null || token === undefined) return null;
  // The callback may rebuild the token; the checks of a read must still run on its next read.
  const marked = decoded.payload[UNPROVEN_EMAIL_CLAIM] === true ? markUnprovenSession(token) : token;
  return keepHandlerClaims(decoded.payload, marked);
}

/** What the client sees by default: name, email and image, and when the session ends. */
function defaultSession(token: JWT, expires: string): Session {
  return {
    user: { name: token.name, email: token.email, image: token.picture },
    expires,
  };
}
