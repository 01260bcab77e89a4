/**
 * Browser side of the framework integrations: `signIn` and `signOut` post a form
 * to the handler with `X-Auth-Return-Redirect: 1`, get the target URL as JSON
 * and navigate there (or, with `redirect: false`, report the outcome). Browser
 * APIs only; nothing here runs on the server.
 */
import { runWebAuthnCeremony } from "./client-webauthn.js";

export interface SignInOptions {
  /** Where to go after signing in; default: the current page. */
  redirectTo?: string;
  /** @deprecated `redirectTo` under its Auth.js name (`@auth/solid-start/client`, older `@auth/sveltekit`); `redirectTo` wins. */
  callbackUrl?: string;
  /** `false`: for credentials, email and passkeys, return the outcome instead of navigating. */
  redirect?: boolean;
  /**
   * Passkeys (a `webauthn` provider): `"register"` a new passkey or
   * `"authenticate"` with one. By default the server decides: signed in, it
   * registers another passkey for the user; with the `email` of a known user it
   * authenticates; with a new email it signs a new user up; with no email it
   * accepts any passkey of this site.
   */
  action?: "register" | "authenticate";
  /**
   * Credential fields (`email`, `password`, ...) for a credentials provider; the
   * `email` for email; the form fields (`email` by default) for passkeys.
   */
  [field: string]: string | boolean | undefined;
}

export interface SignOutOptions {
  /** Where to go after signing out; default: the current page. */
  redirectTo?: string;
  /** @deprecated `redirectTo` under its Auth.js name (`@auth/solid-start/client`, older `@auth/sveltekit`); `redirectTo` wins. */
  callbackUrl?: string;
  /** `false`: stay on the page and return the outcome. */
  redirect?: boolean;
}

/**
 * What `signIn`/`signOut` report. A passkey ceremony that fails in the browser
 * never reaches the server: `status` 0, `error` the browser's error name
 * (`NotAllowedError` when the user cancels or the prompt times out) or
 * `WebAuthnVerificationError`, and nothing navigates, whatever `redirect` says.
 */
export interface AuthClientResult {
  ok: boolean;
  /** The HTTP status; 0 when the browser's WebAuthn call failed. */
  status: number;
  /** The `error` of the target URL (e.g. `CredentialsSignin`), or of the failed passkey ceremony. */
  error: string | null;
  /** The `code` of a `CredentialsSignin` (e.g. `credentials`) or of a WebAuthn error (e.g. `ERROR_CEREMONY_ABORTED`). */
  code: string | null;
  url: string | null;
}

export interface ClientSettings {
  basePath: string;
  /** Whether the handler wants the CSRF token (SvelteKit checks origins instead and answers `csrf` with 404). */
  csrf: boolean;
}

interface PublicProvider {
  id: string;
  type: string;
}

export async function clientSignIn(
  settings: ClientSettings,
  providerId?: string,
  options: SignInOptions = {},
  authorizationParams?: Record<string, string>,
): Promise<AuthClientResult | undefined> {
  const { redirectTo: given, callbackUrl, redirect = true, ...fields } = options;
  const redirectTo = given ?? callbackUrl ?? window.location.href;
  const { basePath } = settings;
  if (!providerId) {
    window.location.href = `${basePath}/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`;
    return undefined;
  }
  const providers = (await getJson(`${basePath}/providers`)) as Record<string, PublicProvider> | null;
  const provider = providers?.[providerId];
  if (!provider) {
    window.location.href = `${basePath}/error?${new URLSearchParams({ error: "Configuration" })}`;
    return undefined;
  }
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) values[name] = String(value);
  if (provider.type === "webauthn") {
    const ceremony = await runWebAuthnCeremony(settings, provider.id, values);
    // Nothing happened on the server: stay on the page and report.
    if (!ceremony.ok) return ceremony.result;
    const form = { action: ceremony.action, data: ceremony.data, callbackUrl: redirectTo };
    const result = await postForm(settings, `${basePath}/callback/${encodeURIComponent(providerId)}`, form);
    return redirect === false ? result : navigate(result);
  }
  const action = provider.type === "credentials" ? "callback" : "signin";
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : "";
  const form: Record<string, string> = { callbackUrl: redirectTo, ...values };
  const result = await postForm(settings, `${basePath}/${action}/${encodeURIComponent(providerId)}${query}`, form);
  const stays = redirect === false && (provider.type === "credentials" || provider.type === "email");
  if (!stays) return navigate(result);
  return result;
}

