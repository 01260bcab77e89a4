/**
 * The answer when the config itself is wrong: the detailed message goes to the
 * log (it says exactly what to fix) once per config object, the browser gets a
 * generic 500 on every request. Once, because the config is read once: every
 * later request fails for the same reason, and a line per request (a page view
 * asks for the session too) would bury the one that says what to fix.
 */
import { renderErrorPage } from "../../pages/index.js";
import type { AuthConfig, ResponseInternal } from "../../types.js";
import { createLogger } from "../logger.js";
import { CONFIGURATION_MESSAGE } from "../errors/error-response.js";
import { PAGE_HEADERS } from "../http/pages-headers.js";
import { toResponse, NO_STORE } from "../http/response.js";
import { JSON_ACTIONS } from "../http/router.js";

/** Configs whose error is in the log already. */
const reported = new WeakSet<object>();

export function configErrorResponse(
  request: Request,
  config: AuthConfig,
  error: Error,
  wantsRaw: boolean,
): Response | ResponseInternal {
  const key: object = config && typeof config === "object" ? config : configErrorResponse;
  if (!reported.has(key)) {
    reported.add(key);
    createLogger(config?.logger, config?.debug === true).error(error);
  }
  const url = new URL(request.url);
  let result: ResponseInternal;
  // The base path may be what is misconfigured: judge the action by the last path segment,
  // or the one before it (`webauthn-options/<provider>`).
  const segments = url.pathname.replace(/\/$/, "").split("/");
  if (JSON_ACTIONS.has(segments.at(-1) ?? "") || segments.at(-2) === "webauthn-options") {
    result = {
      status: 500,
      headers: NO_STORE,
      body: { error: "Configuration", message: CONFIGURATION_MESSAGE },
    };
  } else {
    const { status, html } = renderErrorPage({
      error: "Configuration",
      signinUrl: `${url.origin}/`,
      homeUrl: url.origin,
      theme: { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" },
    });
    result = { status, headers: PAGE_HEADERS, body: html };
  }
  return wantsRaw ? result : toResponse(result, false);
}
