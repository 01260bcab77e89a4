/**
 * One visitor of an app made by `auth-init` (SvelteKit: email + password,
 * sign-in links by email, the start of an OAuth sign-in), driven over HTTP as
 * a browser without JavaScript drives it: a cookie jar,
 * same-site form posts (`Accept: text/html`, so form actions answer with
 * redirects and pages, not JSON), the mailed links followed. Each step asserts
 * what the app answers (status, Location, cookies) and returns it, so a test
 * can say which instance behind a proxy answered.
 */
import { expect } from "vitest";
import { CookieJar } from "../../helpers.js";
import { linkIn, type MailServer } from "../../email/support/smtp.js";
import { parseForms } from "../../oauth/support/html-forms.js";
import { mailTo } from "./account-flow.js";
import { http } from "./http.js";
import type { RunningServer } from "./processes.js";
import { CLIENT_ADDRESS_HEADER } from "./round-robin-proxy.js";

export const SESSION_COOKIE = "authjs.session-token";

export interface SessionBody {
  user?: { name?: string | null; email?: string | null };
  expires?: string;
}

export class Visitor {
  readonly jar = new CookieJar();

  /** `address`: the visitor's own address, as the proxy passes it on (default: the connection's, 127.0.0.1). */
  constructor(
    readonly server: RunningServer,
    readonly address?: string,
  ) {}

  /** A request as this visitor's browser sends it; its cookies land in the jar. */
  send(path: string, options: { method?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers = { accept: "text/html", ...(this.address ? { [CLIENT_ADDRESS_HEADER]: this.address } : {}), ...options.headers };
    return http(this.server, path, { ...options, headers, jar: this.jar });
  }

  /** `GET /auth/session`: the session's JSON, or null when signed out. */
  async session(): Promise<SessionBody | null> {
    const response = await this.send("/auth/session", { headers: { accept: "application/json" } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as SessionBody | null;
    return body?.user ? body : null;
  }

  /** The sign-up form (a plain form to the handler): "check your email". Returns the mailed confirmation link. */
  async signUp(mail: MailServer, email: string, password: string, name = ""): Promise<URL> {
    const before = mail.messages.length;
    const response = await this.send("/auth/signup", { form: { callbackUrl: "/account", name, email, password } });
    expect(response.status, await bodyOf(response)).toBe(302);
    expect(new URL(response.headers.get("location")!, this.server.origin).pathname).toMatch(/\/verify-request$/);
    expect(this.jar.get(SESSION_COOKIE)).toBeUndefined();
    const link = linkIn(await mailTo(mail, email, before));
    expect(link.origin).toBe(this.server.origin);
    expect(link.pathname).toBe("/signin");
    return link;
  }

  /**
   * The sign-in page's password form (its form action), with the `confirm` of a
   * sign-up link when given. Returns the answer: 303 to `redirectTo` signed in,
   * else the page again with its alert.
   */
  async signIn(email: string, password: string, confirm?: URL): Promise<Response> {
    const redirectTo = "/account";
    const form: Record<string, string> = { providerId: "password", redirectTo, email, password };
    const token = confirm?.searchParams.get("confirm");
    if (token) form.confirm = token;
    return this.send(`/signin?${new URLSearchParams({ redirectTo })}`, { form });
  }

  /** A sign-in that must succeed: 303 to the account page, with a session cookie. */
  async signInOk(email: string, password: string, confirm?: URL): Promise<Response> {
    const response = await this.signIn(email, password, confirm);
    expect(response.status, await bodyOf(response)).toBe(303);
    expect(response.headers.get("location")).toBe(`${this.server.origin}/account`);
    expect(this.jar.get(SESSION_COOKIE)).toBeDefined();
    return response;
  }

  /**
   * The sign-in page's button for an OAuth provider (its form action, from `redirectTo`):
   * 303 to the provider's authorization URL, returned; the check cookies are in the jar.
   */
  async startOAuth(providerId: string, redirectTo = "/protected"): Promise<URL> {
    const response = await this.send(`/signin?${new URLSearchParams({ redirectTo })}`, { form: { providerId, redirectTo } });
    expect(response.status, await bodyOf(response)).toBe(303);
    const authorization = new URL(response.headers.get("location")!);
    expect(authorization.searchParams.get("state")).toBeTruthy();
    return authorization;
  }

  /** The sign-in page's email form: "check your email". Returns the mailed sign-in link. */
  async requestEmailLink(mail: MailServer, email: string, redirectTo = "/protected"): Promise<URL> {
    const before = mail.messages.length;
    const response = await this.send(`/signin?${new URLSearchParams({ redirectTo })}`, { form: { providerId: "email", redirectTo, email } });
    expect(response.status, await bodyOf(response)).toBe(303);
    expect(new URL(response.headers.get("location")!, this.server.origin).pathname).toMatch(/\/verify-request$/);
    const link = linkIn(await mailTo(mail, email, before));
    expect(link.origin).toBe(this.server.origin);
    return link;
  }

  /**
   * A mailed sign-in link opened by a visitor who is signed out, then its
   * confirmation page's button pressed: two requests. Opening alone signs
   * nobody in (mail scanners open links). Returns the answer to the button's POST.
   */
  async confirmEmailLink(link: URL): Promise<Response> {
    const page = await this.send(link.pathname + link.search);
    expect(page.status, await bodyOf(page)).toBe(200);
    expect(this.jar.get(SESSION_COOKIE)).toBeUndefined();
    const [form] = parseForms(await page.text(), link);
    expect(form?.fields.token).toBe(link.searchParams.get("token"));
    const action = new URL(form!.action);
    return this.send(action.pathname + action.search, { form: form!.fields });
  }

  /** The sign-out page's form: 303 home, the session cookie cleared. */
  async signOut(): Promise<Response> {
    const response = await this.send("/signout", { form: {} });
    expect(response.status, await bodyOf(response)).toBe(303);
    expect(this.jar.get(SESSION_COOKIE)).toBeUndefined();
    return response;
  }
}

/** A refused form's page: its one alert's text. */
export function alertIn(html: string): string | undefined {
  return /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
}

/** The body, for a failed assertion's message (it is read once: keep it off success paths that read it). */
async function bodyOf(response: Response): Promise<string> {
  if (response.status < 400) return `HTTP ${response.status} ${response.headers.get("location") ?? ""}`;
  return `HTTP ${response.status}: ${(await response.clone().text()).slice(0, 500)}`;
}
