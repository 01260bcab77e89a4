/**
 * Email link sign-in on the memory adapter: the provider's own
 * `sendVerificationRequest` gets the link; following it (the confirmation page,
 * then its button) gives a database session; the link works once.
 */
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Email } from "@gatehouse/runtime/providers";
import { Browser, ORIGIN, SECRET, cookiesSet, postFormIn, quietLogger } from "./browser.mjs";

export async function emailLink(t) {
  const adapter = MemoryAdapter();
  const sent = [];
  const config = {
    secret: SECRET,
    trustHost: true,
    logger: quietLogger().logger,
    adapter,
    providers: [Email({ sendVerificationRequest: ({ identifier, url }) => void sent.push({ identifier, url }) })],
  };
  const browser = new Browser(config);
  const csrfToken = await browser.csrfToken();

  const requested = await browser.request("/auth/signin/email", { form: { email: " Grace@Example.COM ", csrfToken, callbackUrl: `${ORIGIN}/dashboard` } });
  t.redirect(requested, `${ORIGIN}/auth/verify-request?provider=email&type=email`, "the sign-in request");
  t.equal(sent.map((mail) => mail.identifier), ["grace@example.com"], "who the link went to");
  const link = new URL(sent[0].url);
  t.equal(`${link.origin}${link.pathname}`, `${ORIGIN}/auth/callback/email`, "the link's address");
  t.equal(link.searchParams.get("email"), "grace@example.com", "the link's email");
  t.equal(link.searchParams.get("callbackUrl"), `${ORIGIN}/dashboard`, "the link's callbackUrl");
  t.match(link.searchParams.get("token"), /^[0-9a-f]{64}$/, "the link's token");

  const page = await browser.request(`${link.pathname}${link.search}`);
  t.equal(page.status, 200, "the confirmation page's status");
  t.equal([...cookiesSet(page).keys()].filter((name) => name.includes("session")), [], "session cookies set by opening the link");
  const form = postFormIn(await page.text(), link);
  const confirmed = await browser.request(`${form.action.pathname}${form.action.search}`, { form: form.fields });
  t.redirect(confirmed, `${ORIGIN}/dashboard`, "the confirmation");
  const cookie = cookiesSet(confirmed).get("authjs.session-token");
  t.authCookie(cookie, "authjs.session-token");
  const stored = await adapter.getSessionAndUser(cookie.value);
  t.equal(stored?.user.email, "grace@example.com", "the stored session's user");
  t.ok(stored?.user.emailVerified instanceof Date, "the user's address is verified");
  t.equal((await browser.session())?.user.email, "grace@example.com", "the session read's user");

  browser.cookies.delete("authjs.session-token");
  const again = await browser.request(`${form.action.pathname}${form.action.search}`, { form: form.fields });
  t.redirect(again, `${ORIGIN}/auth/error?error=Verification`, "the same link used again");
  t.ok(!cookiesSet(again).has("authjs.session-token"), "the same link used again sets no session cookie");
}
