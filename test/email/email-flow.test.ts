/**
 * Email sign-in end to end through the handler: nodemailer sends the link to a real
 * SMTP server on 127.0.0.1, the test reads it from the received mail, opens the
 * confirmation page and presses its button.
 */
import { describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { Nodemailer } from "@gatehouse/runtime/providers";
import { call, CookieJar, fetchSession, locationOf, ORIGIN, storesSession } from "../helpers.js";
import { ledgerAdapter } from "./support/adapter.js";
import { followLink, mailedLink, requestLink } from "./support/flow.js";
import { emailSetup, useMailServer } from "./support/setup.js";

const mail = useMailServer();

function setup(overrides: Partial<AuthConfig> = {}, providerOptions: Parameters<typeof Nodemailer>[0] = {}) {
  return emailSetup(mail(), overrides, providerOptions);
}

describe.each(["database", "jwt"] as const)("email sign-in with %s sessions", (strategy) => {
  it("mails a link, shows a confirmation page, and signs a new user in with the button", async () => {
    const { config, adapter } = setup({ session: { strategy } });
    const jar = new CookieJar();
    const requested = await requestLink(config, jar, "  Grace@Example.COM ", { callbackUrl: `${ORIGIN}/dashboard` });
    expect(requested.status).toBe(302);
    expect(locationOf(requested).href).toBe(`${ORIGIN}/auth/verify-request?provider=email&type=email`);
    expect(storesSession(requested)).toBe(false);

    const [message] = await mail().waitFor(1);
    expect(message!.to).toEqual(["grace@example.com"]);
    expect(message!.from).toBe("no-reply@example.com");
    expect(message!.subject).toBe("Sign in to localhost:3000");
    const link = new URL(/https?:\/\/\S+/.exec(message!.text)![0]);
    expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/email`);
    expect(link.searchParams.get("email")).toBe("grace@example.com");
    expect(link.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
    expect(link.searchParams.get("token")).toMatch(/^[0-9a-f]{64}$/);
    // Only the hash is stored, never the token of the link.
    const [stored] = adapter.liveTokens();
    expect(stored!.identifier).toBe("grace@example.com");
    expect(stored!.token).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.token).not.toBe(link.searchParams.get("token"));
    expect(stored!.expires.valueOf()).toBeGreaterThan(Date.now() + 24 * 3600 * 1000 - 60_000);
    expect(stored!.expires.valueOf()).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);

    const { page, html, result } = await followLink(config, jar, link);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(html).toContain("grace@example.com");
    expect(result.status).toBe(302);
    expect(locationOf(result).href).toBe(`${ORIGIN}/dashboard`);
    expect(storesSession(result)).toBe(true);
    expect(adapter.liveTokens()).toEqual([]);

    const { body } = await fetchSession(config, jar);
    expect(body.user.email).toBe("grace@example.com");
    const user = (await adapter.getUserByEmail("grace@example.com"))!;
    expect(user.emailVerified).toBeInstanceOf(Date);
    expect(await adapter.getUserByAccount({ provider: "email", providerAccountId: "grace@example.com" })).toMatchObject({ id: user.id });
  });

  it("signs an existing user in, keeps their first verification date, and links the email account once", async () => {
    const { config, adapter } = setup({ session: { strategy } });
    const first = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    await followLink(config, new CookieJar(), first);
    const verified = (await adapter.getUserByEmail("ada@example.com"))!.emailVerified!;

    const jar = new CookieJar();
    const second = await mailedLink(config, mail(), jar, "ada@example.com");
    const { result } = await followLink(config, jar, second);
    expect(result.status).toBe(302);
    const user = (await adapter.getUserByEmail("ada@example.com"))!;
    expect(user.emailVerified!.valueOf()).toBe(verified.valueOf());
    expect(adapter.createdUsers()).toEqual([user.id]);
    const { body } = await fetchSession(config, jar);
    expect(body.user.email).toBe("ada@example.com");
  });
});

describe("email sign-in of users made another way", () => {
  it("verifies the address of a user created without one verified, and links the email account to them", async () => {
    const { config, adapter } = setup();
    const existing = await adapter.createUser({ id: "", name: "Ada", email: "ada@example.com", emailVerified: null });
    const jar = new CookieJar();
    const { result } = await followLink(config, jar, await mailedLink(config, mail(), jar, "ada@example.com"));
    expect(result.status).toBe(302);
    expect((await adapter.getUser(existing.id))!.emailVerified).toBeInstanceOf(Date);
    expect((await adapter.getUserByAccount({ provider: "email", providerAccountId: "ada@example.com" }))!.id).toBe(existing.id);
    expect((await fetchSession(config, jar)).body.user.name).toBe("Ada");
  });
});

describe.each([
  ["with the adapter's createUserWithAccount (one transaction)", {}, "createUserWithAccount"],
  ["with an adapter that lacks createUserWithAccount (Auth.js adapters)", { createUserWithAccount: undefined }, "createUser"],
] as const)("a new user's first sign-in %s", (_case, overrides, method) => {
  function setupWith(events: string[] = []) {
    const adapter = ledgerAdapter(overrides);
    const result = setup({
      adapter,
      events: {
        createUser: ({ user }) => void events.push(`createUser:${user.email}`),
        linkAccount: ({ user, account }) => void events.push(`linkAccount:${account.provider}:${account.providerAccountId}:${account.userId === user.id}`),
        signIn: ({ isNewUser }) => void events.push(`signIn:${isNewUser}`),
      },
    });
    return { ...result, adapter, events };
  }

  it("stores the user with a verified address and its email account; createUser, linkAccount and signIn fire in that order", async () => {
    const { config, adapter, events } = setupWith();
    const jar = new CookieJar();
    const { result } = await followLink(config, jar, await mailedLink(config, mail(), jar, "new@example.com"));
    expect(storesSession(result)).toBe(true);
    expect(adapter.userCreations()).toEqual([method]);
    const user = (await adapter.getUserByEmail("new@example.com"))!;
    expect(user.emailVerified).toBeInstanceOf(Date);
    expect(await adapter.getAccount("new@example.com", "email")).toMatchObject({ userId: user.id, type: "email" });
    expect(events).toEqual(["createUser:new@example.com", "linkAccount:email:new@example.com:true", "signIn:true"]);
  });

  it("an address whose email account is still linked to a user who changed address since: a new user, the link stays theirs", async () => {
    const { config, adapter, events } = setupWith();
    const moved = await adapter.createUser({ id: "", email: "old@example.com", emailVerified: new Date(), name: "Moved" });
    await adapter.linkAccount({ userId: moved.id, type: "email", provider: "email", providerAccountId: "old@example.com" });
    await adapter.updateUser({ id: moved.id, email: "moved@example.com" });
    const jar = new CookieJar();
    const { result } = await followLink(config, jar, await mailedLink(config, mail(), jar, "old@example.com"));
    expect(storesSession(result)).toBe(true);
    const user = (await adapter.getUserByEmail("old@example.com"))!;
    expect(user.id).not.toBe(moved.id);
    expect((await adapter.getUserByAccount({ provider: "email", providerAccountId: "old@example.com" }))!.id).toBe(moved.id);
    expect(events).toEqual(["createUser:old@example.com", "signIn:true"]);
    expect((await fetchSession(config, jar)).body.user.email).toBe("old@example.com");
  });
});

describe("callbacks, events and pages", () => {
  it("asks signIn with verificationRequest first, then without; fires createUser, linkAccount and signIn", async () => {
    const calls: unknown[] = [];
    const events: string[] = [];
    const { config } = setup({
      callbacks: {
        signIn: ({ user, account, email }) => {
          calls.push({ email: user.email, provider: account?.provider, type: account?.type, verificationRequest: email?.verificationRequest });
          return true;
        },
      },
      events: {
        createUser: () => void events.push("createUser"),
        linkAccount: () => void events.push("linkAccount"),
        signIn: ({ isNewUser }) => void events.push(`signIn:${isNewUser}`),
      },
    });
    const jar = new CookieJar();
    await followLink(config, jar, await mailedLink(config, mail(), jar, "new@example.com"));
    expect(calls).toEqual([
      { email: "new@example.com", provider: "email", type: "email", verificationRequest: true },
      { email: "new@example.com", provider: "email", type: "email", verificationRequest: undefined },
    ]);
    expect(events).toEqual(["createUser", "linkAccount", "signIn:true"]);
  });

  it("sends a new user to pages.newUser with the callback URL, and honours pages.verifyRequest", async () => {
    const { config } = setup({ pages: { newUser: "/welcome", verifyRequest: "/check-your-mail" } });
    const jar = new CookieJar();
    const requested = await requestLink(config, jar, "new@example.com", { callbackUrl: "/after" });
    expect(locationOf(requested).href).toBe(`${ORIGIN}/check-your-mail?provider=email&type=email`);
    const [message] = await mail().waitFor(1);
    const { result } = await followLink(config, jar, new URL(/https?:\/\/\S+/.exec(message!.text)![0]));
    const target = locationOf(result);
    expect(target.pathname).toBe("/welcome");
    expect(target.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/after`);
  });

  it("leaves another site's callback URL out of the link and returns home", async () => {
    const { config } = setup();
    const jar = new CookieJar();
    const link = await mailedLink(config, mail(), jar, "ada@example.com", { callbackUrl: "https://evil.example/steal" });
    expect(link.searchParams.has("callbackUrl")).toBe(false);
    const { result } = await followLink(config, jar, link);
    expect(locationOf(result).href).toBe(`${ORIGIN}/`);
  });

  it("renders the built-in verify-request page", async () => {
    const { config } = setup();
    const response = await call(config, "/auth/verify-request?provider=email&type=email");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Check your email");
  });

  it("replaces the browser's old database session when the link signs in", async () => {
    const { config, adapter } = setup({ session: { strategy: "database" } });
    const jar = new CookieJar();
    await followLink(config, jar, await mailedLink(config, mail(), jar, "first@example.com"));
    const oldToken = jar.get("authjs.session-token")!;
    await followLink(config, jar, await mailedLink(config, mail(), jar, "second@example.com"));
    expect(jar.get("authjs.session-token")).not.toBe(oldToken);
    expect(await adapter.getSessionAndUser(oldToken)).toBeNull();
    expect((await fetchSession(config, jar)).body.user.email).toBe("second@example.com");
  });
});

describe("the mail", () => {
  it("has a plain-text and an HTML part with the link, in the theme's colour, loading nothing from elsewhere", async () => {
    const { config } = setup({ theme: { brandColor: "#aa3300", buttonText: "#fefefe", logo: "https://cdn.example/logo.png" } });
    const link = await mailedLink(config, mail(), new CookieJar(), "ada@example.com");
    const [message] = mail().messages;
    expect(message!.text).toContain(link.href);
    expect(message!.html).toContain(`href="${link.href.replace(/&/g, "&amp;")}"`);
    expect(message!.html).toContain("background:#aa3300");
    expect(message!.html).toContain("color:#fefefe");
    expect(message!.html).not.toMatch(/<img|src=|url\(|<link|<script/i);
    // The only address in the HTML is the link itself.
    expect([...message!.html.matchAll(/https?:\/\/[^"\s<]+/g)].map((m) => m[0].replace(/&amp;/g, "&"))).toEqual([link.href]);
  });
});
