/**
 * The Password provider's built-in pages (sign-up, forgot password, reset
 * password) and what it adds to the sign-in page: plain POST forms with the
 * right fields, values from requests escaped, error codes mapped to fixed text
 * (never echoed) and no scripts.
 */
import { describe, expect, it } from "vitest";
import {
  renderForgotPasswordPage,
  renderResetPasswordPage,
  renderSignInPage,
  renderSignUpPage,
  type ForgotPasswordPageParams,
  type PageTheme,
  type ResetPasswordPageParams,
  type SignInPageParams,
  type SignInPageProvider,
  type SignUpPageParams,
} from "../../runtime/src/pages/index.js";

const theme: PageTheme = { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" };
const HOSTILE = `"><script>alert(1)</script>&`;
const HOSTILE_ESCAPED = "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;";

function signUp(extra: Partial<SignUpPageParams> = {}): string {
  return renderSignUpPage({
    action: "http://localhost/auth/signup",
    csrfToken: "tok123",
    callbackUrl: "http://localhost/dashboard",
    signInUrl: "http://localhost/auth/signin",
    minPasswordLength: 8,
    maxPasswordLength: 128,
    theme,
    ...extra,
  });
}

function forgotPassword(extra: Partial<ForgotPasswordPageParams> = {}): string {
  return renderForgotPasswordPage({
    action: "http://localhost/auth/forgot-password",
    csrfToken: "tok123",
    callbackUrl: "http://localhost/dashboard",
    signInUrl: "http://localhost/auth/signin",
    theme,
    ...extra,
  });
}

function resetPassword(extra: Partial<ResetPasswordPageParams> = {}): string {
  return renderResetPasswordPage({
    action: "http://localhost/auth/reset-password",
    csrfToken: "tok123",
    callbackUrl: "http://localhost/dashboard",
    email: "ada@example.com",
    token: "reset-token",
    minPasswordLength: 8,
    maxPasswordLength: 128,
    theme,
    ...extra,
  });
}

const password: SignInPageProvider = {
  id: "password",
  name: "Password",
  type: "credentials",
  signinUrl: "http://localhost/auth/signin/password",
  callbackUrl: "http://localhost/auth/callback/password",
  credentials: {
    email: { label: "Email", type: "email", autocomplete: "username", required: true },
    password: { label: "Password", type: "password", required: true },
  },
  password: {
    signUpUrl: "http://localhost/auth/signup",
    forgotPasswordUrl: "http://localhost/auth/forgot-password",
  },
};
const credentials: SignInPageProvider = {
  id: "credentials",
  name: "Credentials",
  type: "credentials",
  signinUrl: "http://localhost/auth/signin/credentials",
  callbackUrl: "http://localhost/auth/callback/credentials",
  credentials: { email: { label: "Email" }, password: { type: "password" } },
};
const github: SignInPageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: "http://localhost/auth/signin/github",
  callbackUrl: "http://localhost/auth/callback/github",
};

function signIn(extra: Partial<SignInPageParams> = {}): string {
  return renderSignInPage({
    providers: [github, password],
    csrfToken: "tok123",
    callbackUrl: "http://localhost/dashboard",
    theme,
    ...extra,
  });
}

function forms(html: string): string[] {
  return html.match(/<form[\s\S]*?<\/form>/g) ?? [];
}

/** The one form of a page that has exactly one. */
function onlyForm(html: string): string {
  const all = forms(html);
  expect(all).toHaveLength(1);
  return all[0] ?? "";
}

