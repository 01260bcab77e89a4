/**
 * `rateLimit` on credentials sign-ins through plain `Auth`: off by default; per
 * identifier across addresses, however the identifier is written; per client
 * address when `clientAddress` says it, never from X-Forwarded-For; what a
 * refused attempt answers (429, Retry-After, the page or the JSON the client
 * modules read) and that it runs nothing; windows that end; a successful
 * sign-in clearing its identifier's failures but not its address's.
 */
import { describe, expect, it } from "vitest";
import { MemoryRateLimitStore } from "@gatehouse/runtime";
import { call, captureLogger, locationOf, storesSession } from "../helpers.js";
import { PASSWORD, addressFromHeader, attempt, isLimited, limitedSetup, logText, manualClock, wrong } from "./support.js";

/** The rate limit's own warnings, without each wrong password's (`credentials-signin-refused`). */
const limitWarnings = (log: { warnings: string[] }) => log.warnings.filter((code) => code !== "credentials-signin-refused");

describe("without rateLimit (the default)", () => {
  it("never answers 429: 60 wrong passwords for one email are all refused as CredentialsSignin and all reach authorize", async () => {
    const setup = limitedSetup();
    for (let i = 0; i < 60; i++) {
      const response = await wrong(setup, "ada@example.com", { address: "198.51.100.1" });
      expect(response.status).toBe(302);
      expect(locationOf(response).searchParams.get("error")).toBe("CredentialsSignin");
      expect(response.headers.get("retry-after")).toBeNull();
    }
    expect(setup.authorize).toHaveBeenCalledTimes(60);
    expect(storesSession(await attempt(setup, { email: "ada@example.com", password: PASSWORD }))).toBe(true);
    // Each wrong password is a warning of its own; nothing of the rate limit.
    expect(setup.log.warnings).toEqual(Array(60).fill("credentials-signin-refused"));
  });
});

