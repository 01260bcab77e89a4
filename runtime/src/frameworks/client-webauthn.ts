/**
 * The browser half of a passkey (WebAuthn) `signIn`: ask the handler for the
 * ceremony's options, let the browser create or use a passkey, and hand back
 * what to post to `callback/<id>`. `@simplewebauthn/browser` is imported on first
 * use, so the app's bundler splits it off and apps that never sign in with a
 * passkey never load it.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import type { AuthClientResult, ClientSettings } from "./client.js";

export type WebAuthnAction = "register" | "authenticate";

/** The ceremony's outcome: the fields to post, or the result to hand the caller. */
export type WebAuthnCeremony =
  | { ok: true; action: WebAuthnAction; data: string }
  | { ok: false; result: AuthClientResult };

type OptionsBody =
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON };

function failure(status: number, error: string, code: string | null = null): WebAuthnCeremony {
  return { ok: false, result: { ok: false, status, error, code, url: null } };
}

/**
 * The browser's errors by name (`NotAllowedError` when the user cancels or the
 * prompt times out, `InvalidStateError` for a passkey already registered...);
 * anything unnamed is a `WebAuthnVerificationError`.
 */
function browserError(error: unknown): WebAuthnCeremony {
  const name = error instanceof Error && error.name !== "" && error.name !== "Error" ? error.name : "WebAuthnVerificationError";
  // SimpleWebAuthn's WebAuthnError says why in `code`, e.g. ERROR_CEREMONY_ABORTED.
  const code = (error as { code?: unknown } | null)?.code;
  return failure(0, name, typeof code === "string" ? code : null);
}

/**
 * @param query `action` (optional: the server infers it) and the provider's form
 *   fields (`email`...), sent as the options request's query.
 */
export async function runWebAuthnCeremony(
  settings: ClientSettings,
  providerId: string,
  query: Record<string, string>,
): Promise<WebAuthnCeremony> {
  const url = `${settings.basePath}/webauthn-options/${encodeURIComponent(providerId)}?${new URLSearchParams(query)}`;
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => null)) as (Partial<OptionsBody> & { error?: unknown }) | null;
  const known = body?.action === "register" || body?.action === "authenticate";
  if (!response.ok || !known || typeof body.options !== "object" || body.options === null) {
    const error = typeof body?.error === "string" ? body.error : "ServerError";
    return failure(response.status, error);
  }
  const { action, options } = body as OptionsBody;
  try {
    const browser = await import("@simplewebauthn/browser");
    const data =
      action === "register"
        ? await browser.startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON })
        : await browser.startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
    return { ok: true, action, data: JSON.stringify(data) };
  } catch (error) {
    return browserError(error);
  }
}
