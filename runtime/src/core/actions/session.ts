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
import { keepHandlerClaims, sessionVersionRevoked } from "../session/session-version.js";
import { markUnprovenSession, UNPROVEN_EMAIL_CLAIM, unprovenSessionRevoked } from "../identity/proven-email.js";
import { NO_STORE } from "../http/response.js";
import { clearSessionCookies, copyPayload, issueSession, needsReissue, readSession } from "../session/session-cookie.js";
import { defaultSessionCallback, keepToken } from "../session/session-callback.js";
import type { DecodedSession } from "../config/config.js";
import { databaseSessionAction } from "./session-database.js";

export async function sessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const isUpdate = ctx.route.method === "POST";
  // A missing token throws MissingCSRF: a JSON action answers it 400 (error-response.ts).
  if (isUpdate) requireCsrf(ctx);
  const data = isUpdate ? ctx.body.data : undefined;
  if (ctx.config.session.strategy === "database") return databaseSessionAction(ctx, isUpdate, data);
  return jwtSessionAction(ctx, isUpdate, data);
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
      session: defaultSession(token, expires),
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
  return config.callbacks.jwt === keepToken && config.callbacks.session === defaultSessionCallback && !config.events.session;
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
function defaultSession(token: JWT, expires: Date): Session {
  return {
    user: { name: token.name, email: token.email, image: token.picture },
    expires: expires.toISOString(),
  };
}
