/**
 * A database session through any adapter: credentials sign-in stores a session
 * row (the cookie holds only its token), the session read returns its user, and
 * sign-out deletes the row. The memory adapter and PostgreSQL through pg run it.
 */
import { Browser, ORIGIN, cookiesSet, isCleared } from "./browser.mjs";
import { PASSWORD, credentialsConfig } from "./configs.mjs";

export async function databaseSessionFlow(t, adapter, email) {
  const user = await adapter.createUser({ id: "", email, emailVerified: null, name: "Grace Hopper", image: null });
  // With an adapter, the default strategy is "database".
  const { config, logged } = credentialsConfig({ adapter, findUser: (address) => adapter.getUserByEmail(address) });
  const browser = new Browser(config);
  const csrfToken = await browser.csrfToken();

  const signIn = await browser.request("/auth/callback/credentials", { form: { email, password: PASSWORD, csrfToken } });
  t.redirect(signIn, `${ORIGIN}/`, `the sign-in (logged: ${logged.join("; ") || "nothing"})`);
  const cookie = cookiesSet(signIn).get("authjs.session-token");
  t.authCookie(cookie, "authjs.session-token");
  t.ok(!cookie.value.includes("."), "the cookie holds a session token, not a JWE");
  const stored = await adapter.getSessionAndUser(cookie.value);
  t.equal(stored?.user.id, user.id, "the stored session's user");

  const session = await browser.session();
  t.equal(session?.user, { name: "Grace Hopper", email, image: null }, "the session read's user");

  const signOut = await browser.request("/auth/signout", { form: { csrfToken } });
  t.redirect(signOut, `${ORIGIN}/`, "the sign-out");
  t.ok(isCleared(cookiesSet(signOut).get("authjs.session-token")), "the sign-out clears the session cookie");
  t.equal(await adapter.getSessionAndUser(cookie.value), null, "the session row after the sign-out");
  // The old cookie, sent again (as a copy of it would be), reads no session.
  browser.cookies.set("authjs.session-token", cookie.value);
  t.equal(await browser.session(), null, "the session read with the signed-out cookie");
}
