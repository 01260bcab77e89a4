/**
 * What the sign-in page adds for the built-in Password provider (a credentials
 * provider carrying `password` links): links to sign up and to reset the
 * password, the confirm mode an email confirmation link opens, and the messages
 * its `CredentialsSignin` codes select.
 */
import { escapeHtml, safeUrl } from "./escape.js";
import type { CredentialField, SignInPageParams, SignInPageProvider } from "./types.js";

type PasswordProvider = SignInPageProvider & Required<Pick<SignInPageProvider, "password">>;

function isPasswordProvider(provider: SignInPageProvider): provider is PasswordProvider {
  return provider.type === "credentials" && provider.password !== undefined;
}

// A Map so that "__proto__" and friends fall through. `null`: no alert, since
// `password-reset` follows a reset that worked: nothing went wrong.
const PASSWORD_SIGNIN_CODES = new Map<string, string | null>([
  ["unconfirmed", "Confirm your email address first: we have sent you a new link."],
  ["confirm-link-invalid", "That confirmation link has expired or was already used: we have sent you a new one."],
  ["password-reset", null],
]);

/**
 * The `CredentialsSignin` message for `code` when a Password provider is on the
 * page: a string, `null` for no alert, or `undefined` when the code is not one of
 * ours (then the usual message applies and the code stays unrendered).
 */
export function passwordSignInMessage(p: SignInPageParams): string | null | undefined {
  if (p.error !== "CredentialsSignin" || p.code === undefined) return undefined;
  if (!p.providers.some(isPasswordProvider)) return undefined;
  return PASSWORD_SIGNIN_CODES.get(p.code);
}

/** What a credentials form carries besides the button: text around it, hidden inputs, fields. */
export interface CredentialsFormParts {
  /** HTML above the form. */
  before: string;
  /** Hidden inputs added after the usual ones. */
  hidden: string;
  fields: Record<string, CredentialField>;
  /** HTML under the form. */
  after: string;
}

/**
 * A credentials provider's form parts: its own fields alone, or for a Password
 * provider the links under the form and, in confirm mode, the link's token, the
 * address in the `email` field (if it has one) and a line saying what to do.
 */
export function credentialsFormParts(
  provider: SignInPageProvider,
  confirm: SignInPageParams["confirm"],
): CredentialsFormParts {
  const fields = provider.credentials ?? {};
  if (!isPasswordProvider(provider)) return { before: "", hidden: "", fields, after: "" };
  const links = provider.password;
  const after =
    `\n<p class="provider-links"><a href="${safeUrl(links.forgotPasswordUrl)}">Forgot your password?</a></p>` +
    `\n<p class="provider-links"><a href="${safeUrl(links.signUpUrl)}">No account yet? Create one</a></p>`;
  if (confirm === undefined) return { before: "", hidden: "", fields, after };
  return {
    before: `<p class="message">Enter your password to confirm your email address.</p>\n`,
    hidden: `\n<input type="hidden" name="confirm" value="${escapeHtml(confirm.token)}">`,
    fields: Object.hasOwn(fields, "email") ? { ...fields, email: { ...fields.email, value: confirm.email } } : fields,
    after,
  };
}
