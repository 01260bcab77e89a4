import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  renderErrorPage,
  renderForgotPasswordPage,
  renderResetPasswordPage,
  renderSignInPage,
  renderSignOutPage,
  renderSignUpPage,
  renderVerifyRequestPage,
  type PageTheme,
  type SignInPageProvider,
} from "../../runtime/src/pages/index.js";

const theme: PageTheme = { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" };

const github: SignInPageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: "http://localhost/auth/signin/github",
  callbackUrl: "http://localhost/auth/callback/github",
};
const email: SignInPageProvider = {
  id: "resend",
  name: "Email",
  type: "email",
  signinUrl: "http://localhost/auth/signin/resend",
  callbackUrl: "http://localhost/auth/callback/resend",
};
const credentials: SignInPageProvider = {
  id: "credentials",
  name: "Credentials",
  type: "credentials",
  signinUrl: "http://localhost/auth/signin/credentials",
  callbackUrl: "http://localhost/auth/callback/credentials",
  credentials: {
    username: { label: "Username", placeholder: "jsmith", required: true },
    password: { type: "password" },
  },
};

function signIn(extra: Partial<Parameters<typeof renderSignInPage>[0]> = {}): string {
  return renderSignInPage({
    providers: [github, email, credentials],
    csrfToken: "tok123",
    callbackUrl: "http://localhost/dashboard",
    theme,
    ...extra,
  });
}

/** Every form element as its full source, to make assertions per form. */
function forms(html: string): string[] {
  return html.match(/<form[\s\S]*?<\/form>/g) ?? [];
}

/** Every absolute http(s) URL referenced anywhere in the document. */
function absoluteUrls(html: string): string[] {
  return html.match(/https?:\/\/[^\s"'<>)]+/g) ?? [];
}

describe("escapeHtml", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("renders null and undefined as empty and stringifies the rest", () => {
    expect(escapeHtml(undefined)).toBe("");
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(42)).toBe("42");
    expect(escapeHtml(Object.create(null))).toBe("");
  });
});

describe("document shell", () => {
  it("is a complete, accessible document without scripts or external resources", () => {
    const pages = [
      signIn(),
      renderSignOutPage({ csrfToken: "t", callbackUrl: "/", signoutUrl: "http://localhost/auth/signout", theme }),
      renderErrorPage({ signinUrl: "http://localhost/auth/signin", homeUrl: "http://localhost/", theme }).html,
      renderVerifyRequestPage({ host: "localhost", homeUrl: "http://localhost/", theme }),
      renderVerifyRequestPage({ host: "localhost", homeUrl: "http://localhost/", theme, kind: "sign-up" }),
      renderSignUpPage({
        action: "http://localhost/auth/signup",
        callbackUrl: "http://localhost/dashboard",
        signInUrl: "http://localhost/auth/signin",
        minPasswordLength: 8,
        maxPasswordLength: 128,
        theme,
      }),
      renderForgotPasswordPage({
        action: "http://localhost/auth/forgot-password",
        callbackUrl: "http://localhost/dashboard",
        signInUrl: "http://localhost/auth/signin",
        theme,
      }),
      renderResetPasswordPage({
        action: "http://localhost/auth/reset-password",
        callbackUrl: "http://localhost/dashboard",
        email: "ada@example.com",
        token: "t",
        minPasswordLength: 8,
        maxPasswordLength: 128,
        theme,
      }),
    ];
    const passedIn = new Set([
      "http://localhost/auth/signin/github",
      "http://localhost/auth/signin/resend",
      "http://localhost/auth/callback/credentials",
      "http://localhost/dashboard",
      "http://localhost/auth/signout",
      "http://localhost/auth/signin",
      "http://localhost/",
      "http://localhost/auth/signup",
      "http://localhost/auth/forgot-password",
      "http://localhost/auth/reset-password",
    ]);
    for (const html of pages) {
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<meta charset="utf-8">');
      expect(html).toContain('<meta name="viewport"');
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).toContain("<main>");
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<link/i);
      expect(html).not.toMatch(/@import|url\(/i);
      for (const url of absoluteUrls(html)) expect(passedIn).toContain(url);
    }
  });

  it("follows prefers-color-scheme only for the auto scheme", () => {
    expect(signIn()).toContain("@media (prefers-color-scheme: dark)");
    const dark = signIn({ theme: { ...theme, colorScheme: "dark" } });
    expect(dark).not.toContain("prefers-color-scheme");
    expect(dark).toContain("color-scheme: dark;");
    const light = signIn({ theme: { ...theme, colorScheme: "light" } });
    expect(light).not.toContain("prefers-color-scheme");
    expect(light).toContain("color-scheme: light;");
  });

  it("uses valid brand and button text colors", () => {
    for (const color of ["#abc", "#a1b2c3", "#a1b2c3d4", "rgb(10, 20, 30)", "hsl(120, 50%, 40.5%)", "rebeccapurple"]) {
      expect(signIn({ theme: { ...theme, brandColor: color } })).toContain(`--brand: ${color};`);
    }
    expect(signIn({ theme: { ...theme, buttonText: "#000" } })).toContain("--button-text: #000;");
  });

  it("ignores brand colors that could break out of the CSS", () => {
    for (const color of [
      "red;}</style><script>alert(1)</script>",
      "red; background: url(http://evil.example/x)",
      "rgb(1,2,3);}",
      "expression(alert(1))",
      "#12345g",
    ]) {
      const html = signIn({ theme: { ...theme, brandColor: color, buttonText: color } });
      expect(html).not.toContain(color);
      expect(html).not.toContain("</style><script");
      expect(html).not.toContain("evil.example");
      expect(html).toContain("--brand: #2f5fd0;");
      expect(html).toContain("--button-text: #ffffff;");
    }
  });

  it("shows only http(s) and data:image logos", () => {
    const https = signIn({ theme: { ...theme, logo: "https://cdn.example.com/logo.png" } });
    expect(https).toContain('<img class="logo" src="https://cdn.example.com/logo.png" alt="">');
    const data = signIn({ theme: { ...theme, logo: "data:image/png;base64,iVBORw0KGgo=" } });
    expect(data).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    for (const logo of ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "data:text/html,<script>", "/logo.png"]) {
      const html = signIn({ theme: { ...theme, logo } });
      expect(html).not.toContain("<img");
      expect(html).not.toMatch(/javascript:/i);
    }
  });

  it("escapes quotes in the logo URL", () => {
    const html = signIn({ theme: { ...theme, logo: `https://example.com/a.png" onerror="alert(1)` } });
    expect(html).toContain('src="https://example.com/a.png&quot; onerror=&quot;alert(1)"');
    expect(html).not.toContain('" onerror="');
  });
});

