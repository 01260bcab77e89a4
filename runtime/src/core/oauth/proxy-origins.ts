/**
 * The origins a redirect proxy may forward a callback to
 * (`redirectProxyAllowedOrigins`, `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS`). The
 * origin sealed in the state is the one the sign-in started at, which a
 * deployment trusting forwarded headers takes from the request: only the app's
 * own list decides where a callback, code included, may go. An entry is an
 * origin (`https://app.example.com`) or one DNS label left open
 * (`https://*.preview.example.com`). Pure: no I/O.
 */
import { InvalidConfig } from "../errors/errors.js";

export type AllowedOrigin = { kind: "exact"; origin: string } | { kind: "label"; protocol: string; suffix: string; port: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** `scheme://*.` then at least two labels, then an optional port. */
const WILDCARD = /^(https?):\/\/\*\.((?:[a-z0-9-]+\.)+[a-z0-9-]+)(?::(\d{1,5}))?$/i;

/** The entries as matchers; one that is neither an origin nor a one-label wildcard is a configuration error. */
export function parseAllowedOrigins(entries: readonly string[]): AllowedOrigin[] {
  return entries.map((entry) => {
    const wildcard = WILDCARD.exec(entry);
    if (wildcard) {
      const suffix = wildcard[2]!.toLowerCase();
      if (suffix.split(".").every((label) => LABEL.test(label))) return { kind: "label", protocol: `${wildcard[1]!.toLowerCase()}:`, suffix, port: wildcard[3] ?? "" };
    } else if (!entry.includes("*")) {
      const origin = exactOrigin(entry);
      if (origin) return { kind: "exact", origin };
    }
    throw new InvalidConfig(
      `redirectProxyAllowedOrigins has ${JSON.stringify(entry)} (AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS); each entry must be an origin such as https://app.example.com, or one with its first label left open such as https://*.preview.example.com.`,
    );
  });
}

function exactOrigin(entry: string): string | undefined {
  try {
    const url = new URL(entry);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    // An origin and nothing else: no path, query, credentials.
    return entry.replace(/\/$/, "").toLowerCase() === url.origin ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the proxy may forward a callback to `origin`. */
export function proxyOriginAllowed(origin: string, allowed: readonly AllowedOrigin[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return allowed.some((entry) => {
    if (entry.kind === "exact") return entry.origin === url.origin;
    if (url.protocol !== entry.protocol || url.port !== entry.port) return false;
    const host = url.hostname;
    return host.endsWith(`.${entry.suffix}`) && LABEL.test(host.slice(0, -entry.suffix.length - 1));
  });
}
