/**
 * Who a followed sign-in link is: the user with that address, or a new one. The
 * link proves the address: a new user is created proven, and a user who held
 * the address on a claim only is handed over without what its creator set up
 * (see `proven-email.ts`). An `email` account records how the user signs in.
 */
import type { AdapterAccount, AdapterNewUser, AdapterUser } from "../../adapters/types.js";
import type { Account } from "../../types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { AdapterError } from "../errors/errors.js";
import { emit } from "../events.js";
import { adoptUnprovenUser, emailProven } from "../identity/proven-email.js";
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
  let user: AdapterUser;
  let isNewUser = false;
  let linked = false;
  if (plan.exists) {
    user = plan.user;
  } else {
    ({ user, isNewUser, linked } = await createEmailUser(ctx, plan));
    if (isNewUser) await emit(config, "createUser", { user });
  }
  // Also a user another request created meanwhile: a claim made at the same moment is a claim all the same.
  if (!emailProven(user)) user = await adoptUnprovenUser(ctx, user);
  const account = { ...plan.account, userId: user.id };
  if (linked) await emit(config, "linkAccount", { user, account: { ...account, type: "email" } as AdapterAccount, profile: user });
  else await linkEmailAccount(ctx, user, account);
  return { user, account, isNewUser };
}

interface CreatedEmailUser {
  user: AdapterUser;
  /** False when a concurrent sign-in created the user first. */
  isNewUser: boolean;
  /** Whether the email account was stored with the user (`createUserWithAccount`). */
  linked: boolean;
}

/**
 * Creates the user of a first email sign-in. With the adapter's
 * `createUserWithAccount`, the user and its email account are stored in one
 * transaction (nothing half-written); without it, `createUser` alone, and the
 * account is linked after.
 */
async function createEmailUser(ctx: RequestContext, plan: EmailSignInPlan): Promise<CreatedEmailUser> {
  const adapter = ctx.config.adapter!;
  const identifier = plan.account.providerAccountId;
  const newUser: AdapterNewUser = { email: identifier, emailVerified: new Date(), name: null, image: null };
  if (typeof adapter.createUserWithAccount === "function") {
    const { userId: _placeholder, ...account } = { ...plan.account, type: "email" } as AdapterAccount;
    try {
      return { user: await callAdapter(adapter, "createUserWithAccount", newUser, account), isNewUser: true, linked: true };
    } catch (error) {
      // Nothing was stored. The same person following two links at once: the other request created the user.
      const raced = await callAdapter(adapter, "getUserByEmail", identifier).catch(() => null);
      if (raced) return { user: raced, isNewUser: false, linked: false };
      // The address's email account is still linked to a user who has changed address since: theirs it
      // stays (see linkEmailAccount), and the new user is created without it, as without the extension.
      const holder = await callAdapter(adapter, "getUserByAccount", { provider: account.provider, providerAccountId: identifier }).catch(() => null);
      if (!holder) throw error;
    }
  }
  try {
    return { user: await callAdapter(adapter, "createUser", newUser as AdapterUser), isNewUser: true, linked: false };
  } catch (error) {
    // The same person following two links at once: the other request created the user.
    const raced = await callAdapter(adapter, "getUserByEmail", identifier);
    if (!raced) throw error instanceof AdapterError ? error : new AdapterError("createUser failed.", error as Error);
    return { user: raced, isNewUser: false, linked: false };
  }
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
