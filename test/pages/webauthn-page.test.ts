/**
 * The passkey part of the built-in sign-in page: the form and its script appear
 * only with a WebAuthn provider, the CSP allows exactly that script (by hash)
 * and fetches to the page's own origin, nothing loads from elsewhere, and
 * config-derived text is escaped.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Passkey } from "@gatehouse/runtime/providers";
import { PAGE_HEADERS } from "../../runtime/src/core/http/pages-headers.js";
import {
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  type PageTheme,
  type SignInPageProvider,
} from "../../runtime/src/pages/index.js";
import { WEBAUTHN_FORM_SCRIPT } from "../../runtime/src/pages/webauthn-script.generated.js";
import { call, captureLogger, credentialsConfig, ORIGIN, SECRET } from "../helpers.js";

const theme: PageTheme = { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" };

const github: SignInPageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: "http://localhost/auth/signin/github",
  callbackUrl: "http://localhost/auth/callback/github",
};
const passkey: SignInPageProvider = {
  id: "passkey",
  name: "Passkey",
  type: "webauthn",
  signinUrl: "http://localhost/auth/signin/passkey",
  callbackUrl: "http://localhost/auth/callback/passkey",
  webauthnOptionsUrl: "http://localhost/auth/webauthn-options/passkey",
};
const credentials: SignInPageProvider = {
  id: "credentials",
  name: "Credentials",
  type: "credentials",
  signinUrl: "http://localhost/auth/signin/credentials",
  callbackUrl: "http://localhost/auth/callback/credentials",
  credentials: { username: { label: "Username" } },
};

function signIn(providers: SignInPageProvider[]): string {
  return renderSignInPage({ providers, csrfToken: "tok123", callbackUrl: "http://localhost/dashboard", theme });
}

function scripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => `${m[1]}|${m[2]}`);
}

/** The passkey block: its wrapper div through its form. */
function passkeyBlock(html: string): string {
  return /<div class="provider provider-webauthn"[\s\S]*?<\/form>\n<\/div>/.exec(html)?.[0] ?? "";
}

