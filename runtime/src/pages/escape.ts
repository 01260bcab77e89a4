/**
 * Escaping and sanitising for everything the pages interpolate. Values reach the
 * pages from requests (callbackUrl, error) and from config (provider names, theme),
 * so nothing is trusted, even what the library itself produced.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes for both text and quoted attribute values; null/undefined render as "". */
export function escapeHtml(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text: string;
  try {
    text = String(value);
  } catch {
    // e.g. Object.create(null): rendering nothing beats failing the whole page
    return "";
  }
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

// Parsing with the WHATWG URL parser gives the same reading a browser would, which
// catches tricks like "java\tscript:" or leading control characters.
const RELATIVE_BASE = "http://relative.invalid/";

function parseUrl(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

/** An http(s) or relative URL for href/action, escaped; anything else becomes "#". */
export function safeUrl(value: unknown): string {
  if (typeof value !== "string") return "#";
  const url = parseUrl(value, RELATIVE_BASE);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return "#";
  return escapeHtml(value);
}

/** An http(s) or data:image/ URL for the logo's src, escaped; "" when unusable. */
export function safeLogoUrl(value: unknown): string {
  if (typeof value !== "string" || value === "") return "";
  // No base: a relative logo path is not one of the accepted forms.
  const url = parseUrl(value);
  if (!url) return "";
  if (url.protocol === "http:" || url.protocol === "https:") return escapeHtml(value);
  if (url.protocol === "data:" && /^image\//i.test(url.pathname)) return escapeHtml(value);
  return "";
}

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTION_COLOR = /^(?:rgba?|hsla?)\([0-9.,% ]+\)$/i;
const NAMED_COLOR = /^[a-z]{1,32}$/i;

/**
 * A color that is safe to place inside a CSS declaration, or "" if not. Colors go
 * into a <style> block where escaping does not apply, so only syntaxes that
 * cannot close the declaration, rule or element are let through.
 */
export function safeColor(value: unknown): string {
  if (typeof value !== "string") return "";
  const color = value.trim();
  if (HEX_COLOR.test(color) || FUNCTION_COLOR.test(color) || NAMED_COLOR.test(color)) {
    return color;
  }
  return "";
}

/**
 * An id fragment made only of [A-Za-z0-9_]. Every other character (including "_"
 * itself) is encoded as _hex_, so distinct inputs never share an id and "-" stays
 * free to separate parts.
 */
export function idPart(value: string): string {
  return value.replace(/[^A-Za-z0-9]/gu, (c) => `_${(c.codePointAt(0) ?? 0).toString(16)}_`);
}
