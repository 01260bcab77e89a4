/**
 * The page a password reset link opens: a form for the new password that posts
 * the link's address and token back, so the link itself only shows a form (mail
 * systems' link scanners fetch links but do not submit forms).
 */
import { escapeHtml, safeUrl } from "./escape.js";
import { hiddenFields, renderDocument } from "./layout.js";
import { codeAlert, newPasswordInput, passwordLengthMessages } from "./password-form.js";
import type { ResetPasswordPageParams } from "./types.js";

const DEFAULT_RESET_PASSWORD_ERROR = "Could not set the password. Try again.";

export function renderResetPasswordPage(p: ResetPasswordPageParams): string {
  const errors = new Map(passwordLengthMessages(p.minPasswordLength, p.maxPasswordLength));
  const email = escapeHtml(p.email);
  return renderDocument({
    title: "Choose a new password",
    theme: p.theme,
    page: "reset-password",
    body:
      `<h1>Choose a new password</h1>\n` +
      codeAlert(p.code, errors, DEFAULT_RESET_PASSWORD_ERROR) +
      `<form action="${safeUrl(p.action)}" method="post">\n` +
      `${hiddenFields(p.csrfToken, p.callbackUrl)}\n` +
      `<input type="hidden" name="email" value="${email}">\n` +
      `<input type="hidden" name="token" value="${escapeHtml(p.token)}">\n` +
      // Read-only and without a name (the hidden input posts the address): it shows
      // whose password this is, and lets password managers save the new one under it.
      `<label for="reset-password-email">Email</label>\n` +
      `<input id="reset-password-email" type="email" value="${email}" autocomplete="username" readonly>\n` +
      newPasswordInput("reset-password-password", "New password", p.minPasswordLength, p.maxPasswordLength) +
      `<button type="submit">Set new password</button>\n` +
      `</form>\n` +
      `<p class="actions message">Setting a new password signs you out everywhere else.</p>`,
  });
}
