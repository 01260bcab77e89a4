/**
 * The svc_ tables of one branch, schema-qualified. Queries name the schema
 * instead of relying on `search_path`, which is per connection: with a pool,
 * setting it would mean an extra statement (and a transaction) per query.
 */
import { schemaOf } from "./client.js";

export interface Tables {
  users: string;
  accounts: string;
  sessions: string;
  usersAccounts: string;
  usersSessions: string;
  verificationTokens: string;
  /** Our extension: WebAuthn authenticators. */
  authenticators: string;
  /** Our extension: the passwords of email + password accounts (migration 0002). */
  passwords: string;
}

/** The tables of `branch`, which `getConfig()` has validated. */
export function tablesOf(branch: string): Tables {
  const schema = schemaOf(branch);
  return {
    users: `${schema}.svc_users`,
    accounts: `${schema}.svc_accounts`,
    sessions: `${schema}.svc_sessions`,
    usersAccounts: `${schema}.svc_users_accounts`,
    usersSessions: `${schema}.svc_users_sessions`,
    // camelCase as the specification spells it, so quoted.
    verificationTokens: `${schema}."svc_verificationTokens"`,
    authenticators: `${schema}.svc_authenticators`,
    passwords: `${schema}.svc_user_passwords`,
  };
}
