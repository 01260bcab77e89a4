/**
 * The built-in sign-in page: one plain POST form per provider, so it works with
 * JavaScript disabled (passkeys aside, which need it: see webauthn.ts). Error
 * texts match Auth.js so apps switching over see the same wording.
 */
import { escapeHtml, idPart, safeUrl } from "./escape.js";
import { fieldInputs } from "./fields.js";
import { hiddenFields, renderDocument } from "./layout.js";
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

function providerForm(provider: SignInPageProvider, hidden: string): string {
  if (provider.type === "webauthn") return webauthnProviderForm(provider, hidden, submitButton(provider));
  let action = provider.signinUrl;
  let fields = "";
  if (provider.type === "credentials") {
    action = provider.callbackUrl;
    fields = fieldInputs(provider.id, provider.credentials ?? {});
  } else if (provider.type === "email") {
    const id = `input-${idPart(provider.id)}-email`;
    fields =
      `<label for="${id}">Email</label>\n` +
      `<input id="${id}" name="email" type="email" placeholder="email@example.com" autocomplete="email" required>\n`;
  }
  return (
    `<div class="provider provider-${escapeHtml(provider.type)}">\n` +
    `<form action="${safeUrl(action)}" method="post">\n${hidden}\n${fields}${submitButton(provider)}\n</form>\n` +
    `</div>`
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
function joinGroups(groups: SignInPageProvider[][], hidden: string): string {
  let html = "";
  let visibleBefore = false;
  groups.forEach((group, index) => {
    const needsWebAuthn = group[0]?.type === "webauthn";
    if (index > 0) {
      const attributes = needsWebAuthn || !visibleBefore ? REQUIRES_WEBAUTHN : "";
      html += `\n<div class="separator"${attributes}><span>or</span></div>\n`;
    }
    html += group.map((provider) => providerForm(provider, hidden)).join("\n");
    if (!needsWebAuthn) visibleBefore = true;
  });
  return html;
}

export function renderSignInPage(p: SignInPageParams): string {
  const hidden = hiddenFields(p.csrfToken, p.callbackUrl);
  const alert = p.error
    ? `<div class="alert" role="alert"><p>${escapeHtml(signInErrorMessage(p.error))}</p></div>\n`
    : "";
  const groups = groupProviders(p.providers);
  const onlyWebAuthn = groups.length > 0 && groups.every((group) => group[0]?.type === "webauthn");
  const providers =
    groups.length === 0
      ? `<p class="message">No sign-in methods are configured.</p>`
      : `${onlyWebAuthn ? `${WEBAUTHN_UNAVAILABLE}\n` : ""}${joinGroups(groups, hidden)}`;
  const script = signInPageScript(p.providers);
  return renderDocument({
    title: "Sign in",
    theme: p.theme,
    page: "signin",
    body: `<h1>Sign in</h1>\n${alert}${providers}`,
    script,
  });
}
