/**
 * `rateLimit` on email sign-in links, against a real SMTP server: a refused
 * request mails nothing, stores no token and looks no user up (which is what
 * stops one address being mail-bombed), however the address is written; and
 * the links mailed before still work.
 */
import { describe, expect, it } from "vitest";
import type { AuthConfig, RateLimitOptions } from "@gatehouse/runtime";
import { CookieJar, call, csrfToken, locationOf, recordAdapterCalls, storesSession } from "../helpers.js";
import { ledgerAdapter } from "../email/support/adapter.js";
import { followLink, requestLink } from "../email/support/flow.js";
import { emailSetup, useMailServer } from "../email/support/setup.js";
import { linkIn } from "../email/support/smtp.js";
import { REFUSED_SPELLINGS, SAME_MAILBOX_SPELLINGS } from "../email/support/spellings.js";
import { isLimited } from "./support.js";

const mail = useMailServer();

function setup(rateLimit: RateLimitOptions) {
  const ledger = ledgerAdapter();
  const recorded = recordAdapterCalls(ledger);
  const { config, log } = emailSetup(mail(), { adapter: recorded.adapter, rateLimit });
  return { config, log, ledger, calls: recorded.calls };
}

describe("email sign-in with rateLimit", () => {
  it("mails 5 links to one address in a window; the 6th request (any spelling) is a 429 that mails, stores and looks up nothing", async () => {
    const { config, log, ledger, calls } = setup({});
    const jar = new CookieJar();
    for (let i = 0; i < 5; i++) {
      const response = await requestLink(config, jar, "ada@example.com");
      expect(locationOf(response).pathname).toBe("/auth/verify-request");
    }
    await mail().waitFor(5);
    expect(ledger.liveTokens()).toHaveLength(5);

    calls.length = 0;
    for (const spelling of [" ADA@example.com", "Ada@Example.Com "]) {
      const refused = await requestLink(config, jar, spelling);
      expect(isLimited(refused)).toBe(true);
      expect(await refused.text()).toContain("Too many attempts");
    }
    expect(calls).toEqual([]);
    expect(ledger.liveTokens()).toHaveLength(5);
    expect(ledger.createdUsers()).toEqual([]);
    // Give a stray message time to arrive: none does.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mail().messages).toHaveLength(5);
    expect(log.warnings).toEqual(["rate-limit-no-client-address", "rate-limited"]);

    // Another address is not affected, and a link mailed before the limit still signs in.
    expect(locationOf(await requestLink(config, jar, "grace@example.com")).pathname).toBe("/auth/verify-request");
    const { result } = await followLink(config, new CookieJar(), linkIn(mail().messages[0]!));
    expect(storesSession(result)).toBe(true);
  });

  it("counts every spelling of one mailbox as one address: other scripts' full stops and full-width forms are limited with it; invisible characters are refused and mail nothing", async () => {
    const { config, ledger } = setup({});
    const jar = new CookieJar();
    for (let i = 0; i < 5; i++) expect(locationOf(await requestLink(config, jar, "ada@example.com")).pathname).toBe("/auth/verify-request");
    await mail().waitFor(5);

    // Nodemailer delivers each of these to ada@example.com: without one canonical form, each was a fresh count.
    for (const [, spelling] of SAME_MAILBOX_SPELLINGS) expect(isLimited(await requestLink(config, jar, spelling))).toBe(true);
    for (const [, spelling] of REFUSED_SPELLINGS.filter(([, address]) => !/[\ud800-\udfff]/.test(address))) {
      const refused = await requestLink(config, jar, spelling);
      expect(locationOf(refused).searchParams.get("error")).toBe("EmailSignin");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mail().messages).toHaveLength(5);
    expect(mail().messages.every((message) => message.to.join() === "ada@example.com")).toBe(true);
    expect(ledger.liveTokens().map((token) => token.identifier)).toEqual(Array(5).fill("ada@example.com"));
  });

  it("limits one client address across many recipients (clientAddress), and answers the client modules with JSON", async () => {
    const { config, ledger } = setup({ ip: 3, identifier: false, clientAddress: () => "198.51.100.20" });
    const jar = new CookieJar();
    for (let i = 0; i < 3; i++) expect((await requestLink(config, jar, `victim${i}@example.com`)).status).toBe(302);
    await mail().waitFor(3);
    const refused = await requestLink(config, jar, "victim9@example.com");
    expect(isLimited(refused)).toBe(true);
    const json = await requestLinkAsClient(config, jar, "victim10@example.com");
    expect(json.status).toBe(429);
    expect(await json.json()).toMatchObject({ error: "RateLimited", url: expect.stringContaining("error=RateLimited") });
    expect(ledger.liveTokens().map((t) => t.identifier).sort()).toEqual(["victim0@example.com", "victim1@example.com", "victim2@example.com"]);
    expect(mail().messages).toHaveLength(3);
  });

  it("does not count an address the provider refuses (nothing is spent on it)", async () => {
    const { config } = setup({ identifier: 1 });
    const jar = new CookieJar();
    for (let i = 0; i < 3; i++) {
      expect(locationOf(await requestLink(config, jar, "not an address")).searchParams.get("error")).toBe("EmailSignin");
    }
    expect(locationOf(await requestLink(config, jar, "ada@example.com")).pathname).toBe("/auth/verify-request");
  });
});

/** The request `signIn("email", { email })` of the client modules makes. */
async function requestLinkAsClient(config: AuthConfig, jar: CookieJar, email: string): Promise<Response> {
  const token = await csrfToken(config, jar);
  return call(config, "/auth/signin/email", { jar, form: { email, csrfToken: token }, headers: { "X-Auth-Return-Redirect": "1" } });
}
