/** `GET webauthn-options`: registration and authentication options for passkeys. */
import type { ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";
import { ExperimentalFeatureNotEnabled, UnsupportedProvider } from "../errors.js";

export function webauthnOptionsAction(ctx: RequestContext): ResponseInternal {
  if (!ctx.config.experimental.enableWebAuthn) {
    throw new ExperimentalFeatureNotEnabled(
      "WebAuthn is experimental and off: set `experimental: { enableWebAuthn: true }` and add a WebAuthn provider.",
    );
  }
  throw new UnsupportedProvider("WebAuthn sign-in is not available in this version of @gatehouse/runtime.");
}
