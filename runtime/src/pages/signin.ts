/**
 * The built-in sign-in page: one plain POST form per provider, so it works with
 * JavaScript disabled (passkeys aside, which need it: see webauthn.ts). Error
 * texts match Auth.js so apps switching over see the same wording.
 */
import { escapeHtml, idPart, safeUrl } from "./escape.js";
import { fieldInputs } from "./fields.js";
import { alertBox, hiddenFields, renderDocument } from "./layout.js";
import { credentialsFormParts, passwordSignInMessage, type CredentialsFormParts } from "./signin-password.js";
import type { SignInPageParams, SignInPageProvider } from "./types.js";
import { REQUIRES_WEBAUTHN, WEBAUTHN_UNAVAILABLE, signInPageScript, webauthnProviderForm } from "./webauthn.js";

const DIFFERENT_ACCOUNT = "Try signing in with a different account.";

// A Map rather than an object literal so values like "constructor" or "__proto__"
// coming from the query string fall through to the default.
const SIGNIN_ERRORS = new Map<string, string>([
  ["Signin", DIFFERENT_ACCOUNT],
  ["OAuthSignin", DIFFERENT_ACCOUNT],
  ["OAuthCallbackError", DIFFERENT_ACCOUNT],
  ["OAuthCreateAccount", DIFFERENT_ACCOUNT],
  ["EmailCreateAccount", DIFFERENT_ACCOUNT],
  ["Callback", DIFFERENT_ACCOUNT],
  ["OAuthAccountNotLinked", "To confirm your identity, sign in with the same account you used originally."],
  // Also an address that is not one: the message covers both without saying which.
  ["EmailSignin", "The sign-in email could not be sent. Check the address and try again."],
  ["AccountNotLinked", "That email address already has an account: sign in the way you did before."],
  ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
  ["SessionRequired", "Please sign in to access this page."],
  ["MissingCSRF", "The form has expired or was sent from another site. Please try again."],
  ["RateLimited", "Too many sign-in attempts. Please wait a few minutes and try again."],
]);
const DEFAULT_SIGNIN_ERROR = "Unable to sign in.";

export function signInErrorMessage(error: string): string {
  return SIGNIN_ERRORS.get(error) ?? DEFAULT_SIGNIN_ERROR;
}

function submitButton(provider: SignInPageProvider): string {
  return `<button type="submit">Sign in with ${escapeHtml(provider.name)}</button>`;
}

function providerForm(provider: SignInPageProvider, hidden: string, confirm: SignInPageParams["confirm"]): string {
  if (provider.type === "webauthn") return webauthnProviderForm(provider, hidden, submitButton(provider));
  let action = provider.signinUrl;
  let fields = "";
  let extras: Omit<CredentialsFormParts, "fields"> = { before: "", hidden: "", after: "" };
  if (provider.type === "credentials") {
    action = provider.callbackUrl;
    const parts = credentialsFormParts(provider, confirm);
    fields = fieldInputs(provider.id, parts.fields);
    extras = parts;
  } else if (provider.type === "email") {
    const id = `input-${idPart(provider.id)}-email`;
    fields =
      `<label for="${id}">Email</label>\n` +
      `<input id="${id}" name="email" type="email" placeholder="email@example.com" autocomplete="email" required>\n`;
  }
  return (
    `<div class="provider provider-${escapeHtml(provider.type)}">\n${extras.before}` +
    `<form action="${safeUrl(action)}" method="post">\n${hidden}${extras.hidden}\n${fields}${submitButton(provider)}\n</form>` +
    `${extras.after}\n</div>`
  );
}

/**
 * Consecutive button-only providers stack together; email, credentials and
 * passkey forms each stand alone, with an "or" between groups so it is clear any
 * one will do.
 */
function groupProviders(providers: SignInPageProvider[]): SignInPageProvider[][] {
  const groups: SignInPageProvider[][] = [];
  let buttons: SignInPageProvider[] | undefined;
  for (const provider of providers) {
    if (provider.type === "email" || provider.type === "credentials" || provider.type === "webauthn") {
      buttons = undefined;
      groups.push([provider]);
    } else if (buttons) {
      buttons.push(provider);
    } else {
      buttons = [provider];
      groups.push(buttons);
    }
  }
  return groups;
}

/**
 * The groups with an "or" between each two. Passkey groups are hidden until the
 * script shows them, so a separator next to one is hidden with it unless a
 * visible group precedes it and a visible one follows (`A | passkey | B` keeps
 * `A | B` without JavaScript).
 */
function joinGroups(groups: SignInPageProvider[][], hidden: string, confirm: SignInPageParams["confirm"]): string {
  let html = "";
  let visibleBefore = false;
  groups.forEach((group, index) => {
    const needsWebAuthn = group[0]?.type === "webauthn";
    if (index > 0) {
      const attributes = needsWebAuthn || !visibleBefore ? REQUIRES_WEBAUTHN : "";
      html += `\n<div class="separator"${attributes}><span>or</span></div>\n`;
    }
    html += group.map((provider) => providerForm(provider, hidden, confirm)).join("\n");
    if (!needsWebAuthn) visibleBefore = true;
  });
  return html;
}

/** The alert's text, if any: a Password provider's codes come first, then the error's own message. */
function alertMessage(p: SignInPageParams): string | undefined {
  if (!p.error) return undefined;
  const password = passwordSignInMessage(p);
  if (password === null) return undefined;
  return password ?? signInErrorMessage(p.error);
}

export function renderSignInPage(p: SignInPageParams): string {
  const hidden = hiddenFields(p.csrfToken, p.callbackUrl);
  const message = alertMessage(p);
  const alert = message === undefined ? "" : alertBox(message);
  const groups = groupProviders(p.providers);
  const onlyWebAuthn = groups.length > 0 && groups.every((group) => group[0]?.type === "webauthn");
  const providers =
    groups.length === 0
      ? `<p class="message">No sign-in methods are configured.</p>`
      : `${onlyWebAuthn ? `${WEBAUTHN_UNAVAILABLE}\n` : ""}${joinGroups(groups, hidden, p.confirm)}`;
  const script = signInPageScript(p.providers);
  return renderDocument({
    title: "Sign in",
    theme: p.theme,
    page: "signin",
    body: `<h1>Sign in</h1>\n${alert}${providers}`,
    script,
  });
}
