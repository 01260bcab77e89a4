/**
 * Where a state-changing POST came from, as the browser tells it: the rule that
 * stands beside the double-submit token. The token alone is not enough: the
 * server hands a valid token/cookie pair to anyone who asks, and on plain http
 * (no `__Host-` prefix) a sibling subdomain or a network attacker can plant that
 * cookie in a victim's browser, then post the matching token from their own page.
 * Browsers name the page behind every POST (`Origin`, and `Sec-Fetch-Site` in
 * current ones), and no page can forge either.
 *
 * - `Origin` present: it must be the app's origin, exactly. `null` (sandboxed
 *   frames, `data:` URLs, a redirect across origins) is not.
 * - `Sec-Fetch-Site: cross-site` is refused, whatever the Origin says.
 * - `Sec-Fetch-Site: same-site` is refused unless the Origin is the app's: a
 *   sibling subdomain is the very attacker who can plant cookies.
 * - Neither header (old browsers, server-to-server calls, curl): nothing to
 *   judge by, so the token alone decides. That is the documented fallback.
 *
 * Pure: headers and the app's public origin in, a verdict out.
 */

export type OriginVerdict =
  /** `by` says what showed it: the Origin, Sec-Fetch-Site, or nothing (the fallback). */
  | { allowed: true; by: "origin" | "sec-fetch-site" | "none" }
  | { allowed: false; reason: string };

/**
 * Judges a state-changing request by its `Origin` and `Sec-Fetch-Site` headers
 * against `appOrigin` (scheme://host[:port], as `URL.origin` gives it).
 *
 * @example
 * ```ts
 * const verdict = checkRequestOrigin(request.headers, "https://example.com");
 * if (!verdict.allowed) return new Response(verdict.reason, { status: 403 });
 * ```
 */
export function checkRequestOrigin(headers: Headers, appOrigin: string): OriginVerdict {
  const origin = headers.get("origin");
  const site = headers.get("sec-fetch-site")?.trim().toLowerCase();
  // Browsers send the origin serialised exactly as URL.origin is: any other spelling is not a browser on the app's page.
  if (origin !== null && origin !== appOrigin) {
    return { allowed: false, reason: `its Origin ${JSON.stringify(origin.slice(0, 200))} is not the app's origin ${appOrigin}` };
  }
  if (site === "cross-site") return { allowed: false, reason: "the browser sent it from another site (Sec-Fetch-Site: cross-site)" };
  if (site === "same-site" && origin === null) {
    return { allowed: false, reason: "the browser sent it from another host of the same site (Sec-Fetch-Site: same-site), without an Origin showing the app's page" };
  }
  if (origin !== null) return { allowed: true, by: "origin" };
  if (site === "same-origin" || site === "none") return { allowed: true, by: "sec-fetch-site" };
  return { allowed: true, by: "none" };
}
