/**
 * The built-in error page. Only the known Auth.js error names select a message;
 * the error value itself is never shown, since it comes from the query string.
 */
import { escapeHtml, safeUrl } from "./escape.js";
import { renderDocument } from "./layout.js";
import type { ErrorPageParams, ErrorPageResult, ProviderSetupHint } from "./types.js";

interface ErrorView {
  status: number;
  heading: string;
  message: string;
  link?: "signin" | "home";
}

const DEFAULT_ERROR: ErrorView = {
  status: 400,
  heading: "Error",
  message: "Something went wrong.",
  link: "home",
};

// A Map so that "constructor", "__proto__" and friends fall through to the default.
const ERRORS = new Map<string, ErrorView>([
  [
    "Configuration",
    {
      status: 500,
      heading: "Server error",
      message: "There is a problem with the server configuration. Check the server logs for more information.",
    },
  ],
  [
    "AccessDenied",
    {
      status: 403,
      heading: "Access Denied",
      message: "You do not have permission to sign in.",
      // As in Auth.js: another account may well be allowed.
      link: "signin",
    },
  ],
  [
    "Verification",
    {
      status: 403,
      heading: "Unable to sign in",
      message: "The sign in link is no longer valid. It may have been used already or it may have expired.",
      link: "signin",
    },
  ],
  [
    "WebAuthnVerificationError",
    {
      status: 400,
      heading: "Unable to sign in",
      message: "The passkey could not be verified. Try again, or sign in another way.",
      link: "signin",
    },
  ],
  [
    // The app's own code failed (an `authorize` that threw, say): not a configuration problem, and not the user's doing.
    "ServerError",
    {
      status: 500,
      heading: "Something went wrong",
      message: "The server could not finish what you asked. Please try again in a moment. If it keeps happening, contact the site's owner.",
      link: "signin",
    },
  ],
  [
    // A link to a sign-in method or page this app does not have: an old bookmark, a provider removed, a mistyped address.
    "UnknownAction",
    {
      status: 400,
      heading: "This link does not work",
      message: "The address names a sign-in page or sign-in method this site does not have. It may be out of date or mistyped. Start again from the sign-in page.",
      link: "signin",
    },
  ],
  [
    "InvalidRequest",
    {
      status: 400,
      heading: "Unable to sign in",
      message: "The request could not be read. Go back and try again, or start again from the sign-in page.",
      link: "signin",
    },
  ],
  [
    "RateLimited",
    {
      status: 429,
      heading: "Too many attempts",
      message: "There have been too many sign-in attempts. Please wait a few minutes and try again.",
      link: "signin",
    },
  ],
]);

/** "about 15 minutes", "30 seconds": how long to wait, for people. */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `about ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** What a developer sees instead of "Server error" when an OAuth provider lacks its keys (development only). */
function setupBody(setup: ProviderSetupHint): string {
  const keys = setup.envKeys.map((key) => `<code>${escapeHtml(key)}</code>`).join(" and ");
  const where = setup.setupUrl
    ? `Register an OAuth app at <a href="${safeUrl(setup.setupUrl)}">${escapeHtml(setup.setupUrl)}</a> with this callback URL:`
    : `Register this app with ${escapeHtml(setup.name)}, with this callback URL:`;
  return (
    `<h1>Sign in with ${escapeHtml(setup.name)} is not set up yet</h1>\n` +
    `<p class="message">Set ${keys} in <code>.env</code>, then restart the dev server.</p>\n` +
    `<div class="setup">\n<p>${where}</p>\n<p><code class="to-copy">${escapeHtml(setup.callbackUrl)}</code></p>\n` +
    `<p>The keys it gives you go into those variables. This explanation shows in development only; in production this page says "Server error".</p>\n</div>\n`
  );
}

export function renderErrorPage(p: ErrorPageParams): ErrorPageResult {
  const known = (p.error !== undefined ? ERRORS.get(p.error) : undefined) ?? DEFAULT_ERROR;
  const wait = p.error === "RateLimited" && p.retryAfter !== undefined && Number.isSafeInteger(p.retryAfter) && p.retryAfter > 0;
  const view = wait
    ? { ...known, message: `There have been too many sign-in attempts. Please try again in ${waitText(p.retryAfter!)}.` }
    : known;
  const link =
    view.link === "signin"
      ? `<p class="actions"><a class="button" href="${safeUrl(p.signinUrl)}">Sign in</a></p>\n`
      : view.link === "home"
        ? `<p class="actions"><a href="${safeUrl(p.homeUrl)}">Go to the home page</a></p>\n`
        : "";
  const html = renderDocument({
    title: p.providerSetup ? `${p.providerSetup.name} is not set up` : view.heading,
    theme: p.theme,
    page: "error",
    body: p.providerSetup
      ? `${setupBody(p.providerSetup)}${link}`
      : `<h1>${escapeHtml(view.heading)}</h1>\n<p class="message">${escapeHtml(view.message)}</p>\n${link}`,
  });
  return { status: view.status, html };
}
