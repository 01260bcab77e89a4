/** What a provider without its own `profile()` / `account()` maps, as Auth.js does. */
import type { Account, Profile, TokenSet, User } from "../../types.js";

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as T;
}

/** The standard OIDC claims: `sub` (or `id`), name, email, picture. */
export function defaultProfile(profile: Profile): User {
  return withoutUndefined({
    id: (profile.sub ?? profile.id ?? undefined) as string | undefined,
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: typeof profile.picture === "string" ? profile.picture : null,
  });
}

/** The token fields stored with an account. */
export function defaultAccountFields(tokens: TokenSet): Partial<Account> {
  return withoutUndefined({
    access_token: tokens.access_token,
    id_token: tokens.id_token,
    refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_at,
    scope: tokens.scope,
    token_type: tokens.token_type,
    session_state: tokens.session_state as string | undefined,
  });
}
