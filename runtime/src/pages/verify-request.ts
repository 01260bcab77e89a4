/** Shown after an email sign-in link was sent. */
import { escapeHtml, safeUrl } from "./escape.js";
import { renderDocument } from "./layout.js";
import type { VerifyRequestPageParams } from "./types.js";

export function renderVerifyRequestPage(p: VerifyRequestPageParams): string {
  return renderDocument({
    title: "Check your email",
    theme: p.theme,
    page: "verify-request",
    body:
      `<h1>Check your email</h1>\n` +
      `<p class="message">A sign in link has been sent to your email address.</p>\n` +
      `<p class="actions message"><a href="${safeUrl(p.homeUrl)}">${escapeHtml(p.host)}</a></p>`,
  });
}
