/**
 * Who a followed sign-in link is: the user with that address, or a new one. The
 * address is verified by the link itself, so `emailVerified` is set the first
 * time, and an `email` account records how the user signs in.
 */
import type { AdapterAccount, AdapterUser } from "../../adapters/types.js";
import type { Account } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { AdapterError } from "../errors.js";
import { emit } from "../events.js";
import type { ResolvedEmailProvider } from "./provider.js";

export interface EmailSignInPlan {
  /** The stored user, or the one to create (its id is a placeholder until the adapter assigns one). */
  user: AdapterUser;
  exists: boolean;
  account: Account;
}

export async function planEmailUser(ctx: RequestContext, provider: ResolvedEmailProvider, identifier: string): Promise<EmailSignInPlan> {
  const existing = await callAdapter(ctx.config.adapter!, "getUserByEmail", identifier);
  const user: AdapterUser = existing ?? { id: crypto.randomUUID(), email: identifier, emailVerified: null };
  const account: Account = { providerAccountId: identifier, userId: user.id, type: "email", provider: provider.id };
  return { user, exists: existing !== null, account };
}

/** Carries out the plan after the `signIn` callback agreed: create or verify the user, link the account. */
export async function applyEmailPlan(ctx: RequestContext, plan: EmailSignInPlan): Promise<{ user: AdapterUser; account: Account; isNewUser: boolean }> {
  const { config } = ctx;
  const adapter = config.adapter!;
  const identifier = plan.account.providerAccountId;
  let user: AdapterUser;
  let isNewUser = false;
  if (plan.exists) {
    user = plan.user;
    if (!user.emailVerified) {
      user = await callAdapter(adapter, "updateUser", { id: user.id, emailVerified: new Date() });
      await emit(config, "updateUser", { user });
    }
  } else {
    try {
      user = await callAdapter(adapter, "createUser", { email: identifier, emailVerified: new Date(), name: null, image: null } as unknown as AdapterUser);
      isNewUser = true;
      await emit(config, "createUser", { user });
    } catch (error) {
      // The same person following two links at once: the other request created the user.
      const raced = await callAdapter(adapter, "getUserByEmail", identifier);
      if (!raced) throw error instanceof AdapterError ? error : new AdapterError("createUser failed.", error as Error);
      user = raced;
    }
  }
  const account = { ...plan.account, userId: user.id };
  await linkEmailAccount(ctx, user, account);
  return { user, account, isNewUser };
}

async function linkEmailAccount(ctx: RequestContext, user: AdapterUser, account: Account): Promise<void> {
  const adapter = ctx.config.adapter!;
  const key = { provider: account.provider, providerAccountId: account.providerAccountId };
  const linked = await callAdapter(adapter, "getUserByAccount", key);
  if (linked) {
    // Linked to someone else only if that user changed their address since; their link stays theirs.
    if (linked.id !== user.id) ctx.config.logger.debug("email account is linked to another user", { provider: account.provider });
    return;
  }
  const stored = { ...account, userId: user.id, type: "email" } as AdapterAccount;
  try {
    await callAdapter(adapter, "linkAccount", stored);
  } catch (error) {
    // A concurrent sign-in with the same link target linked it first: that is the outcome we wanted.
    const raced = await callAdapter(adapter, "getUserByAccount", key).catch(() => null);
    if (raced?.id === user.id) return;
    throw error;
  }
  await emit(ctx.config, "linkAccount", { user, account: stored, profile: user });
}
