/**
 * Storing a verified passkey: the `webauthn` account (its providerAccountId is
 * the credential id) and the authenticator, for an existing user or for a user
 * created now (in one transaction with the adapter's `createUserWithAccount`).
 * Otherwise a failure part-way undoes what was written, so a retry starts
 * clean; the events fire only once everything is stored.
 */
import type { AdapterAccount, AdapterUser } from "../../adapters/types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import { AccountNotLinked, AdapterError } from "../errors/errors.js";
import { emit } from "../events.js";
import type { UserToBe } from "./challenge.js";
import type { NewAuthenticator } from "./verify.js";

export function emailTaken(cause?: Error): AccountNotLinked {
  return new AccountNotLinked(
    "Another account already exists with this email address: sign in with it, then add a passkey while signed in.",
    cause,
  );
}

async function undo(ctx: RequestContext, what: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    ctx.config.logger.error(new AdapterError(`Undoing a half-stored passkey failed: ${what}.`, error as Error));
  }
}

/** Links the account, then stores the authenticator; unlinks again when that fails. */
async function storePasskey(ctx: RequestContext, account: AdapterAccount, authenticator: NewAuthenticator): Promise<void> {
  const adapter = ctx.config.adapter!;
  await callAdapter(adapter, "linkAccount", account);
  try {
    await callAdapter(adapter, "createAuthenticator", { ...authenticator, userId: account.userId });
  } catch (error) {
    if (typeof adapter.unlinkAccount === "function") {
      const key = { provider: account.provider, providerAccountId: account.providerAccountId };
      await undo(ctx, `unlinking ${account.provider} account ${account.providerAccountId}`, () => callAdapter(adapter, "unlinkAccount", key));
    }
    throw error;
  }
}

/** Adds a passkey to a user who has an account already (registering while signed in). */
export async function addPasskey(ctx: RequestContext, user: AdapterUser, account: AdapterAccount, authenticator: NewAuthenticator): Promise<void> {
  await storePasskey(ctx, account, authenticator);
  await emit(ctx.config, "linkAccount", { user, account, profile: user });
}

/** Creates the user of a sign-up with their first passkey. Returns the stored user (the adapter may assign its own id). */
export async function createPasskeyUser(
  ctx: RequestContext,
  userToBe: UserToBe,
  account: Pick<AdapterAccount, "provider" | "providerAccountId" | "type">,
  authenticator: NewAuthenticator,
): Promise<AdapterUser> {
  const { config } = ctx;
  const adapter = config.adapter!;
  let user: AdapterUser;
  if (typeof adapter.createUserWithAccount === "function") {
    // User, account and authenticator in one transaction: if any of it fails, nothing is stored and nothing needs undoing.
    const newUser = { ...userToBe, emailVerified: null };
    user = await createOrRefuseTakenEmail(ctx, userToBe, () => callAdapter(adapter, "createUserWithAccount", newUser, account, authenticator));
  } else {
    user = await createThenStore(ctx, userToBe, account, authenticator);
  }
  await emit(config, "createUser", { user });
  await emit(config, "linkAccount", { user, account: { ...account, userId: user.id }, profile: user });
  return user;
}

/** The user `create` stored; when it fails because someone signed up with the same address since it was checked, `AccountNotLinked`. */
async function createOrRefuseTakenEmail(ctx: RequestContext, userToBe: UserToBe, create: () => Promise<AdapterUser>): Promise<AdapterUser> {
  try {
    return await create();
  } catch (error) {
    const taken = await callAdapter(ctx.config.adapter!, "getUserByEmail", userToBe.email).catch(() => null);
    if (taken) throw emailTaken(error as Error);
    throw error;
  }
}

/** Without `createUserWithAccount`: createUser, then the passkey; the user is deleted again if storing the passkey fails. */
async function createThenStore(
  ctx: RequestContext,
  userToBe: UserToBe,
  account: Pick<AdapterAccount, "provider" | "providerAccountId" | "type">,
  authenticator: NewAuthenticator,
): Promise<AdapterUser> {
  const { config } = ctx;
  const adapter = config.adapter!;
  const user = await createOrRefuseTakenEmail(ctx, userToBe, () => callAdapter(adapter, "createUser", { ...userToBe, emailVerified: null }));
  try {
    await storePasskey(ctx, { ...account, userId: user.id }, authenticator);
  } catch (error) {
    if (typeof adapter.deleteUser === "function") {
      await undo(ctx, `deleting user ${user.id}`, () => callAdapter(adapter, "deleteUser", user.id));
    } else {
      config.logger.error(new AdapterError(`Storing the passkey failed after createUser; the adapter has no deleteUser, so user ${user.id} is left without a passkey.`));
    }
    throw error;
  }
  return user;
}
