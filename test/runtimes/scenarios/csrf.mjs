/** Double-submit CSRF: the token and its cookie, and a sign-in refused without the token or with a wrong one. */
import { Browser, ORIGIN, SECRET, cookiesSet } from "./browser.mjs";
import { ADA, PASSWORD, credentialsConfig } from "./configs.mjs";

const CREDENTIALS = { email: ADA.email, password: PASSWORD };

export async function csrf(t) {
  const { config } = credentialsConfig();
  const browser = new Browser(config);
  const response = await browser.request("/auth/csrf");
  t.equal(response.status, 200, "GET /auth/csrf status");
  t.match(response.headers.get("cache-control"), /no-store/, "GET /auth/csrf Cache-Control");
  const body = await response.json();
  t.equal(Object.keys(body), ["csrfToken"], "GET /auth/csrf body's keys");
  t.match(body.csrfToken, /^[0-9a-f]{64}$/, "the CSRF token");
  const cookie = cookiesSet(response).get("authjs.csrf-token");
  t.authCookie(cookie, "authjs.csrf-token");
  // The cookie binds the token to the secret: token|sha256(token + secret), as Auth.js makes it.
  t.equal(cookie.value, `${body.csrfToken}|${await sha256Hex(`${body.csrfToken}${SECRET}`)}`, "the CSRF cookie's value");

  const secure = await new Browser(config, "https://app.example").request("/auth/csrf");
  t.authCookie(cookiesSet(secure).get("__Host-authjs.csrf-token"), "__Host-authjs.csrf-token", { secure: true });

  const refused = `${ORIGIN}/auth/signin?error=MissingCSRF`;
  const withoutToken = await browser.request("/auth/callback/credentials", { form: CREDENTIALS });
  t.redirect(withoutToken, refused, "a sign-in without the token");
  t.equal([...cookiesSet(withoutToken).keys()], [], "cookies set by a sign-in without the token");
  const wrong = `${body.csrfToken[0] === "0" ? "1" : "0"}${body.csrfToken.slice(1)}`;
  const wrongToken = await browser.request("/auth/callback/credentials", { form: { ...CREDENTIALS, csrfToken: wrong } });
  t.redirect(wrongToken, refused, "a sign-in with a wrong token");
  t.equal([...cookiesSet(wrongToken).keys()], [], "cookies set by a sign-in with a wrong token");

  const rightToken = await browser.request("/auth/callback/credentials", { form: { ...CREDENTIALS, csrfToken: body.csrfToken } });
  t.redirect(rightToken, `${ORIGIN}/`, "the same sign-in with the right token");
  t.ok(cookiesSet(rightToken).has("authjs.session-token"), "the sign-in with the right token sets the session cookie");
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