describe("renderSignInPage", () => {
  it("renders one form per provider with the right action and button", () => {
    const [oauthForm, emailForm, credentialsForm, ...rest] = forms(signIn());
    expect(rest).toHaveLength(0);
    expect(oauthForm).toContain('action="http://localhost/auth/signin/github" method="post"');
    expect(oauthForm).toContain(">Sign in with GitHub</button>");
    expect(oauthForm).not.toContain("<input type=\"email\"");
    expect(emailForm).toContain('action="http://localhost/auth/signin/resend" method="post"');
    expect(emailForm).toMatch(/<input id="input-resend-email" name="email" type="email"[^>]* autocomplete="email" required>/);
    expect(emailForm).toContain('<label for="input-resend-email">Email</label>');
    expect(emailForm).toContain(">Sign in with Email</button>");
    expect(credentialsForm).toContain('action="http://localhost/auth/callback/credentials" method="post"');
    expect(credentialsForm).toContain(">Sign in with Credentials</button>");
  });

  it("renders credentials inputs with labels, types, placeholders and autocomplete", () => {
    const form = forms(signIn())[2] ?? "";
    expect(form).toContain('<label for="input-credentials-username">Username</label>');
    expect(form).toContain('<input id="input-credentials-username" name="username" type="text" placeholder="jsmith" required>');
    // The key is the label when none is given; password fields get current-password.
    expect(form).toContain('<label for="input-credentials-password">password</label>');
    expect(form).toContain('<input id="input-credentials-password" name="password" type="password" autocomplete="current-password">');
  });

  it("keeps an explicit autocomplete, passes safe attributes and drops unsafe ones", () => {
    const html = signIn({
      providers: [
        {
          ...credentials,
          credentials: {
            code: { label: "Code", type: "text", autocomplete: "one-time-code", maxlength: 6, inputmode: "numeric", onfocus: "alert(1)", formaction: "http://evil.example/" },
            secret: { type: "password", autocomplete: "new-password" },
            weird: { type: "image", src: "http://evil.example/x.png" },
          },
        },
      ],
    });
    expect(html).toContain('name="code" type="text" autocomplete="one-time-code" maxlength="6" inputmode="numeric">');
    expect(html).toContain('name="secret" type="password" autocomplete="new-password">');
    expect(html).toContain('name="weird" type="text">');
    expect(html).not.toContain("onfocus");
    expect(html).not.toContain("evil.example");
  });

  it("includes the csrfToken and callbackUrl hidden inputs in every form", () => {
    for (const form of forms(signIn())) {
      expect(form).toContain('<input type="hidden" name="csrfToken" value="tok123">');
      expect(form).toContain('<input type="hidden" name="callbackUrl" value="http://localhost/dashboard">');
    }
    for (const form of forms(signIn({ csrfToken: undefined }))) {
      expect(form).not.toContain('name="csrfToken"');
      expect(form).toContain('name="callbackUrl"');
    }
  });

  it("escapes provider names, ids, labels, placeholders, csrfToken and callbackUrl", () => {
    const xss = "<script>alert(1)</script>";
    const html = signIn({
      providers: [
        { ...github, name: xss },
        {
          ...credentials,
          id: `c"><b>`,
          name: xss,
          credentials: { [`u"><i>`]: { label: xss, placeholder: `"><img src=x onerror=alert(1)>` } },
        },
      ],
      csrfToken: `a"b'c<d>`,
      callbackUrl: `http://localhost/?x="><script>alert(1)</script>`,
    });
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).not.toContain("<i>");
    expect(html).toContain("Sign in with &lt;script&gt;alert(1)&lt;/script&gt;</button>");
    expect(html).toContain('name="csrfToken" value="a&quot;b&#39;c&lt;d&gt;"');
    expect(html).toContain('name="callbackUrl" value="http://localhost/?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('name="u&quot;&gt;&lt;i&gt;"');
    expect(html).toContain('placeholder="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    // ids only ever contain safe characters, and labels still point at their inputs.
    const ids = [...html.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(1);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(html).toContain(`<label for="${id}">`);
    }
  });

  it("replaces non-http(s) form actions with #", () => {
    const html = signIn({
      providers: [
        { ...github, signinUrl: "javascript:alert(1)" },
        { ...credentials, callbackUrl: "  JAVASCRIPT:alert(1)" },
        { ...email, signinUrl: "/auth/signin/resend" },
      ],
    });
    expect(html).not.toMatch(/javascript:/i);
    const [a, b, c] = forms(html);
    expect(a).toContain('action="#"');
    expect(b).toContain('action="#"');
    expect(c).toContain('action="/auth/signin/resend"');
  });

  it("separates provider groups with 'or' and stacks consecutive buttons", () => {
    const google = { ...github, id: "google", name: "Google", signinUrl: "http://localhost/auth/signin/google" };
    const html = signIn({ providers: [github, google, email, credentials] });
    expect(html.match(/class="separator"/g)).toHaveLength(2);
    expect(signIn({ providers: [github, google] })).not.toContain('class="separator"');
  });

  const errors: [string, string][] = Object.entries({
    Signin: "Try signing in with a different account.",
    OAuthSignin: "Try signing in with a different account.",
    OAuthCallbackError: "Try signing in with a different account.",
    OAuthCreateAccount: "Try signing in with a different account.",
    EmailCreateAccount: "Try signing in with a different account.",
    Callback: "Try signing in with a different account.",
    OAuthAccountNotLinked: "To confirm your identity, sign in with the same account you used originally.",
    EmailSignin: "The sign-in email could not be sent. Check the address and try again.",
    CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
    SessionRequired: "Please sign in to access this page.",
    MissingCSRF: "The form has expired or was sent from another site. Please try again.",
    Default: "Unable to sign in.",
    constructor: "Unable to sign in.",
    "<script>alert(1)</script>": "Unable to sign in.",
  });
  // A literal __proto__ key would set the prototype, so add it as a real entry.
  errors.push(["__proto__", "Unable to sign in."]);
  for (const [error, message] of errors) {
    it(`shows the message for error=${error}`, () => {
      const html = signIn({ error, code: `<b>code"</b>` });
      expect(html).toContain(`<div class="alert" role="alert"><p>${message}</p></div>`);
      expect(html).not.toContain("<script");
      expect(html).not.toContain("code");
    });
  }

  it("shows no alert without an error", () => {
    expect(signIn()).not.toContain('role="alert"');
  });
});

describe("renderSignOutPage", () => {
  it("asks for confirmation and posts to the sign-out URL", () => {
    const html = renderSignOutPage({
      csrfToken: `x"y`,
      callbackUrl: "http://localhost/after",
      signoutUrl: "http://localhost/auth/signout",
      theme,
    });
    expect(html).toContain("Are you sure you want to sign out?");
    const [form, ...rest] = forms(html);
    expect(rest).toHaveLength(0);
    expect(form).toContain('action="http://localhost/auth/signout" method="post"');
    expect(form).toContain('<input type="hidden" name="csrfToken" value="x&quot;y">');
    expect(form).toContain('<input type="hidden" name="callbackUrl" value="http://localhost/after">');
    expect(form).toContain('<button type="submit">Sign out</button>');
  });
});

describe("renderErrorPage", () => {
  const base = { signinUrl: "http://localhost/auth/signin", homeUrl: "http://localhost/", theme };

  it.each([
    ["Configuration", 500, "Server error", "There is a problem with the server configuration. Check the server logs for more information."],
    ["AccessDenied", 403, "Access Denied", "You do not have permission to sign in."],
    ["Verification", 403, "Unable to sign in", "The sign in link is no longer valid. It may have been used already or it may have expired."],
    ["WebAuthnVerificationError", 400, "Unable to sign in", "The passkey could not be verified. Try again, or sign in another way."],
    ["ServerError", 500, "Something went wrong", "The server could not finish what you asked. Please try again in a moment."],
    ["UnknownAction", 400, "This link does not work", "The address names a sign-in page or sign-in method this site does not have."],
    ["InvalidRequest", 400, "Unable to sign in", "The request could not be read."],
    [undefined, 400, "Error", "Something went wrong."],
    ["Default", 400, "Error", "Something went wrong."],
    ["toString", 400, "Error", "Something went wrong."],
  ])("maps error=%s to %i", (error, status, heading, message) => {
    const { status: got, html } = renderErrorPage({ ...base, error });
    expect(got).toBe(status);
    expect(html).toContain(`<h1>${heading}</h1>`);
    expect(html).toContain(`<title>${heading}</title>`);
    expect(html).toContain(message);
  });

  it("links to sign in after a failed verification and home by default", () => {
    expect(renderErrorPage({ ...base, error: "Verification" }).html).toContain(
      '<a class="button" href="http://localhost/auth/signin">Sign in</a>',
    );
    expect(renderErrorPage({ ...base, error: "Unknown" }).html).toContain('href="http://localhost/"');
  });

  it("never echoes an unknown error value", () => {
    const { status, html } = renderErrorPage({ ...base, error: "<script>alert(1)</script>" });
    expect(status).toBe(400);
    expect(html).not.toContain("alert(1)");
    expect(html).not.toContain("&lt;script");
  });

  it("replaces javascript: links with #", () => {
    const { html } = renderErrorPage({ ...base, error: "Verification", signinUrl: "javascript:alert(1)" });
    expect(html).toContain('href="#"');
    expect(html).not.toContain("javascript:");
  });
});

describe("renderVerifyRequestPage", () => {
  it("tells the user to check their email and links home", () => {
    const html = renderVerifyRequestPage({ host: "example.com", homeUrl: "https://example.com/", theme });
    expect(html).toContain("<h1>Check your email</h1>");
    expect(html).toContain("A sign in link has been sent to your email address.");
    expect(html).toContain('<a href="https://example.com/">example.com</a>');
  });

  const SIGN_IN_TEXT = "A sign in link has been sent to your email address.";
  const SIGN_UP_TEXT =
    "We sent a link to confirm your address. Open it and enter your password to finish; until then the password does not sign in.";
  const RESET_TEXT =
    "If an account uses this address, we sent it a link to choose a new password. The link works for one hour.";

  it.each([
    [undefined, SIGN_IN_TEXT],
    ["sign-in", SIGN_IN_TEXT],
    ["sign-up", SIGN_UP_TEXT],
    ["password-reset", RESET_TEXT],
    // From JavaScript callers: anything else reads as sign-in.
    ["__proto__", SIGN_IN_TEXT],
    ["<b>", SIGN_IN_TEXT],
  ])("says what was sent for kind=%s", (kind, text) => {
    const html = renderVerifyRequestPage({
      host: "example.com",
      homeUrl: "https://example.com/",
      theme,
      kind: kind as "sign-in" | undefined,
    });
    expect(html).toContain("<h1>Check your email</h1>");
    expect(html).toContain(`<p class="message">${text}</p>`);
    for (const other of [SIGN_IN_TEXT, SIGN_UP_TEXT, RESET_TEXT].filter((t) => t !== text)) {
      expect(html).not.toContain(other);
    }
    expect(html).not.toContain("<b>");
    expect(html).toContain('<a href="https://example.com/">example.com</a>');
  });

  it("escapes the host", () => {
    const html = renderVerifyRequestPage({ host: `<img src=x onerror="alert(1)">`, homeUrl: "/", theme });
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});
