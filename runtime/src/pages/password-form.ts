/**
 * Pieces shared by the Password provider's pages (sign-up, forgot password,
 * reset password). Error codes arrive in the query string, so each page maps the
 * ones it knows to fixed text and never shows the code itself.
 */
import { escapeHtml } from "./escape.js";
import { alertBox } from "./layout.js";

/**
 * The alert for `code`: its message in `messages`, else `fallback`; nothing
 * without a code. `messages` is a Map so "__proto__" and friends fall through.
 */
export function codeAlert(code: string | undefined, messages: ReadonlyMap<string, string>, fallback: string): string {
  if (!code) return "";
  return alertBox(messages.get(code) ?? fallback);
}

/** The messages for passwords the server refused for their length. */
export function passwordLengthMessages(min: number, max: number): [string, string][] {
  return [
    ["short-password", `Choose a password of at least ${min} characters.`],
    ["long-password", `Choose a password of at most ${max} characters.`],
  ];
}

/** A length the browser can check; config is not trusted, so anything else is left to the server. */
function lengthAttribute(name: string, value: number): string {
  return Number.isSafeInteger(value) && value >= 0 ? ` ${name}="${value}"` : "";
}

/**
 * The field for a new password: `new-password` lets password managers offer a
 * generated one, and the length limits let the browser refuse it before posting.
 */
export function newPasswordInput(id: string, label: string, min: number, max: number): string {
  return (
    `<label for="${id}">${escapeHtml(label)}</label>\n` +
    `<input id="${id}" name="password" type="password" autocomplete="new-password"` +
    `${lengthAttribute("minlength", min)}${lengthAttribute("maxlength", max)} required>\n`
  );
}

/**
 * The email field of an account form. `username`, not `email`, so password
 * managers save the password under this address.
 */
export function accountEmailInput(id: string, value?: string): string {
  const prefill = value ? ` value="${escapeHtml(value)}"` : "";
  return (
    `<label for="${id}">Email</label>\n` +
    `<input id="${id}" name="email" type="email" autocomplete="username"${prefill} required>\n`
  );
}
