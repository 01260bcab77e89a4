/**
 * Email sign-in links in bulk, through the handler and a real SMTP server: many
 * browsers ask for links at once, the links are read from the mails, then each
 * link's confirmation page is opened in a browser of its own and all the
 * confirmation buttons are pressed together (the POST that uses the token),
 * so the token uses race each other rather than the page loads.
 */
import type { AuthConfig } from "@gatehouse/runtime";
import { call, CookieJar } from "../../helpers.js";
import { parseForms } from "../../oauth/support/html-forms.js";
import { requestLink } from "../../email/support/flow.js";
import { linkIn, type MailServer } from "../../email/support/smtp.js";

export interface MailedLink {
  address: string;
  link: URL;
}

/** Asks for one link per entry of `addresses` (repeats allowed), all at once; returns the mailed links. */
export async function requestLinks(config: AuthConfig, mail: MailServer, addresses: string[]): Promise<MailedLink[]> {
  const before = mail.messages.length;
  const responses = await Promise.all(addresses.map((address) => requestLink(config, new CookieJar(), address)));
  const refused = responses.filter((response) => response.status !== 302 || !response.headers.get("location")?.includes("/verify-request"));
  if (refused.length > 0) throw new Error(`${refused.length} link requests were not sent to verify-request (first: ${refused[0]!.status})`);
  const messages = (await mail.waitFor(before + addresses.length, 20_000)).slice(before);
  return messages.map((message) => ({ address: message.to[0]!, link: linkIn(message) }));
}

export interface OpenedLink extends MailedLink {
  /** The browser that opened the link (it holds the page's CSRF cookie, and later the session). */
  jar: CookieJar;
  /** Where the confirmation button posts, and its fields (token, email, CSRF token). */
  action: URL;
  fields: Record<string, string>;
}

/** Opens a link's confirmation page (GET: uses nothing) in a fresh browser. */
export async function openLink(config: AuthConfig, mailed: MailedLink): Promise<OpenedLink> {
  const jar = new CookieJar();
  const page = await call(config, `${mailed.link.pathname}${mailed.link.search}`, { jar });
  const html = await page.text();
  const form = parseForms(html, mailed.link).find((f) => f.method === "post");
  if (page.status !== 200 || !form) throw new Error(`no confirmation form for ${mailed.address} (status ${page.status})`);
  return { ...mailed, jar, action: new URL(form.action), fields: form.fields };
}

/** Presses the confirmation button: the POST that uses the link's token and signs in. */
export function confirm(config: AuthConfig, opened: OpenedLink): Promise<Response> {
  return call(config, `${opened.action.pathname}${opened.action.search}`, { jar: opened.jar, form: opened.fields });
}
