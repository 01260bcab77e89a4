/**
 * The built-in pages as the handler serves them: headers, forms that work without
 * JavaScript, escaping of everything user-derived, theming, and `pages` overrides.
 */
import { describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import { ORIGIN, CookieJar, call, captureLogger, credentialsConfig, locationOf, setCookies, storesSession } from "../helpers.js";

const LOGO = "https://cdn.example.com/logo.png";

async function page(config: AuthConfig, path: string, jar?: CookieJar) {
  const response = await call(config, path, { jar });
  return { response, html: await response.text() };
}

function expectPageHeaders(response: Response) {
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  expect(response.headers.get("cache-control")).toContain("no-store");
  const csp = response.headers.get("content-security-policy");
  expect(csp).toBeTruthy();
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|\*)/);
  // Not `no-referrer`: that makes browsers post the page's forms with `Origin: null`,
  // which origin-checking frameworks (SvelteKit) refuse.
  expect(response.headers.get("referrer-policy")).toBe("same-origin");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
}

/** Every URL in a src, href or action attribute. */
function resourceUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]!.replace(/&amp;/g, "&"));
}

/** Only the app's own origin and the configured logo may be referenced. */
function expectNoExternalResources(html: string, allowed: string[] = []) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<link[^>]+stylesheet/i);
  expect(html).not.toMatch(/@import/i);
  expect(html).not.toMatch(/<iframe|<object|<embed/i);
  for (const url of resourceUrls(html)) {
    if (!/^(https?:)?\/\//i.test(url)) continue;
    const absolute = new URL(url, ORIGIN);
    if (allowed.includes(absolute.href)) continue;
    expect(absolute.origin, url).toBe(ORIGIN);
  }
  // No url(...) in CSS pointing anywhere.
  expect(html).not.toMatch(/url\(\s*["']?https?:/i);
}

describe("GET /auth/signin", () => {
  it("200 HTML with CSP and no-store, the credentials form and the CSRF cookie", async () => {
    const jar = new CookieJar();
    const { response, html } = await page(credentialsConfig(), "/auth/signin", jar);
    expect(response.status).toBe(200);
    expectPageHeaders(response);

    const csrfCookie = setCookies(response).find((c) => c.name === "authjs.csrf-token");
    expect(csrfCookie).toBeDefined();
    expect(csrfCookie!.attributes.httponly).toBe(true);
    const cookieToken = csrfCookie!.value.split("|")[0]!;
    expect(cookieToken).toMatch(/^[0-9a-f]{64}$/);

    const forms = html.match(/<form[\s\S]*?<\/form>/g) ?? [];
    expect(forms).toHaveLength(1);
    const form = forms[0]!;
    const action = form.match(/<form[^>]*action="([^"]*)"/)?.[1];
    expect(new URL(action!, ORIGIN).href).toBe(`${ORIGIN}/auth/callback/credentials`);
    expect(form).toMatch(/<form[^>]*method="post"/i);
    expect(form).toMatch(/<input[^>]*name="username"[^>]*type="text"/);
    expect(form).toMatch(/<input[^>]*name="password"[^>]*type="password"/);
    expect(form).toContain(`<input type="hidden" name="csrfToken" value="${cookieToken}">`);
    expect(form).toMatch(/<button[^>]*type="submit"/);
    expect(form).toContain(">Username</label>");
    expect(form).toContain(">Password</label>");
    expectNoExternalResources(html);
    expect(storesSession(response)).toBe(false);
  });

  it("keeps the existing CSRF token instead of minting a new one", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    await page(config, "/auth/signin", jar);
    const token = jar.get("authjs.csrf-token")!.split("|")[0]!;
    const { response, html } = await page(config, "/auth/signin", jar);
    expect(html).toContain(`name="csrfToken" value="${token}"`);
    expect(setCookies(response).some((c) => c.name === "authjs.csrf-token")).toBe(false);
  });

  it("submitting the page's form as a browser would signs in (no JavaScript needed)", async () => {
    const config = credentialsConfig();
    const jar = new CookieJar();
    const { html } = await page(config, "/auth/signin?callbackUrl=%2Fdashboard", jar);
    const hidden = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]),
    );
    const action = new URL(html.match(/<form[^>]*action="([^"]*)"/)![1]!.replace(/&amp;/g, "&"));
    const response = await call(config, action.pathname, { jar, form: { ...hidden, username: "ada", password: "correct horse" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(storesSession(response)).toBe(true);
  });

  it("?error=CredentialsSignin shows its message", async () => {
    const { response, html } = await page(credentialsConfig(), "/auth/signin?error=CredentialsSignin&code=credentials");
    expect(response.status).toBe(200);
    expect(html).toMatch(/role="alert"/);
    expect(html).toContain("Sign in failed. Check the details you provided are correct.");
  });

  it.each([
    ["Signin", "Try signing in with a different account."],
    ["OAuthSignin", "Try signing in with a different account."],
    ["OAuthCallbackError", "Try signing in with a different account."],
    ["OAuthCreateAccount", "Try signing in with a different account."],
    ["EmailCreateAccount", "Try signing in with a different account."],
    ["Callback", "Try signing in with a different account."],
    ["OAuthAccountNotLinked", "To confirm your identity, sign in with the same account you used originally."],
    ["EmailSignin", "The sign-in email could not be sent. Check the address and try again."],
    ["AccountNotLinked", "That email address already has an account: sign in the way you did before."],
    ["SessionRequired", "Please sign in to access this page."],
    ["MissingCSRF", "The form has expired"],
    ["SomethingElse", "Unable to sign in."],
    ["__proto__", "Unable to sign in."],
  ])("?error=%s shows a message", async (error, message) => {
    const { html } = await page(credentialsConfig(), `/auth/signin?error=${encodeURIComponent(error)}`);
    expect(html).toContain(message);
  });

  it("the code parameter is never rendered", async () => {
    const { html } = await page(credentialsConfig(), "/auth/signin?error=CredentialsSignin&code=%3Cb%3Ecode-marker%3C%2Fb%3E");
    expect(html).not.toContain("code-marker");
  });

  it.each([
    "<script>alert(1)</script>",
    '"><script>alert(1)</script>',
    "<img src=x onerror=alert(1)>",
    "'><svg onload=alert(1)>",
  ])("?error=%s is not reflected unescaped", async (error) => {
    const { response, html } = await page(credentialsConfig(), `/auth/signin?error=${encodeURIComponent(error)}`);
    expect(response.status).toBe(200);
    expect(html).not.toContain(error);
    expect(html).not.toMatch(/<script|<img src=x|<svg/i);
    expect(html).toContain("Unable to sign in.");
  });

  it("a callbackUrl with markup is escaped in the hidden field", async () => {
    const { html } = await page(credentialsConfig(), `/auth/signin?callbackUrl=${encodeURIComponent('/a"><script>alert(1)</script>')}`);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('"><');
  });

  it("applies the theme: brandColor, buttonText, logo, colorScheme dark", async () => {
    const config = credentialsConfig({
      theme: { brandColor: "#ff5500", buttonText: "#000000", logo: LOGO, colorScheme: "dark" },
    });
    const { html } = await page(config, "/auth/signin");
    expect(html).toContain("#ff5500");
    expect(html).toContain("--button-text: #000000");
    expect(html).toContain(`<img class="logo" src="${LOGO}"`);
    expect(html).toContain('<meta name="color-scheme" content="dark">');
    expect(html).toContain("color-scheme: dark");
    expect(html).not.toContain("prefers-color-scheme");
    expectNoExternalResources(html, [LOGO]);
  });

  it("colorScheme light and auto", async () => {
    const light = (await page(credentialsConfig({ theme: { colorScheme: "light" } }), "/auth/signin")).html;
    expect(light).toContain('<meta name="color-scheme" content="light">');
    const auto = (await page(credentialsConfig(), "/auth/signin")).html;
    expect(auto).toContain('<meta name="color-scheme" content="light dark">');
    expect(auto).toContain("prefers-color-scheme: dark");
  });

  it("hostile theme values are dropped, not injected", async () => {
    const config = credentialsConfig({
      theme: {
        brandColor: "red;}</style><script>alert(1)</script>",
        buttonText: "url(https://evil.com/x)",
        logo: "javascript:alert(1)",
      },
    });
    const { html } = await page(config, "/auth/signin");
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("evil.com");
    expect(html).not.toMatch(/<img class="logo"/);
    expectNoExternalResources(html);
  });

  it("a provider name with markup is escaped", async () => {
    const name = "<img src=x onerror=alert(1)>";
    const config = credentialsConfig({
      providers: [Credentials({ name, credentials: { username: { label: "<b>User</b>" } }, authorize: () => null })],
    });
    const { response, html } = await page(config, "/auth/signin");
    expect(response.status).toBe(200);
    expect(html).not.toContain(name);
    expect(html).not.toMatch(/<img src=x/i);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<b>User</b>");
    expect(html).toContain("&lt;b&gt;User&lt;/b&gt;");
  });

  it("credential field attributes that could script or redirect the form are not passed through", async () => {
    const config = credentialsConfig({
      providers: [
        Credentials({
          credentials: {
            username: { label: "User", onfocus: "alert(1)", formaction: "https://evil.com", type: "image", src: "https://evil.com/x.png" },
          },
          authorize: () => null,
        }),
      ],
    });
    const { html } = await page(config, "/auth/signin");
    expect(html).not.toMatch(/onfocus|formaction/i);
    expect(html).not.toContain("evil.com");
    expect(html).toMatch(/name="username" type="text"/);
  });

  it("one form per provider", async () => {
    const config = credentialsConfig({
      providers: [
        Credentials({ id: "password", name: "Password", authorize: () => null }),
        Credentials({ id: "pin", name: "PIN", credentials: { pin: { label: "PIN" } }, authorize: () => null }),
      ],
    });
    const { html } = await page(config, "/auth/signin");
    const actions = [...html.matchAll(/<form[^>]*action="([^"]*)"/g)].map((m) => new URL(m[1]!).pathname);
    expect(actions).toEqual(["/auth/callback/password", "/auth/callback/pin"]);
    expect(html).toContain("Sign in with Password");
    expect(html).toContain("Sign in with PIN");
  });

  it("pages.signIn → redirects to the app's page with the callbackUrl", async () => {
    const config = credentialsConfig({ pages: { signIn: "/login" } });
    const plain = await call(config, "/auth/signin");
    expect(plain.status).toBe(302);
    const location = locationOf(plain);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("callbackUrl")).toBe(ORIGIN);

    const withCallback = locationOf(await call(config, "/auth/signin?callbackUrl=%2Fdashboard"));
    expect(withCallback.pathname).toBe("/login");
    expect(withCallback.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);

    const withError = locationOf(await call(config, "/auth/signin?error=CredentialsSignin&code=credentials"));
    expect(withError.searchParams.get("error")).toBe("CredentialsSignin");
    expect(withError.searchParams.get("code")).toBe("credentials");
  });
});

