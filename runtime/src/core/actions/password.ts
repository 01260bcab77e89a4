/**
 * The actions of the `Password` provider: `signup`, `forgot-password`,
 * `reset-password` and `change-password`. GET shows the form (built in, or a
 * redirect to the app's own page with the same query); POST does the work (see
 * `password-accounts/`).
 */
import { renderForgotPasswordPage, renderResetPasswordPage, renderSignUpPage } from "../../pages/index.js";
import type { ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";
import { UnknownAction } from "../errors/errors.js";
import { PAGE_HEADERS } from "../http/pages-headers.js";
import { formCallbackUrl } from "../http/callback-url.js";
import { passwordPages } from "../password-accounts/pages.js";
import type { ResolvedPasswordProvider } from "../password-accounts/provider.js";
import { forgotPasswordPost, resetPasswordPost } from "../password-accounts/reset.js";
import { changePasswordPost } from "../password-accounts/change.js";
import { signUpPost } from "../password-accounts/sign-up.js";

/** The config's `Password` provider; without one these paths do not exist. */
function passwordProvider(ctx: RequestContext): ResolvedPasswordProvider {
  const provider = ctx.config.providers.find((p) => p.password !== undefined);
  if (!provider) throw new UnknownAction(`${ctx.config.basePath}/${ctx.route.action} needs a Password provider, and none is configured.`);
  return provider;
}

/** The query a form page reads, passed on to the app's own page. */
function pageQuery(ctx: RequestContext, names: string[]): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = { callbackUrl: formCallbackUrl(ctx) };
  for (const name of names) params[name] = ctx.query.get(name) ?? undefined;
  return params;
}

function page(html: string): ResponseInternal {
  return { headers: PAGE_HEADERS, body: html };
}

export async function signUpAction(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx);
  if (ctx.route.method === "POST") return signUpPost(ctx, provider);
  const query = pageQuery(ctx, ["error", "code", "email"]);
  if (ctx.config.pages.signUp) return { redirect: passwordPages.signUp(ctx, query) };
  return page(
    renderSignUpPage({
      action: `${ctx.authUrl}/signup`,
      csrfToken: ctx.config.csrfCheck ? ctx.csrf().token : undefined,
      callbackUrl: query.callbackUrl ?? ctx.origin,
      signInUrl: passwordPages.signIn(ctx, { callbackUrl: query.callbackUrl }),
      email: query.email,
      code: query.code,
      minPasswordLength: provider.password.minLength,
      maxPasswordLength: provider.password.maxLength,
      theme: ctx.config.theme,
    }),
  );
}

export async function forgotPasswordAction(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx);
  if (ctx.route.method === "POST") return forgotPasswordPost(ctx, provider);
  const query = pageQuery(ctx, ["error", "code"]);
  if (ctx.config.pages.forgotPassword) return { redirect: passwordPages.forgotPassword(ctx, query) };
  return page(
    renderForgotPasswordPage({
      action: `${ctx.authUrl}/forgot-password`,
      csrfToken: ctx.config.csrfCheck ? ctx.csrf().token : undefined,
      callbackUrl: query.callbackUrl ?? ctx.origin,
      signInUrl: passwordPages.signIn(ctx, { callbackUrl: query.callbackUrl }),
      code: query.code,
      theme: ctx.config.theme,
    }),
  );
}

export async function resetPasswordAction(ctx: RequestContext): Promise<ResponseInternal> {
  const provider = passwordProvider(ctx);
  if (ctx.route.method === "POST") return resetPasswordPost(ctx, provider);
  const query = pageQuery(ctx, ["error", "code", "email", "token"]);
  if (ctx.config.pages.resetPassword) return { redirect: passwordPages.resetPassword(ctx, query) };
  // Opening the link uses nothing up: only the form's POST does (mail scanners fetch links, they do not post forms).
  return page(
    renderResetPasswordPage({
      action: `${ctx.authUrl}/reset-password`,
      csrfToken: ctx.config.csrfCheck ? ctx.csrf().token : undefined,
      callbackUrl: query.callbackUrl ?? ctx.origin,
      email: query.email ?? "",
      token: query.token ?? "",
      code: query.code,
      minPasswordLength: provider.password.minLength,
      maxPasswordLength: provider.password.maxLength,
      theme: ctx.config.theme,
    }),
  );
}

/** POST only: the form lives on the app's account page. */
export async function changePasswordAction(ctx: RequestContext): Promise<ResponseInternal> {
  return changePasswordPost(ctx, passwordProvider(ctx));
}
