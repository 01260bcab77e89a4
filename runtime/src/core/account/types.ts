/**
 * The account's JSON shapes (`GET account`), public through `types.ts`. A leaf
 * module: `types.ts` re-exports them without importing the code that builds
 * them, which imports `types.ts` in turn.
 */

/** One session in the list, as JSON. Dates are ISO strings. */
export interface ListedSession {
  /** Names the session in `POST revoke-session`; derived from its token, which it does not reveal. `"current"` for a JWT session. */
  id: string;
  /** The session of the request that asked. */
  current: boolean;
  /** When it was created (the sign-in); `null` where unknown (a session stored, or a JWT issued, before gatehouse kept it). */
  createdAt: string | null;
  /** When it was last used, to within `session.updateAge` (the slide of its expiry). */
  lastActiveAt: string | null;
  expires: string;
  /** The browser's `User-Agent` as it signed in. */
  userAgent: string | null;
  /** That `User-Agent` in words ("Firefox on Windows"), or `null` when not recognised. */
  browser: string | null;
}

/** A linked provider, as JSON. */
export interface LinkedProvider {
  /** The provider's id: what `unlink-account` takes. */
  provider: string;
  /** Its name ("GitHub"). */
  name: string;
}

/** A passkey, as JSON. Dates are ISO strings. */
export interface ListedPasskey {
  /** The credential id: what `rename-passkey` and `remove-passkey` take. */
  id: string;
  name: string | null;
  createdAt: string | null;
  lastUsedAt: string | null;
  /** Synced by its provider (iCloud Keychain, Google Password Manager...), so it survives the device. */
  backedUp: boolean;
}

export interface SignInMethods {
  /** The OAuth/OIDC providers linked to the user, of those the config has. */
  linked: LinkedProvider[];
  /** The config's OAuth/OIDC providers not linked yet: signing in with one while signed in links it. */
  linkable: { provider: string; name: string }[];
  /** `null` without a passkey provider. */
  passkeys: ListedPasskey[] | null;
  /** An email link can sign the user in: the config has an email provider and the address is proven. */
  emailLink: boolean;
}

/** What `GET account` answers for a signed-in user. Dates are ISO strings. */
export interface AccountBody {
  user: { name: string | null; email: string; emailVerified: string | null; image: string | null };
  /** Whether the user has a password; `null` without a `Password` provider. */
  hasPassword: boolean | null;
  sessionStrategy: "jwt" | "database";
  sessions: ListedSession[];
  /** Linked and linkable providers, passkeys, whether email links sign in. */
  signInMethods: SignInMethods;
}
