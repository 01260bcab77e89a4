/** `GET providers`: the configured providers in client-safe form, keyed by id (as Auth.js). */
import type { PublicProvider, ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";

export function providersAction(ctx: RequestContext): ResponseInternal<Record<string, PublicProvider>> {
  const body: Record<string, PublicProvider> = {};
  for (const { id, name, type } of ctx.config.providers) {
    body[id] = {
      id,
      name,
      type,
      signinUrl: `${ctx.authUrl}/signin/${id}`,
      callbackUrl: `${ctx.authUrl}/callback/${id}`,
    };
  }
  return { headers: { "Cache-Control": "private, no-cache" }, body };
}
