/**
 * The smallest cookie jar that keeps an oidc-provider session across fetch calls: host-only
 * cookies for one origin, with Path matching and expiry. Domain, Secure and SameSite are
 * ignored on purpose: the jar only ever talks to one http://127.0.0.1 origin.
 */

interface StoredCookie {
  value: string;
  path: string;
  /** Epoch milliseconds; `undefined` for a session cookie. */
  expires: number | undefined;
}

/** Cookies of a single origin, keyed by name + path as a browser does. */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie & { name: string }>();

  /** Records the `Set-Cookie` headers of a response received from `url`. */
  store(url: URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const separator = pair.indexOf("=");
      if (separator < 1) continue;
      const name = pair.slice(0, separator).trim();
      const cookie = { name, value: pair.slice(separator + 1).trim(), path: defaultPath(url), expires: undefined as number | undefined };
      for (const attribute of attributes) {
        const [key = "", ...rest] = attribute.split("=");
        const value = rest.join("=").trim();
        switch (key.trim().toLowerCase()) {
          case "path":
            if (value.startsWith("/")) cookie.path = value;
            break;
          case "expires":
            cookie.expires ??= Date.parse(value);
            break;
          case "max-age":
            // Max-Age wins over Expires (RFC 6265 5.3, step 3).
            cookie.expires = Date.now() + Number(value) * 1000;
            break;
        }
      }
      const key = `${name};${cookie.path}`;
      if (cookie.expires !== undefined && cookie.expires <= Date.now()) this.#cookies.delete(key);
      else this.#cookies.set(key, cookie);
    }
  }

  /** The `Cookie` header for a request to `url`, or `undefined` when no cookie applies. */
  header(url: URL): string | undefined {
    const now = Date.now();
    const matching = [...this.#cookies.values()]
      .filter((cookie) => (cookie.expires === undefined || cookie.expires > now) && pathMatches(url.pathname, cookie.path))
      // Longer paths first, as browsers send them.
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ") : undefined;
  }

  /** Names of the cookies held, for debugging and assertions. */
  names(): string[] {
    return [...new Set([...this.#cookies.values()].map((cookie) => cookie.name))];
  }

  clear(): void {
    this.#cookies.clear();
  }
}

/** RFC 6265 5.1.4 default-path: the request path up to its last "/". */
function defaultPath(url: URL): string {
  const slash = url.pathname.lastIndexOf("/");
  return slash > 0 ? url.pathname.slice(0, slash) : "/";
}

/** RFC 6265 5.1.4 path-match. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}
