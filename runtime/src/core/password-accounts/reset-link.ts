/** A link to choose a new password, for the "forgot password" form and for a sign-up with a taken address. */
import type { AdapterUser } from "../../adapters/types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { issueLink, linkIdentifier } from "./links.js";
import { passwordPages } from "./pages.js";
import type { ResolvedPasswordProvider } from "./provider.js";

/** Stores a reset link for `user`'s current password (or none) and returns its URL. */
export async function issueResetLink(
  ctx: RequestContext,
  provider: ResolvedPasswordProvider,
  user: AdapterUser,
  callbackUrl: string | undefined,
): Promise<string> {
  const current = await callAdapter(ctx.config.adapter!, "getUserPassword", user.id);
  const token = await issueLink(ctx, await linkIdentifier("reset-password", user.email, current), provider.password.resetMaxAge);
  return passwordPages.resetPassword(ctx, { email: user.email, token, callbackUrl });
}