/** The first input named `name`, as its full tag. */
function input(html: string, name: string): string {
  return new RegExp(`<input [^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";
}

function alertText(html: string): string | undefined {
  return /<div class="alert" role="alert"><p>([^<]*)<\/p><\/div>/.exec(html)?.[1];
}

const pages = {
  signUp: () => signUp(),
  forgotPassword: () => forgotPassword(),
  resetPassword: () => resetPassword(),
};

describe("the password pages' document", () => {
  for (const [name, render] of Object.entries(pages)) {
    it(`${name}: a complete page without scripts, external resources or inline handlers`, () => {
      const html = render();
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<link/i);
      expect(html).not.toMatch(/@import|url\(/i);
      expect(html).not.toMatch(/\son[a-z]+=/i);
    });

    it(`${name}: one POST form with the csrfToken and callbackUrl, escaped`, () => {
      const form = onlyForm(render());
      expect(form).toMatch(/^<form action="http:\/\/localhost\/auth\/[a-z-]+" method="post">/);
      expect(form).toContain('<input type="hidden" name="csrfToken" value="tok123">');
      expect(form).toContain('<input type="hidden" name="callbackUrl" value="http://localhost/dashboard">');
    });
  }

  it("escapes the csrfToken and callbackUrl and leaves csrfToken out when there is none", () => {
    const hostile = { csrfToken: HOSTILE, callbackUrl: `http://localhost/?x=${HOSTILE}` };
    for (const html of [signUp(hostile), forgotPassword(hostile), resetPassword(hostile)]) {
      expect(html).not.toContain("<script");
      expect(html).toContain(`name="csrfToken" value="${HOSTILE_ESCAPED}"`);
      expect(html).toContain(`name="callbackUrl" value="http://localhost/?x=${HOSTILE_ESCAPED}"`);
    }
    for (const html of [signUp({ csrfToken: undefined }), forgotPassword({ csrfToken: undefined }), resetPassword({ csrfToken: undefined })]) {
      expect(html).not.toContain('name="csrfToken"');
    }
  });

  it("replaces non-http(s) actions and links with #", () => {
    const bad = { action: "javascript:alert(1)", signInUrl: " JAVASCRIPT:alert(1)" };
    for (const html of [signUp(bad), forgotPassword(bad), resetPassword(bad)]) {
      expect(html).not.toMatch(/javascript:/i);
      expect(html).toContain('<form action="#" method="post">');
    }
  });

  it("names the page on <body>", () => {
    expect(signUp()).toContain('<body class="page-signup">');
    expect(forgotPassword()).toContain('<body class="page-forgot-password">');
    expect(resetPassword()).toContain('<body class="page-reset-password">');
  });
});

describe("renderSignUpPage", () => {
  it("asks for a name, an email and a new password", () => {
    const html = signUp();
    expect(html).toContain("<title>Create an account</title>");
    expect(html).toContain("<h1>Create an account</h1>");
    const form = onlyForm(html);
    expect(form).toContain('action="http://localhost/auth/signup" method="post"');
    expect(form).toContain('<label for="signup-name">Name (optional)</label>');
    expect(input(form, "name")).toBe('<input id="signup-name" name="name" type="text" autocomplete="name">');
    expect(form).toContain('<label for="signup-email">Email</label>');
    expect(input(form, "email")).toBe('<input id="signup-email" name="email" type="email" autocomplete="username" required>');
    expect(form).toContain('<label for="signup-password">Password</label>');
    expect(input(form, "password")).toBe(
      '<input id="signup-password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>',
    );
    expect(form).toContain('<button type="submit">Create account</button>');
  });

  it("says the password works once the address is confirmed and links to sign in", () => {
    const html = signUp();
    expect(html).toContain(
      "We will email you a link to confirm your address; your password works once it is confirmed.",
    );
    expect(html).toContain('<a href="http://localhost/auth/signin">Already have an account? Sign in</a>');
  });

  it("pre-fills the email, escaped", () => {
    expect(input(signUp({ email: "ada@example.com" }), "email")).toContain('value="ada@example.com"');
    const html = signUp({ email: HOSTILE });
    expect(html).not.toContain("<script");
    expect(input(html, "email")).toContain(`value="${HOSTILE_ESCAPED}"`);
  });

  it("leaves out length limits that are not whole numbers", () => {
    const html = signUp({ minPasswordLength: Number.NaN, maxPasswordLength: 1.5 });
    expect(input(html, "password")).not.toMatch(/minlength|maxlength/);
  });

  const codes: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ["", undefined],
    ["invalid-email", "Enter a valid email address."],
    ["invalid-name", "Use letters, digits, spaces and punctuation only."],
    ["short-password", "Choose a password of at least 10 characters."],
    ["long-password", "Choose a password of at most 64 characters."],
    ["CredentialsSignin", "Could not create the account. Try again."],
    ["constructor", "Could not create the account. Try again."],
    ["__proto__", "Could not create the account. Try again."],
    [HOSTILE, "Could not create the account. Try again."],
  ];
  for (const [code, message] of codes) {
    it(`shows ${message === undefined ? "no alert" : "a fixed message"} for code=${code}`, () => {
      const html = signUp({ code, minPasswordLength: 10, maxPasswordLength: 64 });
      expect(alertText(html)).toBe(message);
      if (code) expectNotEchoed(html, code);
    });
  }
});

