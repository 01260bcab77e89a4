/**
 * Headers of the built-in pages: never cached (they carry a CSRF token), never
 * framed, no scripts or remote content beyond the configured logo.
 *
 * `same-origin` referrers, not `no-referrer`: under `no-referrer` browsers send
 * `Origin: null` with form posts, and frameworks that check the origin of posts
 * (SvelteKit) refuse the page's own forms. Nothing leaks to other sites either way.
 */
export const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "private, no-cache, no-store",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: http: data:; base-uri 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
} as const;
