/**
 * The built-in sign-in page: one plain POST form per provider, so it works with
 * JavaScript disabled. Error texts match Auth.js so apps switching over see the
 * same wording.
 */
import { escapeHtml, idPart, safeUrl } from "./escape.js";
import { hiddenFields, renderDocument } from "./layout.js";
import type { CredentialField, SignInPageParams, SignInPageProvider } from "./types.js";

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
  ["EmailSignin", "The e-mail could not be sent."],
  ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
  ["SessionRequired", "Please sign in to access this page."],
  ["MissingCSRF", "The form has expired or was sent from another site. Please try again."],
]);
const DEFAULT_SIGNIN_ERROR = "Unable to sign in.";

export function signInErrorMessage(error: string): string {
  return SIGNIN_ERRORS.get(error) ?? DEFAULT_SIGNIN_ERROR;
}

// Unknown types fall back to "text": types like "image" or "submit" would turn
// the field into something that is not an input at all.
const INPUT_TYPES = new Set([
  "text", "password", "email", "number", "tel", "url", "search", "date",
  "datetime-local", "month", "week", "time", "hidden", "checkbox", "color", "range",
]);

// Extra field properties are passed through only when they are plain input
// constraints or hints; event handlers, form/formaction and the like could
// redirect or script the form, and name/id/type are ours to set.
const PASSTHROUGH_ATTRIBUTES = new Set([
  "minlength", "maxlength", "min", "max", "step", "pattern", "inputmode",
  "autocapitalize", "autocorrect", "spellcheck", "size", "readonly", "disabled",
  "autofocus", "title", "value", "enterkeyhint", "dirname",
]);
const HANDLED = new Set(["label", "type", "placeholder", "required", "autocomplete"]);

function attribute(name: string, value: unknown): string {
  if (value === true) return ` ${name}`;
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) {
    return ` ${name}="${escapeHtml(value)}"`;
  }
  return "";
}

function extraAttributes(field: CredentialField): string {
  let out = "";
  for (const [key, value] of Object.entries(field)) {
    const name = key.toLowerCase();
    if (HANDLED.has(name)) continue;
    const allowed =
      PASSTHROUGH_ATTRIBUTES.has(name) || /^(?:aria|data)-[a-z0-9-]+$/.test(name);
    if (allowed) out += attribute(name, value);
  }
  return out;
}

function inputType(field: CredentialField): string {
  const type = typeof field.type === "string" ? field.type.toLowerCase() : "";
  return INPUT_TYPES.has(type) ? type : "text";
}

function credentialInput(provider: SignInPageProvider, key: string, field: CredentialField): string {
  const id = `input-${idPart(provider.id)}-${idPart(key)}`;
  const type = inputType(field);
  const autocomplete =
    typeof field.autocomplete === "string" && field.autocomplete !== ""
      ? field.autocomplete
      : type === "password"
        ? "current-password"
        : undefined;
  const input =
    `<input id="${id}" name="${escapeHtml(key)}" type="${type}"` +
    attribute("placeholder", field.placeholder) +
    (field.required === true ? " required" : "") +
    attribute("autocomplete", autocomplete) +
    extraAttributes(field) +
    ">";
  if (type === "hidden") return input;
  const label = typeof field.label === "string" && field.label !== "" ? field.label : key;
  return `<label for="${id}">${escapeHtml(label)}</label>\n${input}`;
}

function submitButton(provider: SignInPageProvider): string {
  return `<button type="submit">Sign in with ${escapeHtml(provider.name)}</button>`;
}

function providerForm(provider: SignInPageProvider, hidden: string): string {
  let action = provider.signinUrl;
  let fields = "";
  if (provider.type === "credentials") {
    action = provider.callbackUrl;
    fields = Object.entries(provider.credentials ?? {})
      .map(([key, field]) => `${credentialInput(provider, key, field ?? {})}\n`)
      .join("");
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
 * Consecutive button-only providers stack together; email and credentials forms
 * each stand alone, with an "or" between groups so it is clear any one will do.
 */
function groupProviders(providers: SignInPageProvider[]): SignInPageProvider[][] {
  const groups: SignInPageProvider[][] = [];
  let buttons: SignInPageProvider[] | undefined;
  for (const provider of providers) {
    if (provider.type === "email" || provider.type === "credentials") {
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

export function renderSignInPage(p: SignInPageParams): string {
  const hidden = hiddenFields(p.csrfToken, p.callbackUrl);
  const alert = p.error
    ? `<div class="alert" role="alert"><p>${escapeHtml(signInErrorMessage(p.error))}</p></div>\n`
    : "";
  const groups = groupProviders(p.providers);
  const providers =
    groups.length === 0
      ? `<p class="message">No sign-in methods are configured.</p>`
      : groups
          .map((group) => group.map((provider) => providerForm(provider, hidden)).join("\n"))
          .join(`\n<div class="separator"><span>or</span></div>\n`);
  return renderDocument({
    title: "Sign in",
    theme: p.theme,
    page: "signin",
    body: `<h1>Sign in</h1>\n${alert}${providers}`,
  });
}
