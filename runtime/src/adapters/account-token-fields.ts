/** The token fields of an account that a sign-in or a refresh replaces (`updateAccount`). */
import type { AdapterAccountTokenField } from "./types.js";

/** A record, so that a field added to `AdapterAccountTokenField` cannot be forgotten here. */
export const ACCOUNT_TOKEN_FIELDS = Object.keys({
  access_token: true,
  refresh_token: true,
  expires_at: true,
  id_token: true,
  scope: true,
  token_type: true,
  session_state: true,
} satisfies Record<AdapterAccountTokenField, true>) as AdapterAccountTokenField[];
