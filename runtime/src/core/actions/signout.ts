/** `GET signout` renders the confirmation page; `POST signout` ends the session. */
import { renderSignOutPage } from "../../pages/index.js";
import type { JWT } from "../../jwt.js";
import type { ResponseInternal } from "../../types.js";
import { redirectTarget, requestedCallbackUrl } from "../http/callback-url.js";
import type { RequestContext } from "../context.js";
import { emit } from "../events.js";
import { pageUrl, requireCsrf } from "../guards.js";
import { PAGE_HEADERS } from "../http/pages-headers.js";
import { sameOriginUrl } from "../http/redirect.js";
import { deleteDatabaseSession } from "../session/database-session.js";
import { clearSessionCookies, copyPayload, readSession } from "../session/session-cookie.js";

export async function signOutPage(ctx: RequestContext): Promise<ResponseInternal> {
  const { config } = ctx;
  const callbackUrl = sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? ctx.origin;
  if (config.pages.signOut) return { redirect: pageUrl(ctx, config.pages.signOut, "signout", { callbackUrl }) };
  const csrf = config.csrfCheck ? ctx.csrf() : undefined;
  const html = renderSignOutPage({
    csrfToken: csrf?.token,
    callbackUrl,
    signoutUrl: `${ctx.authUrl}/signout`,
    theme: config.theme,
  });
  return { headers: PAGE_HEADERS, body: html };
}

export async function signOutPost(ctx: RequestContext): Promise<ResponseInternal> {
  requireCsrf(ctx);
  const cookies = clearSessionCookies(ctx);
  if (ctx.config.session.strategy === "database") {
    // A failed delete (database down) propagates: the user sees the error page, not a pretended
    // sign-out, and keeps the cookie. Clearing it alone would end nothing — the row, and any copy of
    // its token, would stay valid — and would leave this browser no way to end the session later.
    const session = await deleteDatabaseSession(ctx);
    ctx.config.logger.debug("session ended", { hadSession: session !== null });
    await emit(ctx.config, "signOut", { session });
  } else {
    const read = await readSession(ctx);
    const token: JWT | null = read.kind === "valid" ? copyPayload(read.decoded) : null;
    ctx.config.logger.debug("session ended", { hadSession: token !== null });
    await emit(ctx.config, "signOut", { token });
  }
  return { redirect: await redirectTarget(ctx), cookies };
}
