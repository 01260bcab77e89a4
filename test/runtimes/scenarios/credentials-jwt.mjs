/** Credentials sign-in with a JWT session: the cookie, the session read, update() and sign-out. */
import { Browser, ORIGIN, cookiesSet, isCleared } from "./browser.mjs";
import { ADA, PASSWORD, credentialsConfig } from "./configs.mjs";

const DAY = 24 * 60 * 60 * 1000;

export async function credentialsJwt(t) {
  const { config } = credentialsConfig();
  const browser = new Browser(config);
  const csrfToken = await browser.csrfToken();

  const wrong = await browser.request("/auth/callback/credentials", { form: { email: ADA.email, password: "nope", csrfToken } });
  t.redirect(wrong, `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`, "a wrong password");
  t.ok(!cookiesSet(wrong).has("authjs.session-token"), "a wrong password sets no session cookie");

  const signIn = await browser.request("/auth/callback/credentials", {
    form: { email: ADA.email, password: PASSWORD, csrfToken, callbackUrl: `${ORIGIN}/dashboard` },
  });
  t.redirect(signIn, `${ORIGIN}/dashboard`, "the sign-in");
  const cookie = cookiesSet(signIn).get("authjs.session-token");
  t.authCookie(cookie, "authjs.session-token");
  // A JWE (dir + A256CBC-HS512): five base64url parts.
  t.equal(cookie.value.split(".").length, 5, "parts of the session cookie's JWE");
  t.ok(Math.abs(Date.parse(cookie.attributes.expires) - (Date.now() + 30 * DAY)) < 60_000, "the session cookie expires in 30 days");

  const read = await browser.request("/auth/session");
  t.equal(read.status, 200, "GET /auth/session status");
  t.match(read.headers.get("cache-control"), /no-store/, "GET /auth/session Cache-Control");
  const session = await read.json();
  t.equal(session.user, { name: ADA.name, email: ADA.email, image: ADA.image }, "the session's user");
  t.ok(Math.abs(Date.parse(session.expires) - (Date.now() + 30 * DAY)) < 60_000, "the session expires in 30 days");

  // update(): a POST of { csrfToken, data } runs the jwt callback with trigger "update" and re-issues the cookie.
  const refused = await browser.request("/auth/session", { json: { data: { name: "Mallory" } } });
  t.equal(refused.status, 400, "an update without the CSRF token");
  const updated = await browser.request("/auth/session", { json: { csrfToken, data: { name: "Countess of Lovelace" } } });
  t.equal(updated.status, 200, "the update's status");
  t.equal((await updated.json()).user.name, "Countess of Lovelace", "the name the update answers");
  t.ok(cookiesSet(updated).get("authjs.session-token")?.value !== cookie.value, "the update re-issues the session cookie");
  t.equal((await browser.session()).user.name, "Countess of Lovelace", "the name read after the update");

  const signOut = await browser.request("/auth/signout", { form: { csrfToken } });
  t.redirect(signOut, `${ORIGIN}/`, "the sign-out");
  t.ok(isCleared(cookiesSet(signOut).get("authjs.session-token")), "the sign-out clears the session cookie (empty, Max-Age=0)");
  t.equal(await browser.session(), null, "the session read after the sign-out");
}
