/**
 * Passkeys in a real browser: Debian Chromium (playwright-core) with a CDP
 * virtual authenticator (CTAP2, internal transport, resident keys, user
 * verification, presence simulated), against `Auth()` served over node:http.
 * WebAuthn needs a valid RP ID, which an IP address is not: the server listens
 * on 127.0.0.1 but the browser talks to http://localhost:PORT.
 *
 * Covers the built-in sign-in page (its inline script under its own CSP) and the
 * framework client's `signIn("passkey")`, bundled by Vite as an app would be.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter, type MemoryAdapterInstance } from "@gatehouse/runtime/adapters/memory";
import { Passkey } from "@gatehouse/runtime/providers";
import { captureLogger, SECRET } from "../helpers.js";
import { hasChromium, launchChromium, screenshotFolder } from "./support/browser.js";
import { htmlPage, startHandlerServer } from "./support/handler-server.js";

// Locally a missing browser skips these tests (install Debian's `chromium` to run
// them); in CI test/ci-environment.test.ts fails instead.
if (!hasChromium) console.warn("[e2e] passkey-page-browser: /usr/bin/chromium is absent; skipping (apt-get install chromium).");

const CLIENT_ENTRY = fileURLToPath(new URL("../../runtime/src/frameworks/client.ts", import.meta.url));

/**
 * The framework client module as an app's Vite build makes it: an ES module plus
 * the chunk that `import("@simplewebauthn/browser")` loads on first use.
 */
async function bundleClient(): Promise<Map<string, string>> {
  const result = await build({
    configFile: false,
    logLevel: "silent",
    build: { write: false, minify: false, lib: { entry: CLIENT_ENTRY, formats: ["es"], fileName: "client" } },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ("output" in r ? r.output : []));
  return new Map(outputs.flatMap((o) => (o.type === "chunk" ? [[o.fileName, o.code] as const] : [])));
}

/**
 * A tiny app: the handler under /auth; a home page saying who is signed in; /client,
 * a page whose buttons call the bundled client's `signIn`; /client/*.js, the bundle.
 */
function startApp(currentConfig: () => AuthConfig, client: Map<string, string>): Promise<Server> {
  return startHandlerServer(async (request, path, origin) => {
    const config = currentConfig();
    if (path.startsWith("/auth/")) return Auth(request, config);
    if (path.startsWith("/client/")) {
      const code = client.get(path.slice("/client/".length));
      return code ? new Response(code, { headers: { "content-type": "text/javascript" } }) : new Response("not found", { status: 404 });
    }
    if (path === "/client") {
      // csrf: true as in SolidStart's client (SvelteKit's checks origins instead).
      return htmlPage(
        `<p id="client">client</p><script type="module">` +
          `import { clientSignIn } from "/client/client.js";` +
          `window.passkeySignIn = (options) => clientSignIn({ basePath: "/auth", csrf: true }, "passkey", options);` +
          `document.body.dataset.ready = "1";` +
          `</script>`,
      );
    }
    const session = await (await Auth(new Request(`${origin}/auth/session`, { headers: request.headers }), config)).json();
    const who = session?.user?.email ? `Signed in as ${session.user.email}` : "Not signed in";
    return htmlPage(`<p id="who">${who}</p><p id="path">${path}</p>`);
  });
}

interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  signCount: number;
  userHandle?: string;
}

