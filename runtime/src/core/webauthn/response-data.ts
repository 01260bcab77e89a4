/**
 * The form fields of `POST callback/<webauthn provider>`: `action` and `data`,
 * the browser's `RegistrationResponseJSON` / `AuthenticationResponseJSON` as a
 * JSON string. Only the shape is checked here (malformed: `InvalidRequest`);
 * SimpleWebAuthn verifies the contents.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { RequestBody } from "../http/body.js";
import { InvalidRequest } from "../errors/errors.js";
import type { WebAuthnAction } from "./challenge.js";

/** Credential ids are at most 1023 bytes: 1364 base64url characters. */
const CREDENTIAL_ID = /^[A-Za-z0-9_-]{1,1364}$/;

export function callbackActionOf(body: RequestBody): WebAuthnAction {
  const { action } = body;
  if (action === "register" || action === "authenticate") return action;
  throw new InvalidRequest(
    action === undefined || action === ""
      ? 'The passkey response has no action: send "register" or "authenticate" in the action field.'
      : `The action ${JSON.stringify(String(action).slice(0, 40))} is not a WebAuthn action; use "register" or "authenticate".`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `data` field: a JSON string (a JSON body may carry the object itself). */
function readData(data: unknown): Record<string, unknown> {
  if (isObject(data)) return data;
  if (typeof data !== "string" || data === "") {
    throw new InvalidRequest("The passkey response has no data: send the browser's credential as JSON in the data field.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new InvalidRequest("The data field of the passkey response is not valid JSON.");
  }
  if (!isObject(parsed)) throw new InvalidRequest("The data field of the passkey response must be a JSON object.");
  return parsed;
}

function requireStrings(response: Record<string, unknown>, fields: string[], action: WebAuthnAction): void {
  for (const field of fields) {
    if (typeof response[field] !== "string" || response[field] === "") {
      throw new InvalidRequest(`The ${action} response has no response.${field}.`);
    }
  }
}

export function registrationResponseOf(data: unknown): RegistrationResponseJSON {
  const credential = credentialOf(data, "register");
  requireStrings(credential.response as Record<string, unknown>, ["clientDataJSON", "attestationObject"], "register");
  return credential as unknown as RegistrationResponseJSON;
}

export function authenticationResponseOf(data: unknown): AuthenticationResponseJSON {
  const credential = credentialOf(data, "authenticate");
  requireStrings(credential.response as Record<string, unknown>, ["clientDataJSON", "authenticatorData", "signature"], "authenticate");
  const { userHandle } = credential.response as Record<string, unknown>;
  if (userHandle !== undefined && userHandle !== null && typeof userHandle !== "string") {
    throw new InvalidRequest("The authenticate response has a response.userHandle that is not a string.");
  }
  return credential as unknown as AuthenticationResponseJSON;
}

function credentialOf(data: unknown, action: WebAuthnAction): Record<string, unknown> {
  const credential = readData(data);
  if (typeof credential.id !== "string" || !CREDENTIAL_ID.test(credential.id)) {
    throw new InvalidRequest(`The ${action} response has no credential id (base64url).`);
  }
  if (typeof credential.rawId !== "string") throw new InvalidRequest(`The ${action} response has no rawId.`);
  if (credential.type !== "public-key") throw new InvalidRequest(`The ${action} response is not a public-key credential.`);
  if (!isObject(credential.response)) throw new InvalidRequest(`The ${action} response has no response object.`);
  return { clientExtensionResults: {}, ...credential };
}