describe("the per-identifier limit", () => {
  it("refuses the 6th attempt at one email within 15 minutes, from any address: 429, Retry-After, the themed page, authorize not called", async () => {
    const setup = limitedSetup({ clientAddress: addressFromHeader, ip: 1000 });
    for (let i = 1; i <= 5; i++) {
      const response = await wrong(setup, "ada@example.com", { address: `198.51.100.${i}` });
      expect(locationOf(response).searchParams.get("error")).toBe("CredentialsSignin");
    }
    expect(setup.authorize).toHaveBeenCalledTimes(5);

    // A sixth address, and even the right password: the identifier's count decides.
    const refused = await attempt(setup, { email: "ada@example.com", password: PASSWORD }, { address: "203.0.113.77" });
    expect(isLimited(refused)).toBe(true);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(890);
    expect(refused.headers.get("location")).toBeNull();
    expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
    expect(refused.headers.get("cache-control")).toContain("no-store");
    expect(refused.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await refused.text();
    expect(html).toContain("Too many attempts");
    expect(html).toContain("try again in about 15 minutes");
    expect(html).toContain('href="http://localhost:3000/auth/signin"');
    expect(storesSession(refused)).toBe(false);
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(setup.authorize).toHaveBeenCalledTimes(5);

    // Another identifier is not affected.
    const other = await wrong(setup, "grace@example.com", { address: "203.0.113.77" });
    expect(locationOf(other).searchParams.get("error")).toBe("CredentialsSignin");
  });

  it("counts case, surrounding and inner whitespace and full-width forms of one email as one identifier", async () => {
    const setup = limitedSetup({ identifier: 4 });
    const spellings = ["ada@example.com", "  ADA@Example.COM ", "ada @example.com\t", "ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ"];
    for (const email of spellings) expect((await wrong(setup, email)).status).toBe(302);
    for (const email of spellings) expect(isLimited(await wrong(setup, email))).toBe(true);
    expect(setup.authorize).toHaveBeenCalledTimes(4);
  });

  it("counts invisible characters, NUL and other scripts' full stops in an email as the same identifier", async () => {
    const setup = limitedSetup({ identifier: 4 });
    const spellings = ["ada@example.com", "ada\u200b@example.com", "ada\u0000@example.com", "ada@example\u3002com", "a\u202eda@example.com\ufeff"];
    for (const email of spellings.slice(0, 4)) expect(locationOf(await wrong(setup, email)).searchParams.get("error")).toBe("CredentialsSignin");
    for (const email of spellings) expect(isLimited(await wrong(setup, email))).toBe(true);
    expect(setup.authorize).toHaveBeenCalledTimes(4);
  });

  it("counts every identifier field present: a made-up email beside the real username does not dodge the username's count", async () => {
    const setup = limitedSetup({ identifier: 3 });
    for (let i = 0; i < 3; i++) await attempt(setup, { username: "ada", email: `decoy-${i}@example.com`, password: "wrong" });
    expect(isLimited(await attempt(setup, { username: "ADA", email: "decoy-9@example.com", password: "wrong" }))).toBe(true);
    expect(setup.authorize).toHaveBeenCalledTimes(3);
  });

  it("reads only the configured identifierFields when set", async () => {
    const setup = limitedSetup({ identifier: 2, identifierFields: ["login"] });
    // `email` is not an identifier field now: these count as no identifier at all.
    for (let i = 0; i < 4; i++) expect((await wrong(setup, "ada@example.com")).status).toBe(302);
    await attempt(setup, { login: "Ada", password: "wrong" });
    await attempt(setup, { login: "ada", password: "wrong" });
    expect(isLimited(await attempt(setup, { login: " ada", password: "wrong" }))).toBe(true);
  });

  it("a successful sign-in clears its identifier's failures (not the address's count)", async () => {
    const setup = limitedSetup({ identifier: 3, ip: 7, clientAddress: addressFromHeader });
    const address = { address: "198.51.100.7" };
    await wrong(setup, "ada@example.com", address);
    await wrong(setup, "ada@example.com", address);
    expect(storesSession(await attempt(setup, { email: "Ada@example.com", password: PASSWORD }, address))).toBe(true);
    // Three more failures fit the identifier's fresh count...
    for (let i = 0; i < 3; i++) expect((await wrong(setup, "ada@example.com", address)).status).toBe(302);
    // ...the fourth is over it; and the address, never cleared, is at its 7th attempt, then over too.
    expect(isLimited(await wrong(setup, "ada@example.com", { address: "198.51.100.8" }))).toBe(true);
    expect((await wrong(setup, "grace@example.com", address)).status).toBe(302);
    expect(isLimited(await wrong(setup, "grace@example.com", address))).toBe(true);
  });

  it("a refused attempt with the right password does not clear the count either", async () => {
    const setup = limitedSetup({ identifier: 2 });
    await wrong(setup);
    await wrong(setup);
    expect(isLimited(await attempt(setup, { email: "ada@example.com", password: PASSWORD }))).toBe(true);
    expect(isLimited(await wrong(setup))).toBe(true);
  });
});

describe("the per-address limit", () => {
  it("refuses the 31st attempt from one address, whatever the identifiers, and counts an IPv6 client per /64", async () => {
    const setup = limitedSetup({ clientAddress: addressFromHeader });
    for (let i = 0; i < 30; i++) expect((await wrong(setup, `user${i}@example.com`, { address: "198.51.100.1" })).status).toBe(302);
    expect(isLimited(await wrong(setup, "someone-new@example.com", { address: "198.51.100.1" }))).toBe(true);
    // An IPv4 client seen through a dual-stack socket is the same client.
    expect(isLimited(await wrong(setup, "another@example.com", { address: "::ffff:198.51.100.1" }))).toBe(true);
    expect((await wrong(setup, "someone-new@example.com", { address: "198.51.100.2" })).status).toBe(302);

    const v6 = limitedSetup({ clientAddress: addressFromHeader, ip: 2 });
    await wrong(v6, "a@example.com", { address: "2001:db8:1:2::1" });
    await wrong(v6, "b@example.com", { address: "2001:DB8:1:2:ffff:0:0:9" });
    expect(isLimited(await wrong(v6, "c@example.com", { address: "[2001:db8:1:2:aaaa::7]" }))).toBe(true);
    expect((await wrong(v6, "c@example.com", { address: "2001:db8:1:3::1" })).status).toBe(302);
  });

  it("never reads X-Forwarded-For by default: without a known address only the identifier limit applies, with one warning", async () => {
    const setup = limitedSetup({ ip: 2, identifier: 50 });
    for (let i = 0; i < 10; i++) {
      const response = await wrong(setup, `user${i}@example.com`, { headers: { "x-forwarded-for": "192.0.2.1", "x-real-ip": "192.0.2.1" } });
      expect(response.status).toBe(302);
    }
    expect(limitWarnings(setup.log)).toEqual(["rate-limit-no-client-address"]);

    // With an address from clientAddress, a changing X-Forwarded-For dodges nothing.
    const known = limitedSetup({ ip: 2, identifier: 50, clientAddress: addressFromHeader });
    for (let i = 0; i < 2; i++) await wrong(known, `user${i}@example.com`, { address: "198.51.100.3", headers: { "x-forwarded-for": `192.0.2.${i}` } });
    expect(isLimited(await wrong(known, "user9@example.com", { address: "198.51.100.3", headers: { "x-forwarded-for": "192.0.2.99" } }))).toBe(true);
    expect(limitWarnings(known.log)).toEqual(["rate-limited"]);
  });

  it("a clientAddress that finds nothing leaves the identifier limit working", async () => {
    const setup = limitedSetup({ identifier: 1, clientAddress: () => null });
    await wrong(setup);
    expect(isLimited(await wrong(setup))).toBe(true);
    expect(limitWarnings(setup.log)).toEqual(["rate-limit-no-client-address", "rate-limited"]);
  });
});

describe("windows", () => {
  it("a count ends with its window: refused until 15 minutes after the first attempt, counted afresh from then (injected clock)", async () => {
    const clock = manualClock();
    const setup = limitedSetup({ identifier: 2, store: MemoryRateLimitStore({ now: clock.now }) });
    await wrong(setup);
    clock.advance(60_000);
    await wrong(setup);
    expect(isLimited(await wrong(setup))).toBe(true);
    clock.advance(900_000 - 60_000 - 1);
    expect(isLimited(await wrong(setup))).toBe(true);
    clock.advance(1);
    expect(locationOf(await wrong(setup)).searchParams.get("error")).toBe("CredentialsSignin");
    expect(storesSession(await attempt(setup, { email: "ada@example.com", password: PASSWORD }))).toBe(true);
    expect(setup.authorize).toHaveBeenCalledTimes(4);
  });

  it("a custom window of 60 seconds says so in Retry-After and on the page", async () => {
    const setup = limitedSetup({ window: 60, identifier: 1 });
    await wrong(setup);
    const refused = await wrong(setup);
    expect(isLimited(refused, 60)).toBe(true);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(55);
    expect(await refused.text()).toMatch(/try again in (about 1 minute|\d+ seconds)/);
  });
});

describe("the answer to a refused attempt", () => {
  it("is 429 JSON with the sign-in page's URL for the client modules (X-Auth-Return-Redirect), which shows the message", async () => {
    const setup = limitedSetup({ identifier: 1 });
    await wrong(setup);
    const refused = await attempt(setup, { email: "ada@example.com", password: "wrong", callbackUrl: "/account" }, { headers: { "X-Auth-Return-Redirect": "1" } });
    expect(isLimited(refused)).toBe(true);
    expect(refused.headers.get("content-type")).toBe("application/json");
    const body = await refused.json();
    expect(body).toMatchObject({ error: "RateLimited", message: expect.stringMatching(/too many sign-in attempts/i) });
    const url = new URL(body.url);
    expect(url.pathname).toBe("/auth/signin");
    expect(url.searchParams.get("error")).toBe("RateLimited");
    expect(url.searchParams.get("callbackUrl")).toBe("http://localhost:3000/account");
    const page = await call(setup.config, `${url.pathname}${url.search}`);
    expect(await page.text()).toContain("Too many sign-in attempts. Please wait a few minutes and try again.");
  });

  it("points the client modules at the app's own sign-in page when pages.signIn is set", async () => {
    const setup = limitedSetup({ identifier: 1 }, { pages: { signIn: "/login" } });
    await wrong(setup);
    const refused = await wrong(setup, "ada@example.com", { headers: { "X-Auth-Return-Redirect": "1" } });
    expect(refused.status).toBe(429);
    expect((await refused.json()).url).toMatch(/^http:\/\/localhost:3000\/login\?error=RateLimited/);
  });

  it("is the built-in page with the status also when pages.error is the app's (a redirect there could not carry 429)", async () => {
    const setup = limitedSetup({ identifier: 1 }, { pages: { error: "/oops" }, theme: { brandColor: "#123456" } });
    await wrong(setup);
    const refused = await wrong(setup);
    expect(isLimited(refused)).toBe(true);
    expect(refused.headers.get("location")).toBeNull();
    const html = await refused.text();
    expect(html).toContain("Too many attempts");
    expect(html).toContain("#123456");
  });

  it("is logged as one warning per identifier and window, with no identifier, address or password in any log", async () => {
    const log = captureLogger();
    const setup = limitedSetup({ identifier: 2, clientAddress: addressFromHeader }, { logger: log.logger, debug: true });
    for (let i = 0; i < 8; i++) await wrong(setup, "Ada.Secret@Example.com", { address: "198.51.100.44" });
    expect(log.warnings.filter((w) => w === "rate-limited")).toEqual(["rate-limited"]);
    expect(log.errors.some((e) => e.name === "RateLimited")).toBe(false);
    expect(log.debug.some((d) => d.message.includes("rate limit"))).toBe(true);
    const text = logText(log).toLowerCase();
    expect(text).not.toContain("ada.secret");
    expect(text).not.toContain("198.51.100.44");
    expect(text).not.toContain("wrong");
  });

  it("does not count requests refused before the attempt (no CSRF token): they reach nothing anyway", async () => {
    const setup = limitedSetup({ identifier: 1 });
    for (let i = 0; i < 5; i++) {
      const response = await call(setup.config, "/auth/callback/credentials", { form: { email: "ada@example.com", password: "wrong" } });
      expect(locationOf(response).searchParams.get("error")).toBe("MissingCSRF");
    }
    expect(storesSession(await attempt(setup, { email: "ada@example.com", password: PASSWORD }))).toBe(true);
  });
});
