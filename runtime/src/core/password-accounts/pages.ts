/**
 * Where the password forms live and where their links lead: the app's own
 * pages (`pages.signUp`, `pages.forgotPassword`, `pages.resetPassword`,
 * `pages.signIn`) or the built-in ones, with the query each one reads.
 */
import type { ResponseInternal } from "../../types.js";
import type { RequestContext } from "../context.js";
import { pageUrl } from "../guards.js";

type Params = Record<string, string | undefined>;

export const passwordPages = {
  signUp: (ctx: RequestContext, params: Params) => pageUrl(ctx, ctx.config.pages.signUp, "signup", params),
  forgotPassword: (ctx: RequestContext, params: Params) => pageUrl(ctx, ctx.config.pages.forgotPassword, "forgot-password", params),
  resetPassword: (ctx: RequestContext, params: Params) => pageUrl(ctx, ctx.config.pages.resetPassword, "reset-password", params),
  signIn: (ctx: RequestContext, params: Params) => pageUrl(ctx, ctx.config.pages.signIn, "signin", params),
  /** "Check your email", saying which mail (`sign-up` or `password-reset`). */
  checkEmail: (ctx: RequestContext, providerId: string, type: "sign-up" | "password-reset"): ResponseInternal => ({
    redirect: pageUrl(ctx, ctx.config.pages.verifyRequest, "verify-request", { provider: providerId, type }),
  }),
};
