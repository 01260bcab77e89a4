/**
 * The steps of an email sign-in through the handler, as a browser takes them:
 * post the form, read the mail, open the link, press the button.
 */
import type { AuthConfig } from "@gatehouse/runtime";
import { call, CookieJar, csrfToken } from "../../helpers.js";
import { parseForms } from "../../oauth/support/html-forms.js";
import { linkIn, type MailServer } from "./smtp.js";

/** `POST /auth/signin/<id>` with the CSRF token, as the sign-in page's form does. */
export async function requestLink(config: AuthConfig, jar: CookieJar, email: string, extra: Record<string, string> = {}, providerId = "email"): Promise<Response> {
  const token = await csrfToken(config, jar);
  return call(config, `/auth/signin/${providerId}`, { jar, form: { email, csrfToken: token, ...extra } });
}

/** Requests a link and returns it from the mail that arrived. */
export async function mailedLink(config: AuthConfig, mail: MailServer, jar: CookieJar, email: string, extra: Record<string, string> = {}): Promise<URL> {
  const before = mail.messages.length;
  const response = await requestLink(config, jar, email, extra);
  if (response.status !== 302) throw new Error(`sign-in request answered ${response.status}: ${await response.text()}`);
  const messages = await mail.waitFor(before + 1);
  return linkIn(messages[before]!);
}

/** Opens the link (the confirmation page) in `jar`'s browser and presses its button. */
export async function followLink(config: AuthConfig, jar: CookieJar, link: URL): Promise<{ page: Response; html: string; result: Response }> {
  const page = await call(config, `${link.pathname}${link.search}`, { jar });
  const html = await page.text();
  const form = parseForms(html, link).find((f) => f.method === "post");
  if (!form) throw new Error(`no form on the confirmation page (status ${page.status}):\n${html}`);
  const action = new URL(form.action);
  const result = await call(config, `${action.pathname}${action.search}`, { jar, form: form.fields });
  return { page, html, result };
}