describe.skipIf(!hasChromium)("passkeys in Chromium with a virtual authenticator", () => {
  // Two configs over one store: passkey autofill (conditional UI) on, as by
  // default, and off. Chromium's virtual authenticator answers a conditional
  // request by itself as soon as it holds a passkey for the site, so with
  // autofill on, the sign-in page signs in on load; the button flows after the
  // first passkey exists are driven with autofill off.
  const adapter: MemoryAdapterInstance = MemoryAdapter();
  const base = {
    secret: SECRET,
    trustHost: true,
    logger: captureLogger().logger,
    adapter,
    experimental: { enableWebAuthn: true },
  } satisfies Partial<AuthConfig>;
  const withAutofill: AuthConfig = { ...base, providers: [Passkey()] };
  const withoutAutofill: AuthConfig = { ...base, providers: [Passkey({ enableConditionalUI: false })] };
  let config = withAutofill;
  /** webauthn-options requests the browser made since the last `openSignInPage`. */
  let optionsRequests: URL[] = [];
  let server: Server;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let origin: string;
  /** What the page reports: script errors and CSP violations would show here. */
  const consoleErrors: string[] = [];
  let shot: (page: Page, step: string) => Promise<void>;

  beforeAll(async () => {
    shot = screenshotFolder("passkey-page");
    server = await startApp(() => config, await bundleClient());
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/auth/webauthn-options/")) optionsRequests.push(url);
    });
    cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    ({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function credentials(): Promise<VirtualCredential[]> {
    return ((await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: VirtualCredential[] }).credentials;
  }

  async function sessionCookie(): Promise<string | undefined> {
    return (await context.cookies(origin)).find((c) => c.name === "authjs.session-token")?.value;
  }

  async function signOut(): Promise<void> {
    await page.goto(`${origin}/auth/signout`);
    await page.click("form[action$='/auth/signout'] button[type=submit]");
    await page.waitForURL(`${origin}/`);
    expect(await page.locator("#who").innerText()).toBe("Not signed in");
  }

  async function openSignInPage(): Promise<void> {
    optionsRequests = [];
    await page.goto(`${origin}/auth/signin?callbackUrl=%2Fhome`);
    // The script shows the form once it has found WebAuthn.
    await page.locator("form[data-webauthn-options]").waitFor({ state: "visible" });
  }

  it("registers a new user with a passkey from the sign-in page and signs them in", async () => {
    config = withAutofill;
    await openSignInPage();
    await shot(page, "signin-page");
    // The autofill request goes out on load (Chromium's virtual authenticator
    // refuses it while it holds no passkey, which the script only logs: no alert
    // greets the user); the click then runs its own ceremony.
    await expect.poll(() => optionsRequests.length, { timeout: 20_000 }).toBe(1);
    expect(optionsRequests[0]!.search).toBe("?action=authenticate");
    expect(await page.locator("[data-webauthn-alert] [role=alert]").count()).toBe(0);
    await page.fill("input[name=email]", "grace@example.com");
    await page.click("button:has-text('Sign in with Passkey')");
    await page.waitForURL(`${origin}/home`);
    expect(await page.locator("#who").innerText()).toBe("Signed in as grace@example.com");
    await shot(page, "registered");
    expect(optionsRequests[1]!.searchParams.get("email")).toBe("grace@example.com");
    // The server inferred the action from the email; the page did not name one.
    expect(optionsRequests[1]!.searchParams.has("action")).toBe(false);

    const user = await adapter.getUserByEmail("grace@example.com");
    expect(user).not.toBeNull();
    const stored = await adapter.listAuthenticatorsByUserId(user!.id);
    expect(stored).toHaveLength(1);
    const [credential] = await credentials();
    expect(credential).toMatchObject({ isResidentCredential: true });
    // The adapter stores the id base64url-encoded; CDP reports it base64-encoded.
    expect(Buffer.from(stored[0]!.credentialID, "base64url")).toEqual(Buffer.from(credential!.credentialId, "base64"));
    expect(await adapter.getAccount(stored[0]!.providerAccountId, "passkey")).toMatchObject({ userId: user!.id, type: "webauthn" });
  });

  it("signs out, then signs in again with the email (authenticate) and stores the new counter", async () => {
    await signOut();
    config = withoutAutofill;
    const user = (await adapter.getUserByEmail("grace@example.com"))!;
    const before = (await adapter.listAuthenticatorsByUserId(user.id))[0]!.counter;

    await openSignInPage();
    expect(await page.locator("form[data-conditional-ui]").count()).toBe(0);
    await page.fill("input[name=email]", "grace@example.com");
    await page.click("button:has-text('Sign in with Passkey')");
    await page.waitForURL(`${origin}/home`);
    expect(await page.locator("#who").innerText()).toBe("Signed in as grace@example.com");
    // Autofill off: the click made the only options request.
    expect(optionsRequests.map((url) => url.search)).toEqual(["?email=grace%40example.com"]);

    const after = await adapter.listAuthenticatorsByUserId(user.id);
    expect(after).toHaveLength(1);
    const [credential] = await credentials();
    expect(after[0]!.counter).toBe(credential!.signCount);
    expect(after[0]!.counter).toBeGreaterThan(before);
    expect(await adapter.getUserByEmail("grace@example.com")).toMatchObject({ id: user.id });
  });

  it("signs in with passkey autofill (conditional UI) as the sign-in page loads", async () => {
    await signOut();
    config = withAutofill;
    const user = (await adapter.getUserByEmail("grace@example.com"))!;
    const before = (await adapter.listAuthenticatorsByUserId(user.id))[0]!.counter;
    expect(await page.evaluate(() => PublicKeyCredential.isConditionalMediationAvailable?.() ?? false)).toBe(true);

    // Nothing is typed or clicked: the script's conditional request gets the passkey.
    optionsRequests = [];
    await page.goto(`${origin}/auth/signin?callbackUrl=%2Fhome`);
    await page.waitForURL(`${origin}/home`);
    expect(await page.locator("#who").innerText()).toBe("Signed in as grace@example.com");
    // Authenticate options with no email: any discoverable passkey of this site.
    expect(optionsRequests.map((url) => url.search)).toEqual(["?action=authenticate"]);
    expect((await adapter.listAuthenticatorsByUserId(user.id))[0]!.counter).toBeGreaterThan(before);
    await signOut();
  });

  it("a cancelled ceremony shows an error on the page, does not reload it and signs nobody in", async () => {
    config = withoutAutofill;
    await openSignInPage();
    // The authenticator now refuses user verification, as when the person cancels the prompt.
    await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
    try {
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      await page.fill("input[name=email]", "grace@example.com");
      await page.click("button:has-text('Sign in with Passkey')");
      const alert = page.locator("[data-webauthn-alert] [role=alert]");
      await alert.waitFor();
      await shot(page, "cancelled");
      expect(await alert.innerText()).toBe("The passkey request was cancelled or timed out. Please try again.");
      // Same document (no reload), same URL, the button usable again, nobody signed in.
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
      expect(new URL(page.url()).pathname).toBe("/auth/signin");
      expect(await page.locator("button:has-text('Sign in with Passkey')").isEnabled()).toBe(true);
      expect(await sessionCookie()).toBeUndefined();
    } finally {
      await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true });
    }
  });

  it("a forged signature is refused by the server: the page follows it to the error and nobody is signed in", async () => {
    config = withoutAutofill;
    await openSignInPage();
    await cdp.send("WebAuthn.setResponseOverrideBits", { authenticatorId, isBogusSignature: true });
    try {
      await page.fill("input[name=email]", "grace@example.com");
      await page.click("button:has-text('Sign in with Passkey')");
      // The script goes where the server says, here an error page (which also
      // honours a custom `pages.error`).
      await page.waitForURL((url) => url.searchParams.has("error"));
      expect(new URL(page.url()).searchParams.get("error")).toBe("WebAuthnVerificationError");
      await shot(page, "refused");
      expect(await sessionCookie()).toBeUndefined();
    } finally {
      await cdp.send("WebAuthn.setResponseOverrideBits", { authenticatorId, isBogusSignature: false });
    }
  });

  it("without JavaScript the passkey form stays hidden and the page says why", async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    try {
      const plain = await noScript.newPage();
      await plain.goto(`${origin}/auth/signin`);
      expect(await plain.locator("form[data-webauthn-options]").isVisible()).toBe(false);
      expect(await plain.locator("[data-without-webauthn]").innerText()).toContain("needs a browser with JavaScript");
    } finally {
      await noScript.close();
    }
  });

  it("shows the server's message when the options request fails", async () => {
    config = withoutAutofill;
    await openSignInPage();
    await page.fill("input[name=email]", "not an email");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes("/auth/webauthn-options/")),
      page.click("button:has-text('Sign in with Passkey')"),
    ]);
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    const alert = page.locator("[data-webauthn-alert] [role=alert]");
    await alert.waitFor();
    // The handler's own words (a client-safe message) for the failed request.
    expect(await alert.innerText()).toBe(body.message);
    expect(body.message).toContain("not an email");
    expect(await sessionCookie()).toBeUndefined();
  });

  it("client signIn('passkey') with no email authenticates with the discoverable credential", async () => {
    await page.goto(`${origin}/client`);
    await page.waitForSelector("body[data-ready='1']");
    const result = await page.evaluate(() =>
      (window as unknown as { passkeySignIn: (o: object) => Promise<unknown> }).passkeySignIn({ redirect: false, redirectTo: "/after" }),
    );
    expect(result).toEqual({ ok: true, status: 200, error: null, code: null, url: `${origin}/after` });
    await page.goto(`${origin}/`);
    expect(await page.locator("#who").innerText()).toBe("Signed in as grace@example.com");
    await signOut();
  });

  it("client signIn('passkey', { email }) registers a new user and navigates to redirectTo", async () => {
    await page.goto(`${origin}/client`);
    await page.waitForSelector("body[data-ready='1']");
    await Promise.all([
      page.waitForURL(`${origin}/welcome`),
      page.evaluate(() =>
        (window as unknown as { passkeySignIn: (o: object) => Promise<unknown> }).passkeySignIn({ email: "linus@example.com", redirectTo: "/welcome" }),
      ),
    ]);
    expect(await page.locator("#who").innerText()).toBe("Signed in as linus@example.com");
    const user = await adapter.getUserByEmail("linus@example.com");
    expect(await adapter.listAuthenticatorsByUserId(user!.id)).toHaveLength(1);
    expect(await credentials()).toHaveLength(2);
    await signOut();
  });

  it("client signIn('passkey') returns a cancelled ceremony as { ok: false, error: 'NotAllowedError' }", async () => {
    await page.goto(`${origin}/client`);
    await page.waitForSelector("body[data-ready='1']");
    await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
    try {
      const result = await page.evaluate(() =>
        (window as unknown as { passkeySignIn: (o: object) => Promise<unknown> }).passkeySignIn({ email: "grace@example.com" }),
      );
      expect(result).toMatchObject({ ok: false, status: 0, error: "NotAllowedError", url: null });
      expect(new URL(page.url()).pathname).toBe("/client");
      expect(await sessionCookie()).toBeUndefined();
    } finally {
      await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true });
    }
  });

  it("logged no CSP violations or script errors on the way", () => {
    // Logged on purpose: refused ceremonies (NotAllowedError) and the failed options request.
    const unexpected = consoleErrors.filter(
      (text) => !/^NotAllowedError:|^Failed to load resource: the server responded with a status of 400|^ServerError:/.test(text),
    );
    expect(unexpected).toEqual([]);
    expect(consoleErrors.join("\n")).not.toMatch(/Content Security Policy/i);
  });
});
