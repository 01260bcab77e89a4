/**
 * The mails of password accounts. Pure: what to send, not how. None of them
 * tells a reader who did not ask for it anything they could not learn by
 * asking themselves, and each says what to do if it was not them.
 */
import type { Theme } from "../types.js";
import { linkMail, type VerificationMail } from "./email-message.js";
import type { PasswordMailKind } from "./password.js";

export interface PasswordMailInput {
  kind: PasswordMailKind;
  url: string;
  /** The site's host, shown to the reader (`example.com`). */
  host: string;
  /** How long the link works, in seconds (said in the mail). */
  maxAge: number;
  theme?: Theme;
}

/** "1 hour", "24 hours", "30 minutes". */
export function duration(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  return unit(Math.max(1, Math.round(seconds / 60)), "minute");
}

/** The subject, text and HTML of a password-account mail. */
export function passwordMail({ kind, url, host, maxAge, theme }: PasswordMailInput): VerificationMail {
  const works = `The link works for ${duration(maxAge)}.`;
  switch (kind) {
    case "confirm-sign-up":
      return linkMail({
        host,
        theme,
        url,
        subject: `Confirm your email address for ${host}`,
        heading: "Confirm your address for",
        paragraphs: [
          "Someone, hopefully you, created an account with this email address. Open the link and enter the password you chose to finish.",
          works,
        ],
        button: "Confirm my address",
        footer: "If it was not you, ignore this mail: nobody can sign in with this address until it is confirmed.",
      });
    case "account-exists":
      return linkMail({
        host,
        theme,
        url,
        subject: `You already have an account at ${host}`,
        heading: "You already have an account at",
        paragraphs: [
          "Someone, hopefully you, tried to create an account with this email address, but it has one already: sign in as you did before.",
          `Forgot how? Choose a new password with this link. ${works}`,
        ],
        button: "Choose a new password",
        footer: "If it was not you, ignore this mail: nothing was changed.",
      });
    case "reset-password":
      return linkMail({
        host,
        theme,
        url,
        subject: `Choose a new password for ${host}`,
        heading: "Choose a new password for",
        paragraphs: [`Someone, hopefully you, asked to reset the password of your account. ${works}`, "Setting a new password signs you out everywhere else."],
        button: "Choose a new password",
        footer: "If it was not you, ignore this mail: your password stays as it is.",
      });
    case "no-account":
      return linkMail({
        host,
        theme,
        url,
        subject: `No account at ${host}`,
        heading: "No account at",
        paragraphs: [
          "Someone, hopefully you, asked to reset a password for this email address, but it has no account here. Did you sign up with another address?",
          "To create an account with this one, use the link.",
        ],
        button: "Create an account",
        footer: "If it was not you, ignore this mail: nothing was changed.",
      });
  }
}
