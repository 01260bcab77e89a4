/**
 * The sign-in mail: plain text and HTML, in the sign-in page's colours, with
 * nothing fetched from elsewhere (mail clients block remote images, and a
 * tracking-free mail is the polite default). Pure: what to send, not how.
 */
import { escapeHtml, safeColor } from "../pages/escape.js";
import type { Theme } from "../types.js";

export interface VerificationMailInput {
  /** The sign-in link. */
  url: string;
  /** The site's host, shown to the reader (`example.com`). */
  host: string;
  theme?: Theme;
}

export interface VerificationMail {
  subject: string;
  text: string;
  html: string;
}

const DEFAULT_BRAND = "#2f5fd0";

/**
 * The subject, text and HTML of a sign-in mail; for `sendVerificationRequest`
 * functions that deliver mail through an HTTP API.
 *
 * @example
 * ```ts
 * const { subject, text, html } = verificationMail({ url, host: new URL(url).host, theme });
 * ```
 */
export function verificationMail({ url, host, theme }: VerificationMailInput): VerificationMail {
  return linkMail({
    host,
    theme,
    subject: `Sign in to ${host}`,
    heading: "Sign in to",
    paragraphs: [],
    button: "Sign in",
    url,
    footer: "If you did not ask for this email, you can safely ignore it.",
  });
}

/** What differs between the runtime's mails: words around one link. */
export interface LinkMailInput {
  host: string;
  theme?: Theme;
  subject: string;
  /** Shown before the host, in bold: "Sign in to" example.com. */
  heading: string;
  /** Plain text, one paragraph each, above the button. */
  paragraphs: string[];
  button: string;
  url: string;
  /** The small print under the button. */
  footer: string;
}

/**
 * A mail of one link, in plain text and HTML: the layout every mail of the
 * runtime shares (sign-in links, sign-up confirmation, password reset).
 */
export function linkMail({ host, theme, subject, heading, paragraphs, button, url, footer }: LinkMailInput): VerificationMail {
  // Zero-width spaces keep mail clients from turning the host into a second, bare link.
  const shownHost = escapeHtml(host).replace(/\./g, "&#8203;.");
  const brand = safeColor(theme?.brandColor) || DEFAULT_BRAND;
  const buttonText = safeColor(theme?.buttonText) || "#ffffff";
  const link = escapeHtml(url);
  const rows = paragraphs
    .map((paragraph) => `<tr><td style="padding:8px 28px 0;font-size:15px;line-height:1.5;">${escapeHtml(paragraph)}</td></tr>\n`)
    .join("");
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f3f4f6;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#111827;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:480px;margin:0 auto;background:#ffffff;border:1px solid #d1d5db;border-radius:12px;">
<tr><td style="padding:32px 28px 8px;text-align:center;font-size:20px;font-weight:600;">${escapeHtml(heading)} <strong>${shownHost}</strong></td></tr>
${rows}<tr><td style="padding:16px 28px;text-align:center;">
<a href="${link}" target="_blank" style="display:inline-block;padding:12px 24px;background:${brand};color:${buttonText};border-radius:8px;font-weight:600;text-decoration:none;">${escapeHtml(button)}</a>
</td></tr>
<tr><td style="padding:8px 28px 32px;text-align:center;font-size:14px;color:#4b5563;">${escapeHtml(footer)}</td></tr>
</table>
</body>
</html>
`;
  const text = `${heading} ${host}\n\n${paragraphs.map((paragraph) => `${paragraph}\n\n`).join("")}${url}\n\n${footer}\n`;
  return { subject, text, html };
}
