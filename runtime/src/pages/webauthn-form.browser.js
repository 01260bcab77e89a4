// The passkey forms of the built-in sign-in page, in the browser. Plain JS with no
// build step: runtime/scripts/embed-webauthn-script.mjs inlines it after
// @simplewebauthn/browser's UMD bundle, which defines `SimpleWebAuthnBrowser`.
//
// A form looks like <form action=".../callback/<id>" data-webauthn-options=".../webauthn-options/<id>">
// and holds the hidden csrfToken/callbackUrl inputs plus the provider's fields
// (marked data-form-field). The server picks register or authenticate from them.
(() => {
  "use strict";
  const webauthn = window.SimpleWebAuthnBrowser;
  const forms = [...document.querySelectorAll("form[data-webauthn-options]")];
  // Without WebAuthn the passkey parts stay hidden, exactly as without JavaScript.
  if (!webauthn || forms.length === 0 || !webauthn.browserSupportsWebAuthn()) return;
  for (const element of document.querySelectorAll("[data-requires-webauthn]")) element.hidden = false;
  for (const element of document.querySelectorAll("[data-without-webauthn]")) element.hidden = true;

  const MESSAGES = {
    NotAllowedError: "The passkey request was cancelled or timed out. Please try again.",
    InvalidStateError: "This device already has a passkey for this account.",
    SecurityError: "Passkeys cannot be used on this site.",
    NotSupportedError: "This device has no passkey that works here.",
  };
  const GENERIC_MESSAGE = "Signing in with a passkey failed. Please try again.";

  /** An error the server explained in JSON (`{ error, message }`); its message is safe to show. */
  class ServerError extends Error {
    constructor(body) {
      const message = body && typeof body.message === "string" && body.message.length <= 300 ? body.message : "";
      super(message || "Unable to sign in.");
      this.name = "ServerError";
    }
  }

  /** URLs come from our own markup, but refuse anything off-site all the same. */
  function sameOriginUrl(value) {
    const url = new URL(value || "", window.location.href);
    if (url.origin !== window.location.origin) throw new Error(`Refusing to contact ${url.origin}.`);
    return url;
  }

  /** The provider's fields (email...) select the user; without `action` the server infers the ceremony. */
  function optionsUrl(form, action) {
    const url = sameOriginUrl(form.getAttribute("data-webauthn-options"));
    if (action) {
      url.searchParams.set("action", action);
      return url;
    }
    const values = new FormData(form);
    for (const field of form.querySelectorAll("[data-form-field]")) {
      const value = values.get(field.name);
      if (typeof value === "string" && value !== "") url.searchParams.set(field.name, value);
    }
    return url;
  }

  async function fetchOptions(form, action) {
    const response = await fetch(optionsUrl(form, action), {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    const body = await response.json().catch(() => null);
    if (!response.ok || !body || typeof body.options !== "object" || body.options === null) throw new ServerError(body);
    return body;
  }

  /** Posts the ceremony's result with the form's own fields (csrfToken, callbackUrl...), then follows the server's redirect. */
  async function postResult(form, action, data) {
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === "string") body.append(name, value);
    body.set("action", action);
    body.set("data", JSON.stringify(data));
    // getAttribute: a field named "action" would shadow the form.action property.
    const response = await fetch(sameOriginUrl(form.getAttribute("action")), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
      body,
    });
    const result = await response.json().catch(() => null);
    if (!result || typeof result.url !== "string") throw new ServerError(result);
    // The server already chose where to go, including its error pages.
    const target = new URL(result.url, window.location.href);
    window.location.assign(target.href);
    // A URL that differs only by its hash loads nothing: reload to show the new session.
    if (target.hash && target.href.split("#")[0] === window.location.href.split("#")[0]) window.location.reload();
  }

  async function runCeremony({ action, options }, autofill) {
    if (action === "register") return { action, data: await webauthn.startRegistration({ optionsJSON: options }) };
    if (action === "authenticate") {
      const data = await webauthn.startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
      return { action, data };
    }
    throw new ServerError(null);
  }

  function alertSlot(form) {
    return form.parentElement && form.parentElement.querySelector("[data-webauthn-alert]");
  }

  function showError(form, error) {
    const slot = alertSlot(form);
    if (!slot) return;
    const name = error && error.name;
    const message =
      error instanceof ServerError ? error.message : Object.hasOwn(MESSAGES, name) ? MESSAGES[name] : GENERIC_MESSAGE;
    const alert = document.createElement("div");
    alert.className = "alert";
    alert.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = message;
    alert.append(text);
    // role="alert" makes screen readers announce it as it is inserted.
    slot.replaceChildren(alert);
  }

  function clearError(form) {
    const slot = alertSlot(form);
    if (slot) slot.replaceChildren();
  }

  /** AbortError: another ceremony took over (a click while autofill waits); that one reports. */
  const isAbort = (error) => Boolean(error) && error.name === "AbortError";

  async function signInWithForm(form) {
    const button = form.querySelector("button[type=submit], button:not([type])");
    if (button) button.disabled = true;
    clearError(form);
    // Stop a waiting autofill request first, so its challenge cannot race this one.
    webauthn.WebAuthnAbortService.cancelCeremony();
    try {
      const { action, data } = await runCeremony(await fetchOptions(form), false);
      await postResult(form, action, data);
    } catch (error) {
      if (button) button.disabled = false;
      if (isAbort(error)) return;
      console.error(error);
      showError(form, error);
      // The click cancelled passkey autofill: offer it again.
      if (form.hasAttribute("data-conditional-ui")) void startAutofill(form);
    }
  }

  /** Conditional mediation: the browser offers the user's passkeys in the field's autofill. */
  async function startAutofill(form) {
    let result;
    try {
      if (!document.querySelector("input[autocomplete$='webauthn']")) return;
      if (!(await webauthn.browserSupportsWebAuthnAutofill())) return;
      result = await runCeremony(await fetchOptions(form, "authenticate"), true);
    } catch (error) {
      // Nobody asked for anything yet: an alert here would greet the user with an error.
      if (!isAbort(error)) console.error(error);
      return;
    }
    try {
      await postResult(form, result.action, result.data);
    } catch (error) {
      console.error(error);
      showError(form, error);
    }
  }

  for (const form of forms) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void signInWithForm(form);
    });
  }
  // One conditional request per page: the browser runs only one at a time.
  const autofillForm = forms.find((form) => form.hasAttribute("data-conditional-ui"));
  if (autofillForm) void startAutofill(autofillForm);
})();
