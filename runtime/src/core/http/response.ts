/** The one place that turns an action's result into a `Response`. */
import type { ResponseInternal } from "../../types.js";
import { serializeCookie } from "./cookies.js";

export const NO_STORE = {
  "Cache-Control": "private, no-cache, no-store",
  Pragma: "no-cache",
  Expires: "0",
} as const;

/** `NO_STORE` for a body that is JSON text already. */
export const NO_STORE_JSON = { ...NO_STORE, "Content-Type": "application/json" } as const;

/**
 * @param redirectAsJson answer `200 {url}` instead of a redirect, for client code
 *   that follows the redirect itself (`X-Auth-Return-Redirect: 1`).
 */
export function toResponse(result: ResponseInternal, redirectAsJson: boolean): Response {
  // One Headers object, handed to the Response as is (a plain init would be copied again).
  const headers = new Headers(result.headers);
  for (const cookie of result.cookies ?? []) headers.append("Set-Cookie", serializeCookie(cookie));
  if (result.redirect !== undefined) {
    if (redirectAsJson) {
      headers.set("Content-Type", "application/json");
      return new Response(JSON.stringify({ url: result.redirect }), { status: 200, headers });
    }
    headers.set("Location", result.redirect);
    return new Response(null, { status: result.status ?? 302, headers });
  }
  let body: string | null = null;
  if (typeof result.body === "string") {
    body = result.body;
    if (!headers.has("Content-Type")) headers.set("Content-Type", "text/html; charset=utf-8");
  } else if (result.body !== undefined) {
    body = JSON.stringify(result.body);
    headers.set("Content-Type", "application/json");
  }
  return new Response(body, { status: result.status ?? 200, headers });
}
