/**
 * The answer when the config itself is wrong: the detailed message goes to the
 * log (it says exactly what to fix), the browser gets a generic 500.
 */
import { renderErrorPage } from "../pages/index.js";
import type { AuthConfig, ResponseInternal } from "../types.js";
import { createLogger } from "./logger.js";
import { PAGE_HEADERS } from "./pages-headers.js";
import { toResponse, NO_STORE } from "./response.js";
import { JSON_ACTIONS } from "./router.js";


export function configErrorResponse(
  request: Request,
  config: AuthConfig,
  error: Error,
  wantsRaw: boolean,
): Response | ResponseInternal {
  createLogger(config?.logger, config?.debug === true).error(error);
  const url = new URL(request.url);
  let result: ResponseInternal;
  // The base path may be what is misconfigured: judge the action by the last path segment,
  // or the one before it (`webauthn-options/<provider>`).
  const segments = url.pathname.replace(/\/$/, "").split("/");
  if (JSON_ACTIONS.has(segments.at(-1) ?? "") || segments.at(-2) === "webauthn-options") {
    result = {
      status: 500,
      headers: NO_STORE,
      body: { error: "Configuration", message: "There is a problem with the server configuration. Check the server logs." },
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
