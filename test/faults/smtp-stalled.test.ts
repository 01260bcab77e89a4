/**
 * A mail server that accepts the connection and then stalls. nodemailer's own
 * limits would hold the sign-in request for 30 seconds (no greeting) or 10
 * minutes (silence after it); the Nodemailer provider bounds every wait
 * (`SMTP_TIMEOUTS`, overridable through `server`). With small overrides the
 * request ends in EmailSignin on the sign-in page, keeps no token, logs the
 * timeout, and leaves no connection open to the mail server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CookieJar } from "../helpers.js";
import { requestLink } from "../email/support/flow.js";
import { emailSetup } from "../email/support/setup.js";
import type { MailServer } from "../email/support/smtp.js";
import { SMTP_TIMEOUTS, withSmtpTimeouts } from "../../runtime/src/providers/email.js";
import { expectSignInPageError, loggedText } from "./support/idp-setup.js";
import { startSilentSmtpServer, type SilentSmtpServer, type Stall } from "./support/silent-smtp.js";

let silent: SilentSmtpServer | undefined;
afterEach(async () => {
  await silent?.close();
  silent = undefined;
});

/** How each stall is configured (in the URL, or as transport options: both are `server`) and what the log says. */
const CASES: [Stall, string, (server: SilentSmtpServer) => unknown, RegExp][] = [
  // The greeting limit is the one that fires: the socket's is set longer.
  ["never-greets", "overrides in the URL", (s) => `${s.url}?greetingTimeout=200&socketTimeout=2000&connectionTimeout=2000`, /Greeting never received/],
  ["greets-then-stalls", "overrides as transport options", (s) => ({ host: s.host, port: s.port, secure: false, socketTimeout: 300 }), /Timeout \(ETIMEDOUT\)/],
];

describe("a mail server that stalls", () => {
  it.each(CASES)("%s (%s): EmailSignin, no token, the timeout logged, the connection closed", async (stall, _how, server, logged) => {
    silent = await startSilentSmtpServer(stall);
    // emailSetup wants a MailServer only for its URL; the provider's `server` below replaces it.
    const { config, adapter, log } = emailSetup({ url: silent.url } as MailServer, {}, { server: server(silent) });
    const jar = new CookieJar();

    await expectSignInPageError(config, jar, await requestLink(config, jar, "ada@example.com"), "EmailSignin");
    expect(adapter.liveTokens()).toEqual([]);
    expect(silent.accepted()).toBe(1);
    expect(loggedText(log.errors)).toMatch(logged);
    // nodemailer closes the socket on timeout; let the close reach the server.
    await expect.poll(() => silent!.open()).toBe(0);
  });
});

describe("the provider's SMTP timeouts", () => {
  it("are bounded well below nodemailer's (2 min connect, 30 s greeting, 10 min silence)", () => {
    expect(SMTP_TIMEOUTS).toEqual({ connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 });
  });

  it("are added to an SMTP URL, keeping what it sets and the rest of it as written", () => {
    expect(withSmtpTimeouts("smtp://u:p%40ss@smtp.example.com:587")).toBe(
      "smtp://u:p%40ss@smtp.example.com:587?connectionTimeout=10000&greetingTimeout=10000&socketTimeout=15000",
    );
    expect(withSmtpTimeouts("smtps://smtp.example.com?tls.rejectUnauthorized=false&socketTimeout=60000")).toBe(
      "smtps://smtp.example.com?tls.rejectUnauthorized=false&socketTimeout=60000&connectionTimeout=10000&greetingTimeout=10000",
    );
  });

  it("are added to transport options (the options win), and to the URL of options that have one", () => {
    expect(withSmtpTimeouts({ host: "smtp.example.com", port: 25, socketTimeout: 1_000 })).toEqual({
      host: "smtp.example.com",
      port: 25,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 1_000,
    });
    expect(withSmtpTimeouts({ url: "smtp://smtp.example.com" })).toEqual({
      url: "smtp://smtp.example.com?connectionTimeout=10000&greetingTimeout=10000&socketTimeout=15000",
    });
  });

  it("leave a transport instance and non-SMTP URLs alone", () => {
    const instance = { send: () => undefined };
    expect(withSmtpTimeouts(instance)).toBe(instance);
    expect(withSmtpTimeouts("direct://")).toBe("direct://");
  });
});
