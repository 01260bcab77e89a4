/**
 * The document shell shared by all built-in pages: one self-contained HTML file
 * with inline CSS and no fonts or other external resources, so the pages work
 * without JavaScript and under a strict Content-Security-Policy (apart from
 * allowing the inline style). Only a sign-in page with a passkey provider carries
 * a script, inline too, which its CSP allows by hash.
 */
import { escapeHtml, safeColor, safeLogoUrl } from "./escape.js";
import type { PageTheme } from "./types.js";

const LIGHT = `
  --bg: #f3f4f6;
  --card: #ffffff;
  --text: #111827;
  --muted: #4b5563;
  --border: #d1d5db;
  --input-bg: #ffffff;
  --alert-bg: #fdecec;
  --alert-border: #f5b5b5;
  --alert-text: #8a1c1c;
  --accent: #2f5fd0;`;

const DARK = `
  --bg: #0d1117;
  --card: #161b22;
  --text: #e6edf3;
  --muted: #9da7b3;
  --border: #30363d;
  --input-bg: #0d1117;
  --alert-bg: #3b1618;
  --alert-border: #7a2b2f;
  --alert-text: #ffb4b4;
  --accent: #6e9bff;`;

const BASE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
/* Beats display rules below (e.g. .separator), so hidden parts stay hidden. */
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 1.5rem 1rem;
  background: var(--bg);
  color: var(--text);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.5;
}
main {
  width: 100%;
  max-width: 22rem;
  padding: 2rem 1.75rem;
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 0.75rem;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.08);
}
.logo { display: block; max-width: 9rem; max-height: 4.5rem; margin: 0 auto 1.25rem; }
h1 { margin: 0 0 1rem; font-size: 1.375rem; font-weight: 600; text-align: center; }
p { margin: 0 0 1rem; }
.message { color: var(--muted); text-align: center; }
/* A value to copy into another site's form (a callback URL): one block that wraps anywhere, never wider than the card. */
.to-copy {
  display: block;
  padding: 0.5rem 0.625rem;
  font-size: 0.8125rem;
  background: var(--input-bg);
  border: 1px solid var(--border);
  border-radius: 0.5rem;
  overflow-wrap: anywhere;
}
.setup a { overflow-wrap: anywhere; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible {
  outline: 2px solid var(--accent);
  outline-offset: 2px;
}
form { margin: 0; display: flex; flex-direction: column; gap: 0.5rem; }
.provider + .provider { margin-top: 0.75rem; }
label { font-size: 0.875rem; font-weight: 500; }
input {
  width: 100%;
  padding: 0.625rem 0.75rem;
  font: inherit;
  color: var(--text);
  background: var(--input-bg);
  border: 1px solid var(--border);
  border-radius: 0.5rem;
}
input[type="checkbox"], input[type="radio"] { width: auto; }
/* Shown for reference (the reset page's address), so it should not look editable. */
input[readonly] { color: var(--muted); background: transparent; }
button, .button {
  display: block;
  width: 100%;
  padding: 0.625rem 1rem;
  font: inherit;
  font-weight: 600;
  text-align: center;
  text-decoration: none;
  color: var(--button-text);
  background: var(--brand);
  border: 1px solid transparent;
  border-radius: 0.5rem;
  cursor: pointer;
}
button:hover, .button:hover { filter: brightness(1.08); }
.separator {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  margin: 1.25rem 0;
  color: var(--muted);
  font-size: 0.875rem;
}
.separator::before, .separator::after { content: ""; flex: 1; border-top: 1px solid var(--border); }
.alert {
  margin: 0 0 1.25rem;
  padding: 0.75rem 1rem;
  color: var(--alert-text);
  background: var(--alert-bg);
  border: 1px solid var(--alert-border);
  border-radius: 0.5rem;
  text-align: center;
}
.alert p { margin: 0; }
.actions { margin: 1.5rem 0 0; }
.provider-links { margin: 0.75rem 0 0; font-size: 0.875rem; text-align: center; }
.provider-links + .provider-links { margin-top: 0.25rem; }
`;

function schemeCss(colorScheme: PageTheme["colorScheme"]): string {
  if (colorScheme === "dark") return `:root { color-scheme: dark;${DARK}\n}`;
  if (colorScheme === "light") return `:root { color-scheme: light;${LIGHT}\n}`;
  return (
    `:root { color-scheme: light dark;${LIGHT}\n}\n` +
    `@media (prefers-color-scheme: dark) {\n:root {${DARK}\n}\n}`
  );
}

function themeCss(theme: PageTheme): string {
  // Values arrive from JS config, so an unexpected scheme falls back to "auto".
  const scheme = theme.colorScheme === "dark" || theme.colorScheme === "light" ? theme.colorScheme : "auto";
  const brand = safeColor(theme.brandColor);
  // The default button color is the same in both schemes: white text on it stays
  // readable either way, which the lighter dark-scheme accent would not be.
  const buttonText = safeColor(theme.buttonText) || "#ffffff";
  return (
    `${schemeCss(scheme)}\n:root { --brand: ${brand || "#2f5fd0"}; --button-text: ${buttonText}; }\n` +
    // A configured brand color is the accent for links and focus rings too.
    (brand ? `:root { --accent: ${brand}; }\n` : "") +
    BASE_CSS
  );
}

function colorSchemeMeta(colorScheme: PageTheme["colorScheme"]): string {
  if (colorScheme === "dark") return "dark";
  if (colorScheme === "light") return "light";
  return "light dark";
}

export interface DocumentParams {
  title: string;
  theme: PageTheme;
  /** Already-escaped HTML for the inside of the card. */
  body: string;
  /** Names the page on <body> so applications can target it with their own CSS. */
  page:
    | "signin"
    | "signout"
    | "error"
    | "verify-request"
    | "confirm-email"
    | "signup"
    | "forgot-password"
    | "reset-password";
  /**
   * Trusted script text (ours, never from a request or config) inlined at the end
   * of <body>. The page's CSP must allow it (see core/http/pages-headers.ts).
   */
  script?: string;
}

/** Script text is inlined unescaped (escaping would change the code and its hash). */
function inlineScript(script: string | undefined): string {
  if (script === undefined) return "";
  if (/<\/script|<script|<!--/i.test(script)) throw new Error("The page script cannot be inlined in a <script> element.");
  return `<script>${script}</script>\n`;
}

export function renderDocument({ title, theme, body, page, script }: DocumentParams): string {
  // alt="" because the logo is decoration next to a heading that names the page;
  // the site name is not known here, so "Logo" would only be noise to screen readers.
  const logo = safeLogoUrl(theme.logo);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${colorSchemeMeta(theme.colorScheme)}">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${themeCss(theme)}</style>
</head>
<body class="page-${page}">
<main>
${logo ? `<img class="logo" src="${logo}" alt="">\n` : ""}${body}
</main>
${inlineScript(script)}</body>
</html>
`;
}

/** The error box at the top of a page; `message` is plain text (escaped here). */
export function alertBox(message: string): string {
  return `<div class="alert" role="alert"><p>${escapeHtml(message)}</p></div>\n`;
}

/** Hidden fields every POST form carries; csrfToken only when there is one. */
export function hiddenFields(csrfToken: string | undefined, callbackUrl: string): string {
  const csrf = csrfToken ? `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}">\n` : "";
  return `${csrf}<input type="hidden" name="callbackUrl" value="${escapeHtml(callbackUrl)}">`;
}
