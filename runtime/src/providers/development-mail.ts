/**
 * Mail in development, without a mail server: each mail is printed on the
 * server's console (who it was for, its subject and its link) and kept as a
 * file, so sign-up and password reset work offline. It says plainly that
 * nothing was sent. Never a production transport: a `Password` provider uses it
 * only with `developmentMail: true`.
 */
import type { PasswordMailMessage } from "./password.js";
import { importOptional } from "../core/optional-import.js";

/** Where the mails are kept, relative to the server's working directory. */
export const DEVELOPMENT_MAIL_DIR = ".gatehouse/mail";

type FsModule = {
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  writeFile(path: string, data: string, options: { mode: number; flag: string }): Promise<void>;
};

async function loadFs(): Promise<FsModule | undefined> {
  try {
    // Not a literal: bundlers for edge runtimes must not try to include node:fs.
    return (await importOptional("fs")) as FsModule;
  } catch {
    return undefined;
  }
}

/** The mail as an RFC 5322 message (plain text), readable in any mail program or editor. */
export function developmentMailFile(message: PasswordMailMessage, date: Date): string {
  const header = (name: string, value: string) => `${name}: ${value.replace(/[\r\n]+/g, " ")}`;
  return [
    header("Date", date.toUTCString()),
    header("From", message.from ?? "(no sender configured)"),
    header("To", message.to),
    header("Subject", message.subject),
    header("X-Gatehouse-Mail", message.kind),
    "Content-Type: text/plain; charset=utf-8",
    "",
    message.text,
  ].join("\r\n");
}

/**
 * Prints the mail's link on the console and writes the mail to
 * `.gatehouse/mail/<time>-<kind>.eml`, readable by the server's user only (the
 * link in it signs in). On a runtime without a file system, the console only.
 */
export async function developmentMail(message: PasswordMailMessage): Promise<void> {
  const date = new Date();
  let saved = "not saved (no file system)";
  const fs = await loadFs();
  if (fs) {
    const file = `${DEVELOPMENT_MAIL_DIR}/${date.toISOString().replace(/[:.]/g, "-")}-${message.kind}-${crypto.randomUUID().slice(0, 8)}.eml`;
    await fs.mkdir(DEVELOPMENT_MAIL_DIR, { recursive: true, mode: 0o700 });
    // "wx": a new file, never one that is there (a link to elsewhere included).
    await fs.writeFile(file, developmentMailFile(message, date), { mode: 0o600, flag: "wx" });
    saved = file;
  }
  console.info(
    [
      "[auth] Development mail: NOT SENT (no mail server is configured; set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM to send mail).",
      `  To:      ${message.to}`,
      `  Subject: ${message.subject}`,
      `  Link:    ${message.url}`,
      `  Saved:   ${saved}`,
    ].join("\n"),
  );
}
