/**
 * The steps of password accounts through the handler, as a browser takes them:
 * post a form with the CSRF token, read the mail that arrives at the real SMTP
 * server, open its link.
 */
import type { AuthConfig } from "@gatehouse/runtime";
import { Password, type PasswordUserConfig } from "@gatehouse/runtime/providers";
import { call, CookieJar, csrfToken, fetchSession } from "../../helpers.js";
import { linkIn, type MailServer, type ReceivedMail } from "../../email/support/smtp.js";

export const FROM = "Example <no-reply@example.com>";

/** A Password provider that mails through `mail`. */
export function passwordProvider(mail: MailServer, options: PasswordUserConfig = {}) {
  return Password({ server: mail.url, from: FROM, ...options });
}

/** Posts `form` to `path` with a fresh CSRF token, as the built-in pages' forms do. */
export async function post(config: AuthConfig, jar: CookieJar, path: string, form: Record<string, string>): Promise<Response> {
  const token = await csrfToken(config, jar);
  return call(config, path, { jar, form: { ...form, csrfToken: token } });
}

export function signUp(config: AuthConfig, jar: CookieJar, email: string, password: string, extra: Record<string, string> = {}) {
  return post(config, jar, "/auth/signup", { email, password, ...extra });
}

export function signIn(config: AuthConfig, jar: CookieJar, email: string, password: string, extra: Record<string, string> = {}) {
  return post(config, jar, "/auth/callback/password", { email, password, ...extra });
}

export function forgotPassword(config: AuthConfig, jar: CookieJar, email: string) {
  return post(config, jar, "/auth/forgot-password", { email });
}

/** Posts the reset form the link `link` opens, with `password`. */
export function resetPassword(config: AuthConfig, jar: CookieJar, link: URL, password: string) {
  return post(config, jar, "/auth/reset-password", {
    email: link.searchParams.get("email") ?? "",
    token: link.searchParams.get("token") ?? "",
    password,
  });
}

/** Confirms a sign-up: the link opens the sign-in page, whose form sends `confirm` with the password. */
export function confirmSignUp(config: AuthConfig, jar: CookieJar, link: URL, password: string) {
  return signIn(config, jar, link.searchParams.get("email") ?? "", password, { confirm: link.searchParams.get("confirm") ?? "" });
}

/** Waits for the next mail (after `before` of them) and returns it with its link. */
export async function nextMail(mail: MailServer, before: number): Promise<{ message: ReceivedMail; link: URL }> {
  const message = (await mail.waitFor(before + 1))[before]!;
  return { message, link: linkIn(message) };
}

/** A user who signed up and confirmed: the jar holds their session. */
export async function confirmedUser(config: AuthConfig, mail: MailServer, email: string, password: string, jar = new CookieJar()) {
  const before = mail.messages.length;
  const response = await signUp(config, jar, email, password);
  if (response.status !== 302) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  const { link } = await nextMail(mail, before);
  const confirmed = await confirmSignUp(config, jar, link, password);
  if (confirmed.status !== 302) throw new Error(`confirmation answered ${confirmed.status}`);
  return { jar, confirmed };
}

/** The email of the session in `jar`, or null. */
export async function sessionEmail(config: AuthConfig, jar: CookieJar): Promise<string | null> {
  const { body } = await fetchSession(config, jar);
  return body?.user?.email ?? null;
}
