/**
 * Who an OAuth/OIDC sign-in is: the user already linked to the provider account,
 * the signed-in user (who links a new provider), or a new user. An address the
 * provider does not vouch for is only a claim: it finds nobody, so an existing
 * user with that email refuses the sign-in (`OAuthAccountNotLinked`), whatever
 * `allowDangerousEmailAccountLinking` says. A vouched-for address proves it:
 * it takes over a user who only claimed it (see `proven-email.ts`), and links
 * to a user who proved it only where the provider opts into email linking.
 * The plan is made before anything is written, so the `signIn` callback can
 * refuse with nothing stored.
 */
import { ACCOUNT_TOKEN_FIELDS } from "../../adapters/account-token-fields.js";
import type { AdapterAccount, AdapterAccountUpdate, AdapterNewUser, AdapterUser } from "../../adapters/types.js";
import type { Account, User } from "../../types.js";
import { callAdapter } from "../adapter.js";
import { accountSubject } from "../oauth/subject.js";
import type { RequestContext } from "../context.js";
import { AdapterError, OAuthAccountNotLinked } from "../errors/errors.js";
import { emit } from "../events.js";
import { adoptUnprovenUser, emailProven, markEmailProven } from "./proven-email.js";

export type LinkPlan =
  /** No adapter: the provider's profile is the user (JWT sessions only). */
  | { kind: "profile"; user: User }
  /** `proves`: the provider vouches for the user's address, which was not proven yet. */
  | { kind: "existing"; user: AdapterUser; proves: boolean }
  | { kind: "link"; user: AdapterUser }
  /** The user holds the address on a claim only; the provider vouches for it. */
  | { kind: "adopt"; user: AdapterUser }
  | { kind: "create"; user: User; emailProven: boolean };

/** What the callback read from the provider: the mapped user, the account, and whether the provider vouches for the email. */
export interface OAuthIdentity {
  user: User & { id: string };
  account: Account;
  emailProven: boolean;
}

/** `current`: who is signed in (the callback read it to check the flow's binding; `null` without an adapter). */
export async function planOAuthUser(
  ctx: RequestContext,
  identity: OAuthIdentity,
  current: AdapterUser | null,
  allowEmailLinking: boolean,
): Promise<LinkPlan> {
  const { user: profileUser, account } = identity;
  const adapter = ctx.config.adapter;
  // No adapter: the profile is the user, under a subject unique across providers (see oauth/subject.ts).
  if (!adapter) return { kind: "profile", user: { ...profileUser, id: await accountSubject(account.provider, account.providerAccountId) } };
  const key = { provider: account.provider, providerAccountId: account.providerAccountId };
  const linked = await callAdapter(adapter, "getUserByAccount", key);
  if (linked) {
    if (current && current.id !== linked.id) {
      throw new OAuthAccountNotLinked(
        `The ${account.provider} account ${account.providerAccountId} is already linked to another user than the one signed in.`,
      );
    }
    return existingPlan(linked, identity);
  }
  if (current) return { kind: "link", user: current };
  const byEmail = profileUser.email ? await callAdapter(adapter, "getUserByEmail", profileUser.email) : null;
  if (!byEmail) return { kind: "create", user: profileUser, emailProven: identity.emailProven };
  if (identity.emailProven) {
    if (!emailProven(byEmail)) return { kind: "adopt", user: byEmail };
    if (allowEmailLinking) return { kind: "link", user: byEmail };
  }
  // The same person's concurrent first sign-in may have created the user and be about to link.
  const raced = await waitForLinkedUser(ctx, key);
  if (raced) return existingPlan(raced, identity);
  throw new OAuthAccountNotLinked(
    identity.emailProven
      ? `A user with the email of this ${account.provider} account exists but has not linked it; sign in the way you did before, then link ${account.provider} while signed in.`
      : `A user with the email of this ${account.provider} account exists, and ${account.provider} does not vouch that the address is this person's: sign in the way you did before, then link ${account.provider} while signed in.`,
  );
}

function existingPlan(user: AdapterUser, identity: OAuthIdentity): LinkPlan {
  return { kind: "existing", user, proves: identity.emailProven && !emailProven(user) && user.email === identity.user.email };
}

/** The account's key and the token fields it carries (absent fields keep their stored values). */
export function tokenUpdate(account: Account): AdapterAccountUpdate {
  const update: AdapterAccountUpdate = { provider: account.provider, providerAccountId: account.providerAccountId };
  const source = account as Record<string, unknown>;
  for (const field of ACCOUNT_TOKEN_FIELDS) if (source[field] !== undefined) (update as Record<string, unknown>)[field] = source[field];
  return update;
}

/** Waits between looks: long enough for a concurrent request's next query, short enough to go unnoticed. */
const RACE_BACKOFF_MS = [20, 60, 150, 300];

/**
 * The user linked to `key` after a concurrent first sign-in of the same account
 * may have stored it. An adapter with `createUserWithAccount` stores the user and
 * the account in one transaction, so whatever a concurrent sign-in created is
 * visible whole: one more look, at once. Without it (Auth.js adapters) the user
 * is created, then the account linked, and between the two this request would
 * see a user it cannot place: it looks a few times over about half a second.
 * A refusal (the address taken by someone who never linked this account) thus
 * answers at once on our adapters.
 */
