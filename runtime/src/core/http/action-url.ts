/**
 * `createActionURL`: the URL of a handler action, as Auth.js exports it for
 * integrations and apps that call the handler themselves (read the session in
 * a server hook, post a sign-in from a server action). Built from the same
 * pieces the handler uses (`setEnvDefaults`, the AUTH_URL and basePath rules of
 * `config.ts`, `publicOrigin`), so the URL it gives is one the handler answers on.
 */
import type { AuthAction, AuthConfig } from "../../types.js";
import { requestUrlIsPublic, resolveBasePath, resolveUrl } from "../config/config.js";
import { setEnvDefaults, type Env } from "../config/env.js";
import { InvalidRequest, UnknownAction, UntrustedHost } from "../errors/errors.js";
import { createLogger } from "../logger.js";
import { originOfHost, publicOrigin } from "./public-origin.js";
import { isAuthAction } from "./router.js";

/** What `createActionURL` reads of the config; Auth.js's `Pick<AuthConfig, "basePath" | "logger">` fits. */
export type ActionURLConfig = Partial<Pick<AuthConfig, "basePath" | "logger" | "url" | "trustHost">>;

/**
 * The absolute URL of `action` (`signin`, `session`, ...) for the request
 * whose `headers` and `protocol` are given: `AUTH_URL` (or `url`) when set,
 * else the request's host (and `X-Forwarded-Host`/`-Proto` when `trustHost` is
 * set), then the base path (`basePath`, the path of `AUTH_URL`, or `/auth`).
 * Same signature as `createActionURL` in `@auth/core`.
 *
 * Unlike Auth.js it refuses what would give a wrong URL rather than build one:
 * `UnknownAction` for an action the handler does not have, `InvalidConfig` for a
 * malformed `AUTH_URL` or `basePath`, `UntrustedHost` when neither `AUTH_URL`
 * nor host trust says the request's host is the app's, and `InvalidRequest`
 * for a protocol other than http(s) or a missing or malformed `Host` header.
 * A malformed `X-Forwarded-Host` is ignored, as the handler ignores it.
 *
 * @example
 * ```ts
 * import { Auth, createActionURL } from "@gatehouse/runtime";
 *
 * const url = createActionURL("session", event.url.protocol, event.request.headers, process.env, config);
 * const response = await Auth(new Request(url, { headers: { cookie } }), config);
 * ```
 */
export function createActionURL(
  action: AuthAction,
  protocol: string | undefined,
  headers: Headers,
  envObject: Env | undefined,
  config: ActionURLConfig | undefined,
): URL {
  if (!isAuthAction(action)) {
    throw new UnknownAction(`createActionURL: unknown action ${JSON.stringify(String(action).slice(0, 100))}.`);
  }
  const withEnv = setEnvDefaults(envObject ?? {}, { providers: [], ...config } as AuthConfig);
  const url = resolveUrl(withEnv.url);
  const basePath = resolveBasePath(withEnv.basePath, url, createLogger(config?.logger, false));
  if (!url && withEnv.trustHost !== true) {
    throw new UntrustedHost(
      "createActionURL cannot tell the app's URL: the request's host is not trusted. Set AUTH_URL to the public URL of the app, or `trustHost: true` (AUTH_TRUST_HOST=true) when the server or proxy sets the Host header itself.",
    );
  }
  const requestHeaders = headers instanceof Headers ? headers : new Headers(headers);
  // As Auth.js: "https" when the caller does not know; "https:" (URL.protocol) and "https" both do.
  const scheme = (protocol || "https").replace(/:$/, "").toLowerCase();
  if (scheme !== "http" && scheme !== "https") {
    throw new InvalidRequest(`createActionURL: the protocol ${JSON.stringify(String(protocol).slice(0, 100))} is not http or https.`);
  }
  const requestOrigin = originOfHost(scheme, requestHeaders.get("host"));
  const origin = publicOrigin(requestHeaders, requestOrigin ? new URL(requestOrigin) : undefined, {
    url,
    requestUrlIsPublic: requestUrlIsPublic(withEnv),
  });
  if (!origin) {
    throw new InvalidRequest("createActionURL: the request has no usable Host header (a host name or address, with an optional port), and AUTH_URL is not set.");
  }
  return new URL(`${origin}${basePath}/${action}`);
}
