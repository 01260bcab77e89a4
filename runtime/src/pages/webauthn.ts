/**
 * The passkey (WebAuthn) part of the sign-in page. A ceremony needs the browser's
 * WebAuthn API, so unlike every other form this one needs JavaScript: it is
 * rendered `hidden` and the inline script shows it only where it can work, which
 * leaves the page as it was without JavaScript or without WebAuthn.
 */
import { escapeHtml, safeUrl } from "./escape.js";
import { fieldInputs } from "./fields.js";
import type { CredentialField, SignInPageProvider } from "./types.js";
import { WEBAUTHN_FORM_SCRIPT } from "./webauthn-script.generated.js";

/** Marks what the script shows once it knows WebAuthn works here. */
export const REQUIRES_WEBAUTHN = " data-requires-webauthn hidden";

/** The Passkey provider's default: `webauthn` in autocomplete lets the browser offer passkeys in the field. */
const DEFAULT_FORM_FIELDS: Record<string, CredentialField> = {
  email: { label: "Email", required: true, autocomplete: "username webauthn" },
};

/**
 * The script the sign-in page inlines for these providers (the same text for
 * every page, so the CSP can allow it by hash), or `undefined` when none is a
 * WebAuthn provider: those pages stay script-free.
 */
export function signInPageScript(providers: readonly SignInPageProvider[]): string | undefined {
  return providers.some((p) => p.type === "webauthn") ? WEBAUTHN_FORM_SCRIPT : undefined;
}

/**
 * The form posts to `callback/<id>` and its `data-webauthn-options` names the
 * options endpoint; the script reads both, so this markup is its whole config.
 */
export function webauthnProviderForm(provider: SignInPageProvider, hidden: string, button: string): string {
  const fields = fieldInputs(provider.id, provider.formFields ?? DEFAULT_FORM_FIELDS, " data-form-field");
  const conditionalUI = provider.enableConditionalUI === false ? "" : " data-conditional-ui";
  return (
    `<div class="provider provider-${escapeHtml(provider.type)}"${REQUIRES_WEBAUTHN}>\n` +
    `<div class="webauthn-alert" data-webauthn-alert></div>\n` +
    `<form action="${safeUrl(provider.callbackUrl)}" method="post" ` +
    `data-webauthn-options="${safeUrl(provider.webauthnOptionsUrl)}"${conditionalUI}>\n` +
    `${hidden}\n${fields}${button}\n</form>\n` +
    `</div>`
  );
}

/** Said instead when passkeys are the only way in and cannot work (no JavaScript or no WebAuthn). */
export const WEBAUTHN_UNAVAILABLE =
  `<p class="message" data-without-webauthn>Signing in with a passkey needs a browser with JavaScript and passkey support.</p>`;