function sha256Source(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** A CSP as directive name -> its sources. */
function parseCsp(csp: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (csp ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

describe("sign-in page without a WebAuthn provider", () => {
  it("has no script and no passkey markup", () => {
    const html = signIn([github, credentials]);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain("data-webauthn");
    expect(html).not.toContain("data-requires-webauthn");
    expect(html).not.toContain("webauthn");
  });
});

describe("sign-in page with a WebAuthn provider", () => {
  it("renders the form: posts to callback/<id>, names the options URL, email field for passkey autofill", () => {
    const block = passkeyBlock(signIn([passkey]));
    expect(block).toContain(
      '<form action="http://localhost/auth/callback/passkey" method="post" data-webauthn-options="http://localhost/auth/webauthn-options/passkey" data-conditional-ui>',
    );
    expect(block).toContain('<input type="hidden" name="csrfToken" value="tok123">');
    expect(block).toContain('<input type="hidden" name="callbackUrl" value="http://localhost/dashboard">');
    expect(block).toContain('<label for="input-passkey-email">Email</label>');
    expect(block).toContain(
      '<input id="input-passkey-email" name="email" type="text" required autocomplete="username webauthn" data-form-field>',
    );
    expect(block).toContain('<button type="submit">Sign in with Passkey</button>');
    expect(block).toContain("<div class=\"webauthn-alert\" data-webauthn-alert></div>");
  });

  it("hides the form until the script finds WebAuthn, so the page without JavaScript stays usable", () => {
    const html = signIn([github, passkey, credentials]);
    expect(passkeyBlock(html)).toMatch(/^<div class="provider provider-webauthn" data-requires-webauthn hidden>/);
    // The CSS must let `hidden` win over display rules such as .separator's flex.
    expect(html).toContain("[hidden] { display: none !important; }");
    // Without JS: GitHub | credentials, one visible "or"; with JS: GitHub | passkey | credentials.
    const separators = html.match(/<div class="separator"[^>]*>/g) ?? [];
    expect(separators).toEqual(['<div class="separator" data-requires-webauthn hidden>', '<div class="separator">']);
  });

  it("hides a separator that would lead the page without JavaScript", () => {
    const separators = signIn([passkey, github]).match(/<div class="separator"[^>]*>/g) ?? [];
    expect(separators).toEqual(['<div class="separator" data-requires-webauthn hidden>']);
  });

  it("says why the page is empty when passkeys are the only way in and cannot work", () => {
    const html = signIn([passkey]);
    expect(html).toContain("<p class=\"message\" data-without-webauthn>Signing in with a passkey needs");
    expect(signIn([passkey, github])).not.toContain("<p class=\"message\" data-without-webauthn>");
  });

  it("leaves out passkey autofill when enableConditionalUI is false", () => {
    const block = passkeyBlock(signIn([{ ...passkey, enableConditionalUI: false }]));
    expect(block).toContain("data-webauthn-options=");
    expect(block).not.toContain("data-conditional-ui");
  });

  it("renders the provider's own formFields instead of the default", () => {
    const block = passkeyBlock(
      signIn([
        {
          ...passkey,
          formFields: {
            username: { label: "User name", autocomplete: "username webauthn", required: true },
            name: { label: "Display name", type: "text", onfocus: "alert(1)" },
          },
        },
      ]),
    );
    expect(block).not.toContain('name="email"');
    expect(block).toContain(
      '<input id="input-passkey-username" name="username" type="text" required autocomplete="username webauthn" data-form-field>',
    );
    expect(block).toContain('<input id="input-passkey-name" name="name" type="text" data-form-field>');
    expect(block).not.toContain("onfocus");
  });

  it("inlines the script once, at the end of the body: the SimpleWebAuthn bundle and the form script", () => {
    const html = signIn([github, passkey]);
    const found = scripts(html);
    expect(found).toEqual([`|${WEBAUTHN_FORM_SCRIPT}`]);
    expect(html).toMatch(/<\/main>\n<script>[\s\S]*<\/script>\n<\/body>/);
    expect(WEBAUTHN_FORM_SCRIPT).toMatch(/^\/\* \[@simplewebauthn\/browser@14\.\d+\.\d+\] \*\//);
    expect(WEBAUTHN_FORM_SCRIPT).toContain("SimpleWebAuthnBrowser");
  });

  it("embeds the current form script (run `npm run typecheck` in runtime/ if this fails)", () => {
    const source = readFileSync(new URL("../../runtime/src/pages/webauthn-form.browser.js", import.meta.url), "utf8");
    expect(WEBAUTHN_FORM_SCRIPT.endsWith(`\n${source}`)).toBe(true);
  });

  it("references nothing external: no src, href or stylesheet links", () => {
    const html = signIn([passkey]);
    expect(html).not.toMatch(/\s(?:src|href|srcset)\s*=/i);
    expect(html).not.toMatch(/<link|<iframe|<object|<embed|@import|import\(/i);
  });

  it("escapes the provider's name, field labels, keys and URLs", () => {
    const xss = `"><script>alert(1)</script>`;
    const html = signIn([
      {
        ...passkey,
        id: "pk",
        name: xss,
        webauthnOptionsUrl: `http://localhost/auth/webauthn-options/pk?x=${xss}`,
        formFields: { [`e${xss}`]: { label: xss, autocomplete: `username webauthn${xss}`, placeholder: xss } },
      },
    ]);
    // The only script element is ours.
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).toContain("Sign in with &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</button>");
    expect(html).toContain(`>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</label>`);
    expect(html).toContain(`name="e&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"`);
    expect(html).toContain(
      `data-webauthn-options="http://localhost/auth/webauthn-options/pk?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"`,
    );
  });

  it("replaces script URLs in the form's action and options URL with #", () => {
    const block = passkeyBlock(
      signIn([{ ...passkey, callbackUrl: "javascript:alert(1)", webauthnOptionsUrl: " JaVaScRiPt:alert(2)" }]),
    );
    expect(block).toContain('<form action="#" method="post" data-webauthn-options="#" data-conditional-ui>');
    expect(block).not.toMatch(/javascript:/i);
  });

  it("keeps the other pages script-free", () => {
    const pages = [
      renderSignOutPage({ csrfToken: "t", callbackUrl: "/", signoutUrl: "http://localhost/auth/signout", theme }),
      renderErrorPage({ signinUrl: "http://localhost/auth/signin", homeUrl: "http://localhost/", theme }).html,
    ];
    for (const html of pages) expect(html).not.toMatch(/<script/i);
  });
});

describe("GET /auth/signin through the handler", () => {
  function passkeyConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
    return {
      secret: SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      adapter: MemoryAdapter(),
      experimental: { enableWebAuthn: true },
      providers: [Passkey()],
      ...overrides,
    };
  }

  it("sends a CSP that allows exactly the inlined script, by hash, and fetches to its own origin", async () => {
    const response = await call(passkeyConfig(), "/auth/signin");
    const html = await response.text();
    expect(response.status).toBe(200);
    const [inline] = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toBe(WEBAUTHN_FORM_SCRIPT);

    const csp = parseCsp(response.headers.get("content-security-policy"));
    expect([...csp.keys()].sort()).toEqual(
      ["base-uri", "connect-src", "default-src", "frame-ancestors", "img-src", "script-src", "style-src"],
    );
    expect(csp.get("script-src")).toEqual([sha256Source(inline!)]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    // Everything else as on the script-free pages.
    const base = parseCsp(PAGE_HEADERS["Content-Security-Policy"]);
    expect(csp.get("style-src")).toEqual(base.get("style-src"));
    expect(csp.get("img-src")).toEqual(base.get("img-src"));
    expect(response.headers.get("cache-control")).toBe(PAGE_HEADERS["Cache-Control"]);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("points the form at this handler's callback and options URLs", async () => {
    const html = await (await call(passkeyConfig(), "/auth/signin")).text();
    expect(passkeyBlock(html)).toContain(
      `<form action="${ORIGIN}/auth/callback/passkey" method="post" data-webauthn-options="${ORIGIN}/auth/webauthn-options/passkey" data-conditional-ui>`,
    );
    expect(html).toContain('autocomplete="username webauthn" data-form-field>');
  });

  it("passes the provider's enableConditionalUI and formFields to the page", async () => {
    const config = passkeyConfig({
      providers: [Passkey({ id: "keys", name: "Security key", enableConditionalUI: false, formFields: { handle: { label: "Handle" } } })],
    });
    const block = passkeyBlock(await (await call(config, "/auth/signin")).text());
    expect(block).toContain(`data-webauthn-options="${ORIGIN}/auth/webauthn-options/keys">`);
    expect(block).toContain('<input id="input-keys-handle" name="handle" type="text" data-form-field>');
    expect(block).toContain("Sign in with Security key</button>");
  });

  it("keeps the script-free CSP and no script on pages without a WebAuthn provider", async () => {
    const response = await call(credentialsConfig(), "/auth/signin");
    expect(response.headers.get("content-security-policy")).toBe(PAGE_HEADERS["Content-Security-Policy"]);
    expect(await response.text()).not.toMatch(/<script/i);
  });

  it("keeps the other built-in pages script-free even with a WebAuthn provider", async () => {
    for (const path of ["/auth/signout", "/auth/error?error=Verification", "/auth/verify-request"]) {
      const response = await call(passkeyConfig(), path);
      expect(response.headers.get("content-security-policy"), path).toBe(PAGE_HEADERS["Content-Security-Policy"]);
      expect(await response.text(), path).not.toMatch(/<script/i);
    }
  });
});
