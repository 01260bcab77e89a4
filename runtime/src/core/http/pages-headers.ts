/**
 * Headers of the built-in pages: never cached (they carry a CSRF token), never
 * framed, no scripts or remote content beyond the configured logo. The one
 * exception is a sign-in page with a passkey provider: it runs exactly one inline
 * script, allowed by its hash, which may talk to its own origin and nothing else.
 *
 * `same-origin` referrers, not `no-referrer`: under `no-referrer` browsers send
 * `Origin: null` with form posts, and frameworks that check the origin of posts
 * (SvelteKit) refuse the page's own forms. Nothing leaks to other sites either way.
 */
const STYLES_AND_IMAGES = "style-src 'unsafe-inline'; img-src 'self' https: http: data:";
const NO_BASE_NO_FRAMING = "base-uri 'none'; frame-ancestors 'none'";

export const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "private, no-cache, no-store",
  "Content-Security-Policy": `default-src 'none'; ${STYLES_AND_IMAGES}; ${NO_BASE_NO_FRAMING}`,
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
} as const;

// A hash rather than a nonce: the script is the same text on every page (its
// config is in the markup), so its hash pins exactly that code, and computing it
// once per process beats drawing a nonce per response.
let cachedHash: { script: string; source: Promise<string> } | undefined;

/** The CSP source `'sha256-…'` of an inline script's text (which must be exactly what the page inlines). */
export function scriptHashSource(script: string): Promise<string> {
  if (cachedHash?.script !== script) {
    const source = crypto.subtle.digest("SHA-256", new TextEncoder().encode(script)).then((digest) => {
      let binary = "";
      for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
      return `'sha256-${btoa(binary)}'`;
    });
    cachedHash = { script, source };
  }
  return cachedHash.source;
}

/** {@link PAGE_HEADERS} for a page that inlines `script`: that script may run and fetch from the page's origin. */
export async function pageHeadersWithScript(script: string): Promise<Record<string, string>> {
  const csp = `default-src 'none'; script-src ${await scriptHashSource(script)}; connect-src 'self'; ${STYLES_AND_IMAGES}; ${NO_BASE_NO_FRAMING}`;
  return { ...PAGE_HEADERS, "Content-Security-Policy": csp };
}