describe("renderForgotPasswordPage", () => {
  it("asks for the account's address", () => {
    const html = forgotPassword();
    expect(html).toContain("<title>Reset your password</title>");
    expect(html).toContain("<h1>Reset your password</h1>");
    expect(html).toContain(
      "Enter the address of your account and we will email you a link to choose a new password. The link works for one hour.",
    );
    const form = onlyForm(html);
    expect(form).toContain('action="http://localhost/auth/forgot-password" method="post"');
    expect(input(form, "email")).toBe(
      '<input id="forgot-password-email" name="email" type="email" autocomplete="username" required>',
    );
    expect(form.match(/<input /g)).toHaveLength(3);
    expect(form).toContain('<button type="submit">Email me a reset link</button>');
    expect(html).toContain('<a href="http://localhost/auth/signin">');
  });

  const codes: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ["invalid-email", "Enter a valid email address."],
    ["invalid-link", "That reset link has expired or was already used. Ask for a new one below."],
    ["short-password", "Could not send a reset link. Try again."],
    ["toString", "Could not send a reset link. Try again."],
    ["__proto__", "Could not send a reset link. Try again."],
    [HOSTILE, "Could not send a reset link. Try again."],
  ];
  for (const [code, message] of codes) {
    it(`shows ${message === undefined ? "no alert" : "a fixed message"} for code=${code}`, () => {
      const html = forgotPassword({ code });
      expect(alertText(html)).toBe(message);
      if (code) expectNotEchoed(html, code);
    });
  }
});

describe("renderResetPasswordPage", () => {
  it("posts the address and token back with one new password", () => {
    const html = resetPassword();
    expect(html).toContain("<title>Choose a new password</title>");
    expect(html).toContain("<h1>Choose a new password</h1>");
    const form = onlyForm(html);
    expect(form).toContain('action="http://localhost/auth/reset-password" method="post"');
    expect(form).toContain('<input type="hidden" name="email" value="ada@example.com">');
    expect(form).toContain('<input type="hidden" name="token" value="reset-token">');
    expect(input(form, "password")).toBe(
      '<input id="reset-password-password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required>',
    );
    expect(form).toContain('<label for="reset-password-password">New password</label>');
    expect(form.match(/type="password"/g)).toHaveLength(1);
    expect(form).toContain('<button type="submit">Set new password</button>');
    expect(html).toContain("Setting a new password signs you out everywhere else.");
  });

  it("shows the address read-only, without posting it twice", () => {
    const form = onlyForm(resetPassword());
    expect(form).toContain(
      '<input id="reset-password-email" type="email" value="ada@example.com" autocomplete="username" readonly>',
    );
    expect(form.match(/name="email"/g)).toHaveLength(1);
  });

  it("escapes the email and the token", () => {
    const html = resetPassword({ email: `a"<b>&@example.com`, token: `t"<>&'` });
    expect(html).not.toContain("<b>");
    expect(html).toContain('<input type="hidden" name="email" value="a&quot;&lt;b&gt;&amp;@example.com">');
    expect(html).toContain('<input type="hidden" name="token" value="t&quot;&lt;&gt;&amp;&#39;">');
    expect(html).toContain('value="a&quot;&lt;b&gt;&amp;@example.com" autocomplete="username" readonly>');
    const hostile = resetPassword({ email: HOSTILE, token: HOSTILE });
    expect(hostile).not.toContain("<script");
  });

  const codes: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ["short-password", "Choose a password of at least 12 characters."],
    ["long-password", "Choose a password of at most 72 characters."],
    ["invalid-email", "Could not set the password. Try again."],
    ["hasOwnProperty", "Could not set the password. Try again."],
    ["__proto__", "Could not set the password. Try again."],
    [HOSTILE, "Could not set the password. Try again."],
  ];
  for (const [code, message] of codes) {
    it(`shows ${message === undefined ? "no alert" : "a fixed message"} for code=${code}`, () => {
      const html = resetPassword({ code, minPasswordLength: 12, maxPasswordLength: 72 });
      expect(alertText(html)).toBe(message);
      if (code) expectNotEchoed(html, code);
    });
  }
});

