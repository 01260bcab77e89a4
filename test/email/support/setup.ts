/** One SMTP server per test file, emptied before each test, and a Nodemailer config that sends to it. */
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { Nodemailer } from "@gatehouse/runtime/providers";
import { captureLogger, SECRET } from "../../helpers.js";
import { ledgerAdapter } from "./adapter.js";
import { startMailServer, type MailServer } from "./smtp.js";

export const FROM = "Sign in <no-reply@example.com>";

/** Starts the server before the file's tests; `mail()` is it. */
export function useMailServer(): () => MailServer {
  let mail: MailServer;
  beforeAll(async () => {
    mail = await startMailServer();
  });
  afterAll(() => mail.close());
  beforeEach(() => {
    mail.messages.length = 0;
    mail.refuseRecipients(false);
  });
  return () => mail;
}

/** A memory-adapter config whose Nodemailer provider sends to `mail`; the logger captures. */
export function emailSetup(mail: MailServer, overrides: Partial<AuthConfig> = {}, providerOptions: Parameters<typeof Nodemailer>[0] = {}) {
  const adapter = ledgerAdapter();
  const log = captureLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    adapter,
    providers: [Nodemailer({ server: mail.url, from: FROM, ...providerOptions })],
    ...overrides,
  };
  return { config, adapter, log };
}