export async function clientSignOut(settings: ClientSettings, options: SignOutOptions = {}): Promise<AuthClientResult | undefined> {
  const { redirectTo = options.callbackUrl ?? window.location.href, redirect = true } = options;
  const result = await postForm(settings, `${settings.basePath}/signout`, { callbackUrl: redirectTo });
  if (redirect) return navigate(result);
  return result;
}

async function postForm(settings: ClientSettings, url: string, fields: Record<string, string>): Promise<AuthClientResult> {
  const body = new URLSearchParams(fields);
  if (settings.csrf) {
    const csrf = (await getJson(`${settings.basePath}/csrf`)) as { csrfToken?: string } | null;
    body.set("csrfToken", csrf?.csrfToken ?? "");
  }
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body,
  });
  const data = (await response.json().catch(() => null)) as { url?: string } | null;
  const target = typeof data?.url === "string" ? data.url : null;
  const params = target ? new URL(target, window.location.href).searchParams : new URLSearchParams();
  const error = params.get("error") ?? (response.ok ? null : "ServerError");
  return { ok: response.ok && error === null, status: response.status, error, code: params.get("code"), url: target };
}

function navigate(result: AuthClientResult): undefined {
  const target = result.url ?? window.location.href;
  window.location.href = target;
  // A URL that differs only by its hash does not load a page: reload so the new session shows.
  if (target.includes("#")) window.location.reload();
  return undefined;
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  return response.ok ? response.json() : null;
}

export interface AuthClient<PathOption extends string> {
  /**
   * Signs in with `providerId` (the built-in sign-in page when omitted). OAuth and
   * email navigate away; credentials, email and passkeys with `redirect: false`
   * return the outcome. For a passkey provider it runs the WebAuthn ceremony in
   * the browser first (see {@link SignInOptions.action}); a cancelled or failed
   * ceremony is returned, never thrown.
   *
   * @example
   * ```ts
   * const result = await signIn("passkey", { email, redirectTo: "/account" });
   * if (result?.error === "NotAllowedError") message = "Passkey prompt closed. Try again?";
   * ```
   */
  signIn(
    providerId?: string,
    options?: SignInOptions & { [K in PathOption]?: string },
    authorizationParams?: Record<string, string>,
  ): Promise<AuthClientResult | undefined>;
  /** Signs out and goes to `redirectTo` (default: this page). */
  signOut(options?: SignOutOptions & { [K in PathOption]?: string }): Promise<AuthClientResult | undefined>;
}

/**
 * The `signIn`/`signOut` pair of a framework's client module. `pathOption` names
 * the option that overrides where the handler lives (`basePath`, `prefix`).
 */
export function createAuthClient<PathOption extends string>(
  defaults: () => ClientSettings,
  pathOption: PathOption,
): AuthClient<PathOption> {
  const split = <T extends object>(options: T | undefined) => {
    const { [pathOption]: path, ...rest } = (options ?? {}) as Record<string, unknown>;
    const settings = defaults();
    return { settings: typeof path === "string" ? { ...settings, basePath: path } : settings, rest };
  };
  return {
    signIn(providerId, options, authorizationParams) {
      const { settings, rest } = split(options);
      return clientSignIn(settings, providerId, rest as SignInOptions, authorizationParams);
    },
    signOut(options) {
      const { settings, rest } = split(options);
      return clientSignOut(settings, rest as SignOutOptions);
    },
  };
}
