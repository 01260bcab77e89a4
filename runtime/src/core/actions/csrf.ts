/** `GET csrf`: the token for the double-submit check (404 when the check is off). */
import type { ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";
import { NO_STORE } from "../http/response.js";

export function csrfAction(ctx: RequestContext): ResponseInternal {
  if (!ctx.config.csrfCheck) {
    return { status: 404, headers: NO_STORE, body: { error: "NotFound", message: "CSRF protection is handled by the framework." } };
  }
  return { headers: NO_STORE, body: { csrfToken: ctx.csrf().token } };
}
