/**
 * Inputs described by provider config: the credentials provider's `credentials`
 * and the WebAuthn provider's `formFields`. Config is not trusted either: only
 * known input types and harmless attributes reach the markup.
 */
import { escapeHtml, idPart } from "./escape.js";
import type { CredentialField } from "./types.js";

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

/**
 * A labelled input for field `key` of provider `providerId`.
 * @param marker a fixed attribute of ours (e.g. ` data-form-field`), not escaped.
 */
export function fieldInput(providerId: string, key: string, field: CredentialField, marker = ""): string {
  const id = `input-${idPart(providerId)}-${idPart(key)}`;
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
    marker +
    ">";
  if (type === "hidden") return input;
  const label = typeof field.label === "string" && field.label !== "" ? field.label : key;
  return `<label for="${id}">${escapeHtml(label)}</label>\n${input}`;
}

/** One input per entry of `fields`, each on its own line. */
export function fieldInputs(providerId: string, fields: Record<string, CredentialField | undefined>, marker = ""): string {
  return Object.entries(fields)
    .map(([key, field]) => `${fieldInput(providerId, key, field ?? {}, marker)}\n`)
    .join("");
}
