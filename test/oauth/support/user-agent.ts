/**
 * A fetch-based "browser" for the authorization server: follows its redirects by hand with
 * its own cookie jar, fills oidc-provider's devInteractions login and consent forms, and stops
 * where a browser would leave the provider for the client: the redirect to `redirect_uri`
 * (returned as `callbackUrl`) or the auto-submitting `form_post` page (returned as
 * `formPost`). It never sends a request to any origin other than the provider's, so the test
 * decides what reaches the handler's callback.
 */
import { CookieJar } from "./cookie-jar.js";
import { parseForms, parseLinks, visibleText } from "./html-forms.js";

export interface AuthorizeOptions {
  /** The login typed into the login form (oidc-provider's `sub`). Only needed when a login form shows up. */
  login?: string;
  /** Any password is accepted by devInteractions. Default "password". */
  password?: string;
  /** `false` declines at the consent page (the provider answers `access_denied`). Default `true`. */
  consent?: boolean;
  /** `true` follows the first interaction's "Cancel" (abort) link: `error=access_denied`. Default `false`. */
  abort?: boolean;
}

/** The auto-submitting form of `response_mode=form_post`, as the browser would have posted it. */
export interface FormPost {
  /** The form's action: the client's redirect_uri. */
  action: string;
  /** Hidden inputs: `code`, `state`, `iss`, or `error`, `error_description`, ... */
  fields: Record<string, string>;
}

/** Where the flow left the provider: a redirect (query or fragment mode) or a form_post page. */
export type AuthorizeResult =
  | { callbackUrl: string; formPost?: undefined }
  | { callbackUrl?: undefined; formPost: FormPost };

/** The provider answered with a page the agent cannot act on (typically its error page). */
export class ProviderPageError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly text: string,
  ) {
    super(`Unexpected provider page (HTTP ${status}) at ${url}: ${text.slice(0, 500)}`);
    this.name = "ProviderPageError";
  }
}

/** Generous bound: authorize -> login -> resume -> consent -> resume -> callback is 6-8 steps. */
const MAX_STEPS = 20;

/**
 * One browser profile against one provider origin. Keeps its cookies across `authorize()`
 * calls, so a second authorization reuses the provider session (no login form), as SSO would.
 */
export class ProviderUserAgent {
  readonly cookies = new CookieJar();
  /** Every request made, as "METHOD url -> status", for debugging failed flows. */
  readonly history: string[] = [];
  #origin: string | undefined;

  /** @param origin The provider's origin; default: the origin of the first authorization URL. */
  constructor(origin?: string) {
    this.#origin = origin === undefined ? undefined : new URL(origin).origin;
  }

  /** Runs an authorization request through login (and consent) until it leaves the provider. */
  async authorize(authorizationUrl: string | URL, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
    const start = new URL(authorizationUrl);
    this.#origin ??= start.origin;
    const redirectUri = start.searchParams.get("redirect_uri") ?? undefined;
    const { login, password = "password", consent = true, abort = false } = options;

    let response = await this.request(start);
    for (let step = 0; step < MAX_STEPS; step += 1) {
      const url = new URL(response.url);
      if (isRedirect(response.status)) {
        const location = response.headers.get("location");
        if (!location) throw new ProviderPageError(response.status, url.href, "redirect without Location");
        const target = new URL(location, url);
        if (this.#leavesProvider(target.href, redirectUri)) return { callbackUrl: target.href };
        response = await this.request(target);
        continue;
      }

      const html = await response.text();
      const forms = parseForms(html, url);
      const formPost = forms.find((form) => this.#leavesProvider(form.action, redirectUri));
      if (formPost) return { formPost: { action: formPost.action, fields: formPost.fields } };

      const prompt = forms.find((form) => form.fields.prompt !== undefined);
      const abortLink = parseLinks(html, url).find((href) => new URL(href).pathname.endsWith("/abort"));
      if (prompt && (abort || (prompt.fields.prompt === "consent" && !consent))) {
        if (!abortLink) throw new ProviderPageError(response.status, url.href, "no abort link on the interaction page");
        response = await this.request(new URL(abortLink));
      } else if (prompt?.fields.prompt === "login") {
        if (login === undefined) throw new ProviderPageError(response.status, url.href, "login form shown but no `login` given");
        response = await this.request(new URL(prompt.action), { ...prompt.fields, login, password });
      } else if (prompt?.fields.prompt === "consent") {
        response = await this.request(new URL(prompt.action), prompt.fields);
      } else {
        throw new ProviderPageError(response.status, url.href, visibleText(html));
      }
    }
    throw new Error(`Authorization did not leave the provider within ${MAX_STEPS} steps:\n${this.history.join("\n")}`);
  }

  /**
   * One request to the provider with the jar's cookies and no automatic redirects: a GET, or
   * a form POST when `form` is given. Refuses any other origin.
   */
  async request(url: URL, form?: Record<string, string>): Promise<Response> {
    this.#origin ??= url.origin;
    if (url.origin !== this.#origin) {
      throw new Error(`The user agent only talks to the provider (${this.#origin}), not ${url.origin}`);
    }
    const headers = new Headers();
    const cookie = this.cookies.header(url);
    if (cookie) headers.set("cookie", cookie);
    const init: RequestInit = { method: form ? "POST" : "GET", headers, redirect: "manual" };
    if (form) init.body = new URLSearchParams(form);
    const response = await fetch(url, init);
    this.cookies.store(url, response);
    this.history.push(`${init.method} ${url.href} -> ${response.status}`);
    return response;
  }

  /** The client's side: redirect_uri when known, else anything off the provider's origin. */
  #leavesProvider(target: string, redirectUri: string | undefined): boolean {
    if (redirectUri !== undefined && startsWithUri(target, redirectUri)) return true;
    return new URL(target).origin !== this.#origin;
  }
}

/** `authorize()` with a fresh user agent (no provider session): the common case. */
export function authorize(authorizationUrl: string | URL, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
  return new ProviderUserAgent().authorize(authorizationUrl, options);
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** `target` is `uri` itself, or `uri` followed by a query or fragment. */
function startsWithUri(target: string, uri: string): boolean {
  return target === uri || (target.startsWith(uri) && (target[uri.length] === "?" || target[uri.length] === "#" || uri.includes("?")));
}