describe("GET /auth/signout page", () => {
  it("is a themed, script-free page with the CSRF form", async () => {
    const config = credentialsConfig({ theme: { logo: LOGO, colorScheme: "dark" } });
    const { response, html } = await page(config, "/auth/signout");
    expect(response.status).toBe(200);
    expectPageHeaders(response);
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).toMatch(/name="csrfToken"/);
    expect(html).toContain('<meta name="color-scheme" content="dark">');
    expectNoExternalResources(html, [LOGO]);
  });
});

describe("GET /auth/error", () => {
  it.each([
    ["Configuration", 500, "There is a problem with the server configuration."],
    ["AccessDenied", 403, "You do not have permission to sign in."],
    ["Verification", 403, "The sign in link is no longer valid."],
    ["Unknown", 400, "Something went wrong."],
  ])("?error=%s → %i with its message", async (error, status, message) => {
    const { response, html } = await page(credentialsConfig(), `/auth/error?error=${error}`);
    expect(response.status).toBe(status);
    expectPageHeaders(response);
    expect(html).toContain(message);
    expectNoExternalResources(html);
  });

  it("without an error parameter → 400 generic page", async () => {
    const { response, html } = await page(credentialsConfig(), "/auth/error");
    expect(response.status).toBe(400);
    expect(html).toContain("Something went wrong.");
  });

  it("AccessDenied links back to the sign-in page", async () => {
    const { html } = await page(credentialsConfig(), "/auth/error?error=AccessDenied");
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs).toContain(`${ORIGIN}/auth/signin`);
  });

  it.each(["<script>alert(1)</script>", "__proto__", "constructor", "toString"])(
    "?error=%s is never reflected, generic 400",
    async (error) => {
      const { response, html } = await page(credentialsConfig(), `/auth/error?error=${encodeURIComponent(error)}`);
      expect(response.status).toBe(400);
      expect(html).not.toMatch(/<script/i);
      expect(html).toContain("Something went wrong.");
    },
  );

  it("pages.error → redirect with the error parameter", async () => {
    const response = await call(credentialsConfig({ pages: { error: "/oops" } }), "/auth/error?error=AccessDenied");
    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/oops");
    expect(location.searchParams.get("error")).toBe("AccessDenied");
  });
});