describe("renderSignInPage with a Password provider", () => {
  it("links to the reset and sign-up pages under its form", () => {
    const html = signIn();
    const block = /<div class="provider provider-credentials">[\s\S]*?<\/div>/.exec(html)?.[0] ?? "";
    expect(block).toMatch(/<\/form>\n<p class="provider-links"><a href="http:\/\/localhost\/auth\/forgot-password">Forgot your password\?<\/a><\/p>/);
    expect(block).toContain('<p class="provider-links"><a href="http://localhost/auth/signup">No account yet? Create one</a></p>');
    expect(html).not.toMatch(/<script/i);
  });

  it("adds no links to other credentials providers", () => {
    const html = signIn({ providers: [credentials] });
    expect(html).not.toContain(`<p class="provider-links">`);
    expect(html).not.toContain("Forgot your password?");
  });

  it("replaces non-http(s) link URLs with #", () => {
    const html = signIn({
      providers: [{ ...password, password: { signUpUrl: "javascript:alert(1)", forgotPasswordUrl: "data:text/html,x" } }],
    });
    expect(html).not.toMatch(/javascript:|data:text/i);
    expect(html).toContain('<a href="#">Forgot your password?</a>');
    expect(html).toContain('<a href="#">No account yet? Create one</a>');
  });

  it("is not in confirm mode without confirm", () => {
    const html = signIn();
    expect(html).not.toContain('name="confirm"');
    expect(html).not.toContain("Enter your password to confirm your email address.");
    expect(input(html, "email")).not.toContain("value=");
  });

  describe("in confirm mode", () => {
    const confirm = { email: "ada@example.com", token: "confirm-token" };

    it("posts the link's token and pre-fills the address in the Password form", () => {
      const html = signIn({ confirm });
      const [oauthForm, passwordForm, ...rest] = forms(html);
      expect(rest).toHaveLength(0);
      expect(passwordForm).toContain('action="http://localhost/auth/callback/password" method="post"');
      expect(passwordForm).toContain(
        '<input type="hidden" name="callbackUrl" value="http://localhost/dashboard">\n<input type="hidden" name="confirm" value="confirm-token">',
      );
      expect(input(passwordForm ?? "", "email")).toBe(
        '<input id="input-password-email" name="email" type="email" required autocomplete="username" value="ada@example.com">',
      );
      expect(input(passwordForm ?? "", "password")).not.toContain("value=");
      expect(oauthForm).not.toContain('name="confirm"');
    });

    it("says what to do, as a message above the form rather than an alert", () => {
      const html = signIn({ confirm });
      expect(html).toContain(
        '<div class="provider provider-credentials">\n<p class="message">Enter your password to confirm your email address.</p>\n<form ',
      );
      expect(html).not.toContain('role="alert"');
    });

    it("escapes the email and the token", () => {
      const html = signIn({ confirm: { email: `a"<b>&@example.com`, token: `t"<>&'` } });
      expect(html).not.toContain("<b>");
      expect(html).toContain('<input type="hidden" name="confirm" value="t&quot;&lt;&gt;&amp;&#39;">');
      expect(input(html, "email")).toContain('value="a&quot;&lt;b&gt;&amp;@example.com"');
      expect(signIn({ confirm: { email: HOSTILE, token: HOSTILE } })).not.toContain("<script");
    });

    it("leaves other credentials providers alone", () => {
      const html = signIn({ providers: [credentials, password], confirm });
      const [plain, withPassword] = forms(html);
      expect(plain).not.toContain('name="confirm"');
      expect(plain).not.toContain("ada@example.com");
      expect(withPassword).toContain('name="confirm"');
      expect(html.match(/Enter your password to confirm/g)).toHaveLength(1);
    });

    it("adds no value when the Password form has no email field", () => {
      const html = signIn({ providers: [{ ...password, credentials: { username: {}, password: { type: "password" } } }], confirm });
      expect(html).toContain('name="confirm" value="confirm-token"');
      expect(html).not.toContain("ada@example.com");
    });

    it("keeps the user's own email field attributes", () => {
      const html = signIn({
        providers: [{ ...password, credentials: { email: { label: "Work email", placeholder: "you@work", value: "other" } } }],
        confirm,
      });
      expect(html).toContain('<label for="input-password-email">Work email</label>');
      expect(input(html, "email")).toContain('placeholder="you@work"');
      expect(input(html, "email")).toContain('value="ada@example.com"');
      expect(input(html, "email")).not.toContain('value="other"');
    });
  });

  const credentialsCodes: [string | undefined, string | undefined][] = [
    ["unconfirmed", "Confirm your email address first: we have sent you a new link."],
    ["confirm-link-invalid", "That confirmation link has expired or was already used: we have sent you a new one."],
    ["password-reset", undefined],
    [undefined, "Sign in failed. Check the details you provided are correct."],
    ["wrong-password", "Sign in failed. Check the details you provided are correct."],
    ["__proto__", "Sign in failed. Check the details you provided are correct."],
    ["constructor", "Sign in failed. Check the details you provided are correct."],
    [HOSTILE, "Sign in failed. Check the details you provided are correct."],
  ];
  for (const [code, message] of credentialsCodes) {
    it(`error=CredentialsSignin, code=${code}: ${message === undefined ? "no alert" : "a fixed message"}`, () => {
      const html = signIn({ error: "CredentialsSignin", code });
      expect(alertText(html)).toBe(message);
      if (code) expectNotEchoed(html, code);
    });
  }

  it("uses the codes only for CredentialsSignin", () => {
    expect(alertText(signIn({ error: "MissingCSRF", code: "unconfirmed" }))).toBe(
      "The form has expired or was sent from another site. Please try again.",
    );
    expect(alertText(signIn({ error: "Nonsense", code: "password-reset" }))).toBe("Unable to sign in.");
    expect(alertText(signIn({ code: "unconfirmed" }))).toBeUndefined();
  });

  it("uses the codes only when a Password provider is on the page", () => {
    for (const code of ["unconfirmed", "confirm-link-invalid", "password-reset"]) {
      const html = signIn({ providers: [credentials], error: "CredentialsSignin", code });
      expect(alertText(html)).toBe("Sign in failed. Check the details you provided are correct.");
    }
  });
});

/** The code appears nowhere, neither as markup nor as escaped text. */
function expectNotEchoed(html: string, code: string): void {
  expect(html).not.toContain(code);
  expect(html).not.toContain(code.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"));
}