async function waitForLinkedUser(ctx: RequestContext, key: Pick<Account, "provider" | "providerAccountId">): Promise<AdapterUser | null> {
  const adapter = ctx.config.adapter!;
  const waits = typeof adapter.createUserWithAccount === "function" ? [0] : RACE_BACKOFF_MS;
  for (const delay of waits) {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const user = await callAdapter(adapter, "getUserByAccount", { provider: key.provider, providerAccountId: key.providerAccountId });
    if (user) return user;
  }
  return null;
}

/**
 * Undoes the user this sign-in created when its account could not be linked: a
 * user without the account would hold the email, and every later sign-in of
 * the same person would be refused as `OAuthAccountNotLinked`.
 */
async function removeUnlinkedUser(ctx: RequestContext, user: AdapterUser): Promise<void> {
  const adapter = ctx.config.adapter!;
  if (typeof adapter.deleteUser !== "function") {
    ctx.config.logger.error(new AdapterError(`linkAccount failed after createUser; the adapter has no deleteUser, so user ${user.id} is left without the account.`));
    return;
  }
  try {
    await callAdapter(adapter, "deleteUser", user.id);
  } catch (error) {
    ctx.config.logger.error(new AdapterError(`linkAccount failed after createUser, and removing user ${user.id} failed too.`, error as Error));
  }
}

export interface SignedInUser {
  user: User | AdapterUser;
  isNewUser: boolean;
}

/** Carries out the plan: create the user, link the account, refresh stored tokens; fires the events. */
export async function applyOAuthPlan(ctx: RequestContext, plan: LinkPlan, account: Account, profileUser: User): Promise<SignedInUser> {
  const { config } = ctx;
  const adapter = config.adapter;
  if (plan.kind === "profile" || !adapter) return { user: plan.user, isNewUser: false };
  if (plan.kind === "existing") {
    if (typeof adapter.updateAccount === "function") {
      // A new sign-in brings new tokens; keep the stored ones current.
      await callAdapter(adapter, "updateAccount", tokenUpdate(account));
    }
    // This account's owner already signs in as the user; proving the address hands them nothing new.
    const user = plan.proves ? await markEmailProven(ctx, plan.user) : plan.user;
    return { user, isNewUser: false };
  }
  if (plan.kind === "create" && typeof adapter.createUserWithAccount === "function") {
    return createLinkedUser(ctx, newUserOf(plan.user, plan.emailProven), account, profileUser);
  }
  let user: AdapterUser;
  let isNewUser = false;
  if (plan.kind === "create") {
    try {
      user = await callAdapter(adapter, "createUser", newUserOf(plan.user, plan.emailProven) as AdapterUser);
    } catch (error) {
      // Two first sign-ins of the same person at once: the other one created the user (and links it).
      const raced = await waitForLinkedUser(ctx, account);
      if (raced) return { user: raced, isNewUser: false };
      throw error instanceof AdapterError ? error : new AdapterError("createUser failed.", error as Error);
    }
    isNewUser = true;
    await emit(config, "createUser", { user });
  } else if (plan.kind === "adopt") {
    user = await adoptUnprovenUser(ctx, plan.user);
  } else {
    user = plan.user;
  }
  const linked = { ...account, userId: user.id, type: account.type } as AdapterAccount;
  try {
    await callAdapter(adapter, "linkAccount", linked);
  } catch (error) {
    // A concurrent sign-in linked the same account to the same user first: that is the outcome we wanted.
    const raced = await callAdapter(adapter, "getUserByAccount", { provider: account.provider, providerAccountId: account.providerAccountId }).catch(() => null);
    if (raced && raced.id === user.id) return { user, isNewUser };
    if (isNewUser) await removeUnlinkedUser(ctx, user);
    throw error;
  }
  await emit(config, "linkAccount", { user, account: linked, profile: profileUser });
  return { user, isNewUser };
}

/**
 * The user a first sign-in creates: the profile's fields, without the provider's
 * id (the adapter assigns one), and `emailVerified` only when the provider vouches
 * for the address (whatever `profile()` returned for it).
 */
function newUserOf(profile: User, proven: boolean): AdapterNewUser {
  const { id: _providerId, ...fields } = profile;
  const email = fields.email ?? null;
  return { ...fields, email, emailVerified: proven && email ? new Date() : null } as AdapterNewUser;
}

/**
 * The first sign-in of a new user through the adapter's `createUserWithAccount`:
 * the user and the account are stored in one transaction, so a failure (or a
 * crash) leaves no user without its account, and there is nothing to undo.
 */
async function createLinkedUser(ctx: RequestContext, newUser: AdapterNewUser, account: Account, profileUser: User): Promise<SignedInUser> {
  const { config } = ctx;
  const { userId: _none, ...toLink } = account as AdapterAccount;
  let user: AdapterUser;
  try {
    user = await callAdapter(config.adapter!, "createUserWithAccount", newUser, toLink);
  } catch (error) {
    // Two first sign-ins of the same person at once: the other one stored the user and its account first.
    const raced = await waitForLinkedUser(ctx, account).catch(() => null);
    if (raced) return { user: raced, isNewUser: false };
    throw error;
  }
  await emit(config, "createUser", { user });
  await emit(config, "linkAccount", { user, account: { ...toLink, userId: user.id }, profile: profileUser });
  return { user, isNewUser: true };
}
