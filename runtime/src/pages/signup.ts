/**
 * The Password provider's sign-up page: one plain POST form. The account's
 * password works only once the address is confirmed through the emailed link, so
 * the page says so instead of promising a signed-in session.
 */
import { safeUrl } from "./escape.js";
import { hiddenFields, renderDocument } from "./layout.js";
import { accountEmailInput, codeAlert, newPasswordInput, passwordLengthMessages } from "./password-form.js";
import type { SignUpPageParams } from "./types.js";

const DEFAULT_SIGNUP_ERROR = "Could not create the account. Try again.";

function signUpErrors(p: SignUpPageParams): Map<string, string> {
  return new Map([
    ["invalid-email", "Enter a valid email address."],
    ["invalid-name", "Use letters, digits, spaces and punctuation only."],
    ["name-too-long", "Use at most 100 characters."],
    ...passwordLengthMessages(p.minPasswordLength, p.maxPasswordLength),
  ]);
}

export function renderSignUpPage(p: SignUpPageParams): string {
  return renderDocument({
    title: "Create an account",
    theme: p.theme,
    page: "signup",
    body:
      `<h1>Create an account</h1>\n` +
      codeAlert(p.code, signUpErrors(p), DEFAULT_SIGNUP_ERROR) +
      `<form action="${safeUrl(p.action)}" method="post">\n` +
      `${hiddenFields(p.csrfToken, p.callbackUrl)}\n` +
      `<label for="signup-name">Name (optional)</label>\n` +
      `<input id="signup-name" name="name" type="text" autocomplete="name">\n` +
      accountEmailInput("signup-email", p.email) +
      newPasswordInput("signup-password", "Password", p.minPasswordLength, p.maxPasswordLength) +
      `<button type="submit">Create account</button>\n` +
      `</form>\n` +
      `<p class="actions message">We will email you a link to confirm your address; ` +
      `your password works once it is confirmed.</p>\n` +
      `<p class="message"><a href="${safeUrl(p.signInUrl)}">Already have an account? Sign in</a></p>`,
  });
}
