/** `GET signin` renders the sign-in page; `POST signin/<provider>` starts a sign-in. */
import { renderSignInPage, signInPageScript, type SignInPageProvider } from "../../pages/index.js";
import type { ResponseInternal } from "../../types.js";
import { requestedCallbackUrl } from "../http/callback-url.js";
import type { RequestContext } from "../context.js";
import { pageUrl, pathProvider, requireCsrf } from "../guards.js";
import { startEmailSignIn } from "../email/signin.js";
import { startOAuthSignIn } from "../oauth/authorize.js";
import { PAGE_HEADERS, pageHeadersWithScript } from "../http/pages-headers.js";
import { unsupportedProvider } from "../config/providers.js";
import { sameOriginUrl } from "../http/redirect.js";

export async function signInPage(ctx: RequestContext): Promise<ResponseInternal> {
  const { config } = ctx;
  // `signin/<id>` shows the page too, but an id that names no provider is a broken link, said as such.
  if (ctx.route.providerId !== undefined) pathProvider(ctx);
  const callbackUrl = sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? ctx.origin;
  const error = ctx.query.get("error") ?? undefined;
  const code = ctx.query.get("code") ?? undefined;
  if (config.pages.signIn) {
    return { redirect: pageUrl(ctx, config.pages.signIn, "signin", { callbackUrl, error, code }) };
  }
  const csrf = config.csrfCheck ? ctx.csrf() : undefined;
  const providers: SignInPageProvider[] = config.providers.map((p) => ({
    id: p.id,
    name: p.name,
    type: p.type,
    signinUrl: `${ctx.authUrl}/signin/${p.id}`,
    callbackUrl: `${ctx.authUrl}/callback/${p.id}`,
    ...(p.type === "credentials" ? { credentials: p.credentials ?? {} } : {}),
    ...(p.password ? { password: { signUpUrl: `${ctx.authUrl}/signup`, forgotPasswordUrl: `${ctx.authUrl}/forgot-password` } } : {}),
    ...(p.type === "webauthn"
      ? {
          formFields: p.formFields,
          enableConditionalUI: p.enableConditionalUI !== false,
          webauthnOptionsUrl: `${ctx.authUrl}/webauthn-options/${p.id}`,
        }
      : {}),
  }));
  const html = renderSignInPage({ providers, csrfToken: csrf?.token, callbackUrl, error, code, confirm: confirmation(ctx), theme: config.theme });
  // Only a page with a passkey form runs a script; every other page keeps the script-free CSP.
  const script = signInPageScript(providers);
  return { headers: script === undefined ? PAGE_HEADERS : await pageHeadersWithScript(script), body: html };
}

/** A sign-up's confirmation link opens this page with `?email=&confirm=`: the password form then confirms the address. */
function confirmation(ctx: RequestContext): { email: string; token: string } | undefined {
  const token = ctx.query.get("confirm");
  const email = ctx.query.get("email");
  if (!token || !email || !ctx.config.providers.some((p) => p.password)) return undefined;
  return { email, token };
}

export async function signInPost(ctx: RequestContext): Promise<ResponseInternal> {
  requireCsrf(ctx);
  const callbackUrl = sameOriginUrl(requestedCallbackUrl(ctx), ctx.origin) ?? undefined;
  if (ctx.route.providerId === undefined) {
    return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", { callbackUrl }) };
  }
  const provider = pathProvider(ctx);
  if (provider.type === "credentials") {
    // Credentials are checked at callback/<id>; a POST here just shows the form.
    return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", { callbackUrl }) };
  }
  if (provider.oauth) return startOAuthSignIn(ctx, provider, callbackUrl);
  if (provider.type === "email") return startEmailSignIn(ctx, provider, callbackUrl);
  if (provider.type === "webauthn") {
    // Passkeys start in the browser (webauthn-options, then callback): without JavaScript, show the page.
    return { redirect: pageUrl(ctx, ctx.config.pages.signIn, "signin", { callbackUrl }) };
  }
  throw unsupportedProvider(provider);
}
