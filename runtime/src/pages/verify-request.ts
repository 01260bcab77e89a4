/**
 * Shown after an email was sent: a sign-in link, a sign-up confirmation link or
 * a password reset link. The reset text reads the same whether or not an
 * account uses the address, since anyone can ask for a reset of any address.
 */
import { escapeHtml, safeUrl } from "./escape.js";
import { renderDocument } from "./layout.js";
import type { VerifyRequestPageParams } from "./types.js";

type Kind = NonNullable<VerifyRequestPageParams["kind"]>;

const SIGN_IN_TEXT = "A sign in link has been sent to your email address.";

// A Map so that an unexpected kind from JavaScript callers falls back to sign-in.
const TEXTS = new Map<Kind, string>([
  ["sign-in", SIGN_IN_TEXT],
  [
    "sign-up",
    "We sent a link to confirm your address. Open it and enter your password to finish; until then the password does not sign in.",
  ],
  [
    "password-reset",
    "If an account uses this address, we sent it a link to choose a new password. The link works for one hour.",
  ],
]);

export function renderVerifyRequestPage(p: VerifyRequestPageParams): string {
  const text = (p.kind !== undefined ? TEXTS.get(p.kind) : undefined) ?? SIGN_IN_TEXT;
  return renderDocument({
    title: "Check your email",
    theme: p.theme,
    page: "verify-request",
    body:
      `<h1>Check your email</h1>\n` +
      `<p class="message">${escapeHtml(text)}</p>\n` +
      `<p class="actions message"><a href="${safeUrl(p.homeUrl)}">${escapeHtml(p.host)}</a></p>`,
  });
}
