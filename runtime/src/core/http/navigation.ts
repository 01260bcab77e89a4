/**
 * Whether a request is a browser loading a page (a link followed, a form
 * posted, a provider redirecting back), which must be answered with a page a
 * person can read, or a program that reads JSON. Pure: headers in, a verdict out.
 */

/**
 * - `X-Auth-Return-Redirect: 1`: our client modules and Auth.js's, which read JSON.
 * - `Sec-Fetch-Mode` (every current browser sends it): `navigate` is a page
 *   load, anything else (`cors` from `fetch`, `no-cors` from an `<img>`) is not.
 * - Without it (older browsers, other clients): an `Accept` that names
 *   `text/html`, as browsers send on every page load. A client that sends no
 *   `Accept`, or `*\/*` (curl, server-to-server calls), keeps JSON.
 */
export function isBrowserNavigation(headers: Headers): boolean {
  if (headers.get("x-auth-return-redirect") === "1") return false;
  const mode = headers.get("sec-fetch-mode");
  if (mode !== null) return mode.trim().toLowerCase() === "navigate";
  return /(^|[,\s])text\/html\s*(;|,|$)/i.test(headers.get("accept") ?? "");
}
