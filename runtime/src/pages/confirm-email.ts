/**
 * The page a sign-in link opens (unless the provider sets `confirmLink: false`):
 * one button that posts the link's token. Mail systems' link scanners fetch the
 * link but do not submit forms, so they no longer use the token up.
 */
import { escapeHtml, safeUrl } from "./escape.js";
import { hiddenFields, renderDocument } from "./layout.js";
import type { PageTheme } from "./types.js";

export interface ConfirmEmailPageParams {
  /** Where the button posts: `<auth URL>/callback/<provider>`. */
  action: string;
  email: string;
  token: string;
  callbackUrl: string;
  csrfToken?: string;
  host: string;
  theme: PageTheme;
}

export function renderConfirmEmailPage(p: ConfirmEmailPageParams): string {
  return renderDocument({
    title: `Sign in to ${p.host}`,
    theme: p.theme,
    page: "confirm-email",
    body:
      `<h1>Sign in to ${escapeHtml(p.host)}</h1>\n` +
      `<p class="message">Continue as <strong>${escapeHtml(p.email)}</strong>?</p>\n` +
      `<form action="${safeUrl(p.action)}" method="POST">\n` +
      `${hiddenFields(p.csrfToken, p.callbackUrl)}\n` +
      `<input type="hidden" name="email" value="${escapeHtml(p.email)}">\n` +
      `<input type="hidden" name="token" value="${escapeHtml(p.token)}">\n` +
      `<button type="submit">Sign in</button>\n` +
      `</form>\n` +
      `<p class="actions message">Did not ask to sign in? Close this page; nothing happens.</p>`,
  });
}
