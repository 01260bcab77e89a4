/**
 * The user's ways to sign in, as the account page shows and changes them: the
 * linked OAuth/OIDC providers (and those that could be linked), the passkeys,
 * the password, and email links. Unlinking a provider or removing a passkey is
 * refused when it is the last way in: nobody locks themselves out from the
 * account page.
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../../adapters/types.js";
import { callAdapter } from "../adapter.js";
import type { RequestContext } from "../context.js";
import type { ListedPasskey, SignInMethods } from "./types.js";

export type { LinkedProvider, ListedPasskey, SignInMethods } from "./types.js";

const OAUTH_TYPES = new Set(["oauth", "oidc"]);

function providersOf(ctx: RequestContext, types: ReadonlySet<string>) {
  return ctx.config.providers.filter((provider) => types.has(provider.type));
}

/** The user's accounts and passkeys, as far as the config still signs in with them. */
export async function signInMethods(ctx: RequestContext, user: AdapterUser): Promise<SignInMethods> {
  const adapter = ctx.config.adapter!;
  const oauth = providersOf(ctx, OAUTH_TYPES);
  const passkeys = providersOf(ctx, new Set(["webauthn"])).length > 0;
  const [accounts, authenticators] = await Promise.all([
    oauth.length > 0 ? callAdapter(adapter, "listAccountsByUserId", user.id) : Promise.resolve([] as AdapterAccount[]),
    passkeys ? callAdapter(adapter, "listAuthenticatorsByUserId", user.id) : Promise.resolve([] as AdapterAuthenticator[]),
  ]);
  const linkedIds = new Set(accounts.filter((account) => OAUTH_TYPES.has(account.type)).map((account) => account.provider));
  return {
    linked: oauth.filter((provider) => linkedIds.has(provider.id)).map(({ id, name }) => ({ provider: id, name })),
    linkable: oauth.filter((provider) => !linkedIds.has(provider.id)).map(({ id, name }) => ({ provider: id, name })),
    passkeys: passkeys ? authenticators.map(listedPasskey) : null,
    emailLink: user.emailVerified != null && ctx.config.providers.some((provider) => provider.type === "email"),
  };
}

function listedPasskey(authenticator: AdapterAuthenticator): ListedPasskey {
  const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);
  return {
    id: authenticator.credentialID,
    name: authenticator.name ?? null,
    createdAt: iso(authenticator.createdAt),
    lastUsedAt: iso(authenticator.lastUsedAt),
    backedUp: authenticator.credentialBackedUp,
  };
}

/** How many ways in the user has: linked providers, passkeys, a password, email links. */
export function countWaysIn(methods: SignInMethods, hasPassword: boolean): number {
  return methods.linked.length + (methods.passkeys?.length ?? 0) + (hasPassword ? 1 : 0) + (methods.emailLink ? 1 : 0);
}

/** Whether the user has a password that the config's `Password` provider signs in with. */
export async function hasUsablePassword(ctx: RequestContext, user: AdapterUser): Promise<boolean> {
  if (!ctx.config.providers.some((provider) => provider.password !== undefined)) return false;
  return (await callAdapter(ctx.config.adapter!, "getUserPassword", user.id)) !== null;
}

export type MethodChange = { ok: true } | { ok: false; code: "unknown-provider" | "unknown-passkey" | "last-sign-in-method" };

/**
 * Unlinks the user's account of `providerId` (an OAuth/OIDC provider), unless
 * it is their last way in. The account is looked up among the user's own:
 * another user's link is never touched.
 */
export async function unlinkProvider(ctx: RequestContext, user: AdapterUser, providerId: string): Promise<MethodChange> {
  const adapter = ctx.config.adapter!;
  const accounts = await callAdapter(adapter, "listAccountsByUserId", user.id);
  const account = accounts.find((candidate) => candidate.provider === providerId && OAUTH_TYPES.has(candidate.type));
  if (!account) return { ok: false, code: "unknown-provider" };
  const methods = await signInMethods(ctx, user);
  // An account of a provider the config no longer has is no way in: removing it costs nothing.
  const counts = methods.linked.some((linked) => linked.provider === providerId);
  if (counts && countWaysIn(methods, await hasUsablePassword(ctx, user)) <= 1) return { ok: false, code: "last-sign-in-method" };
  await callAdapter(adapter, "unlinkAccount", { provider: account.provider, providerAccountId: account.providerAccountId });
  return { ok: true };
}

/** Removes the user's passkey `credentialID`, unless it is their last way in. */
export async function removePasskey(ctx: RequestContext, user: AdapterUser, credentialID: string): Promise<MethodChange> {
  const methods = await signInMethods(ctx, user);
  if (!methods.passkeys?.some((passkey) => passkey.id === credentialID)) return { ok: false, code: "unknown-passkey" };
  if (countWaysIn(methods, await hasUsablePassword(ctx, user)) <= 1) return { ok: false, code: "last-sign-in-method" };
  // Scoped to the user in the adapter too: null when it is not (or no longer) theirs.
  const removed = await callAdapter(ctx.config.adapter!, "deleteAuthenticator", user.id, credentialID);
  return removed ? { ok: true } : { ok: false, code: "unknown-passkey" };
}
