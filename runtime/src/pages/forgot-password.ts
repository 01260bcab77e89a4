/**
 * The Password provider's "forgot password" page: asks for the address and
 * posts it. Nothing here may tell whether an account uses an address, so no
 * message depends on it.
 */
import { safeUrl } from "./escape.js";
import { hiddenFields, renderDocument } from "./layout.js";
import { accountEmailInput, codeAlert } from "./password-form.js";
import type { ForgotPasswordPageParams } from "./types.js";

// A Map so that "__proto__" and friends fall through to the default.
const FORGOT_PASSWORD_ERRORS = new Map<string, string>([
  ["invalid-email", "Enter a valid email address."],
  // The reset page sends expired and used links here, to ask for a new one.
  ["invalid-link", "That reset link has expired or was already used. Ask for a new one below."],
]);
const DEFAULT_FORGOT_PASSWORD_ERROR = "Could not send a reset link. Try again.";

export function renderForgotPasswordPage(p: ForgotPasswordPageParams): string {
  return renderDocument({
    title: "Reset your password",
    theme: p.theme,
    page: "forgot-password",
    body:
      `<h1>Reset your password</h1>\n` +
      codeAlert(p.code, FORGOT_PASSWORD_ERRORS, DEFAULT_FORGOT_PASSWORD_ERROR) +
      `<p class="message">Enter the address of your account and we will email you a link to choose a new password. ` +
      `The link works for one hour.</p>\n` +
      `<form action="${safeUrl(p.action)}" method="post">\n` +
      `${hiddenFields(p.csrfToken, p.callbackUrl)}\n` +
      accountEmailInput("forgot-password-email") +
      `<button type="submit">Email me a reset link</button>\n` +
      `</form>\n` +
      `<p class="actions message"><a href="${safeUrl(p.signInUrl)}">Back to sign in</a></p>`,
  });
}