describe("GET /auth/verify-request", () => {
  it("200 page", async () => {
    const { response, html } = await page(credentialsConfig(), "/auth/verify-request");
    expect(response.status).toBe(200);
    expectPageHeaders(response);
    expect(html).toContain("Check your email");
    expect(html).toContain("localhost:3000");
    expectNoExternalResources(html);
  });

  it("pages.verifyRequest → redirect", async () => {
    const response = await call(credentialsConfig({ pages: { verifyRequest: "/check-email" } }), "/auth/verify-request");
    expect(response.status).toBe(302);
    const location = locationOf(response);
    expect(location.origin).toBe(ORIGIN);
    expect(location.pathname).toBe("/check-email");
  });
});

describe("pages config", () => {
  it.each([
    ["//evil.com"],
    // Browsers read a backslash in a URL's path as a slash: "/\\evil.example" goes to //evil.example.
    ["/\\evil.example/login"],
    ["\\\\evil.example"],
    ["/login\\..\\..\\x"],
    ["/\tlogin"],
    ["/login\u0000"],
    ["https://evil.example\\@app.example.com/login"],
    ["javascript:alert(1)"],
  ])("an unsafe pages value %j is a configuration error, not an open redirect", async (value) => {
    const logs = captureLogger();
    const response = await call(credentialsConfig({ pages: { signIn: value }, logger: logs.logger }), "/auth/signin");
    expect(response.status).toBe(500);
    expect(response.headers.get("location")).toBeNull();
    expect(logs.errors.map((e) => e.message).join("\n")).toContain(`pages.signIn is ${JSON.stringify(value)}`);
  });

  it.each([["/login"], ["/auth/sign-in?from=app"], ["https://accounts.example.com/login"]])("a safe pages value %j is used", async (value) => {
    const response = await call(credentialsConfig({ pages: { signIn: value } }), "/auth/signin");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain(value.startsWith("/") ? `${ORIGIN}${value.split("?")[0]}` : value);
  });
});
