/** The built-in sign-out confirmation: signing out is a POST so a link or image can't trigger it. */
import { safeUrl } from "./escape.js";
import { hiddenFields, renderDocument } from "./layout.js";
import type { SignOutPageParams } from "./types.js";

export function renderSignOutPage(p: SignOutPageParams): string {
  return renderDocument({
    title: "Sign out",
    theme: p.theme,
    page: "signout",
    body:
      `<h1>Sign out</h1>\n` +
      `<p class="message">Are you sure you want to sign out?</p>\n` +
      `<form action="${safeUrl(p.signoutUrl)}" method="post">\n` +
      `${hiddenFields(p.csrfToken, p.callbackUrl)}\n` +
      `<button type="submit">Sign out</button>\n` +
      `</form>`,
  });
}
