/**
 * The SQL adapter's statements, written once from the auth schema
 * (`schema/auth-schema.ts`) and a dialect: its tables' and columns' names, its
 * placeholders and its "now". Built once per adapter (the hosted store's once
 * its branch is known), so every call sends the same text: PostgreSQL drivers
 * name a prepared statement after its text and parse it once
 * (`postgres/statement-name.ts`).
 *
 * Placeholders are numbered in the order they appear, so SQLite's `?`, which
 * binds in that order, binds the same values as PostgreSQL's `$n`.
 */
import { authSchema } from "../../schema/auth-schema.js";
import type { Column, Table } from "../../schema/model.js";
import type { AdapterAccountUpdate, AdapterUser } from "../types.js";
import { quote, type SqlDialect } from "./dialect.js";
import { SESSION_JSON_COLUMN, accountUpdates } from "./rows.js";

/** The auth schema's table called `name`. */
function modelTable(name: string): Table {
  const table = authSchema.tables.find((candidate) => candidate.name === name);
  if (!table) throw new Error(`The auth schema has no table ${name}.`);
  return table;
}

function modelColumn(table: Table, name: string): Column {
  const column = table.columns.find((candidate) => candidate.name === name);
  if (!column) throw new Error(`The auth schema has no column ${table.name}.${name}.`);
  return column;
}

export const USERS = modelTable("users");
export const ACCOUNTS = modelTable("accounts");
export const SESSIONS = modelTable("sessions");
const TOKENS = modelTable("verification_token");
export const AUTHENTICATORS = modelTable("authenticators");
export const PASSWORDS = modelTable("user_passwords");

/** The tables whose rows belong to a user (accounts, sessions, authenticators, the password): they go with it. */
export const USER_OWNED = authSchema.tables.filter((table) => table.columns.some((column) => column.referencesUser));

/** The columns a statement names, in a dialect. */
export interface Names {
  /** The table. */
  table(table: Table): string;
  /** The column, quoted, as stored. */
  column(table: Table, name: string): string;
  /** The column as a SELECT list or RETURNING clause gives it: under the model's name. */
  select(table: Table, name: string): string;
  /** The columns `names`, as `select` gives each, comma-separated. */
  list(table: Table, names: readonly string[]): string;
  /** The n-th placeholder. */
  p(n: number): string;
}

function namesOf<Value>(dialect: SqlDialect<Value>): Names {
  const { naming } = dialect;
  const stored = (table: Table, name: string) => naming.column(table, modelColumn(table, name));
  const select = (table: Table, name: string) => {
    const as = stored(table, name);
    return as === name ? quote(name) : `${quote(as)} AS ${quote(name)}`;
  };
  return {
    table: (table) => naming.table(table),
    column: (table, name) => quote(stored(table, name)),
    select,
    list: (table, names) => names.map((name) => select(table, name)).join(", "),
    p: (n) => dialect.placeholder(n),
  };
}

/** An account's columns: every one but its own key (the database's serial id). */
const ACCOUNT_FIELDS = ACCOUNTS.columns.filter((column) => !(column.primaryKey && column.type === "serial")).map((column) => column.name);
/** A passkey's columns as the contract has always had them (migration 0001). */
const AUTHENTICATOR_FIELDS = AUTHENTICATORS.columns.filter((column) => column.since === undefined).map((column) => column.name);
/** With what the account page's list shows (name, createdAt, lastUsedAt: migration 0004). */
const LISTED_AUTHENTICATOR_FIELDS = AUTHENTICATORS.columns.map((column) => column.name);
const TOKEN_FIELDS = TOKENS.columns.map((column) => column.name);
/** What a new user row is given: its columns of migration 0001 (not the session version, which starts at 0). */
const NEW_USER_FIELDS = USERS.columns.filter((column) => column.since === undefined).map((column) => column.name);
/** What a new session is given; its `createdAt` is the database's now. */
const NEW_SESSION_FIELDS = ["sessionToken", "userId", "expires", "userAgent"];
/** What a new passkey is given; its `createdAt` is the database's now. */
const NEW_AUTHENTICATOR_FIELDS = [...AUTHENTICATOR_FIELDS, "name"];

export type Statements = ReturnType<typeof statementsOf>;

/** Every fixed statement of the adapter, in `dialect`. Users and sessions are read whole (`*`): columns the app added come along. */
export function statementsOf<Value>(dialect: SqlDialect<Value>) {
  const n = namesOf(dialect);
  const { p } = n;
  const users = n.table(USERS);
  const accounts = n.table(ACCOUNTS);
  const sessions = n.table(SESSIONS);
  const tokens = n.table(TOKENS);
  const authenticators = n.table(AUTHENTICATORS);
  const accountColumns = n.list(ACCOUNTS, ACCOUNT_FIELDS);
  const authenticatorColumns = n.list(AUTHENTICATORS, AUTHENTICATOR_FIELDS);
  const listedAuthenticatorColumns = n.list(AUTHENTICATORS, LISTED_AUTHENTICATOR_FIELDS);
  const tokenColumns = n.list(TOKENS, TOKEN_FIELDS);
  const sessionLink = n.column(SESSIONS, "userId");
  const sessionToken = n.column(SESSIONS, "sessionToken");
  const account = `provider = ${p(1)} AND ${n.column(ACCOUNTS, "providerAccountId")} = ${p(2)}`;

  return {
    names: n,
    accountColumns,
    listedAuthenticatorColumns,
    userById: `SELECT * FROM ${users} WHERE id = ${p(1)}`,
    userByEmail: `SELECT * FROM ${users} WHERE email = ${p(1)}`,
    userByAccount: `SELECT u.* FROM ${accounts} a JOIN ${users} u ON u.id = a.${n.column(ACCOUNTS, "userId")} WHERE a.${account}`,
    insertUser: insert(dialect, n, USERS, NEW_USER_FIELDS, [], "*"),
    deleteUser: `DELETE FROM ${users} WHERE id = ${p(1)} RETURNING *`,

    insertAccount: insert(dialect, n, ACCOUNTS, ACCOUNT_FIELDS, [], accountColumns),
    account: `SELECT ${accountColumns} FROM ${accounts} WHERE ${account}`,
    unlinkAccount: `DELETE FROM ${accounts} WHERE ${account} RETURNING ${accountColumns}`,

    insertSession: insert(dialect, n, SESSIONS, NEW_SESSION_FIELDS, ["createdAt"], "*"),
    session: `SELECT * FROM ${sessions} WHERE ${sessionToken} = ${p(1)}`,
    sessionAndUser: dialect.rowAsJson
      ? `SELECT u.*, ${dialect.rowAsJson("s")} AS ${SESSION_JSON_COLUMN} FROM ${sessions} s JOIN ${users} u ON u.id = s.${sessionLink} WHERE s.${sessionToken} = ${p(1)}`
      : undefined,
    updateSession: `UPDATE ${sessions} SET expires = COALESCE(${p(1)}, expires), ${sessionLink} = COALESCE(${p(2)}, ${sessionLink})
      WHERE ${sessionToken} = ${p(3)} RETURNING *`,
    deleteSession: `DELETE FROM ${sessions} WHERE ${sessionToken} = ${p(1)} RETURNING *`,

    insertToken: insert(dialect, n, TOKENS, ["identifier", "token", "expires"], [], tokenColumns),
    // Read and deleted in one statement: of two concurrent uses, exactly one gets the row.
    useToken: `DELETE FROM ${tokens} WHERE identifier = ${p(1)} AND token = ${p(2)} RETURNING ${tokenColumns}`,

    insertAuthenticator: insert(dialect, n, AUTHENTICATORS, NEW_AUTHENTICATOR_FIELDS, ["createdAt"], authenticatorColumns),
    authenticator: `SELECT ${authenticatorColumns} FROM ${authenticators} WHERE ${n.column(AUTHENTICATORS, "credentialID")} = ${p(1)}`,
    authenticatorsOf: `SELECT ${listedAuthenticatorColumns} FROM ${authenticators} WHERE ${n.column(AUTHENTICATORS, "userId")} = ${p(1)} ORDER BY ${n.column(AUTHENTICATORS, "credentialID")}`,
    countSignIn: `UPDATE ${authenticators} SET counter = ${p(1)}, ${n.column(AUTHENTICATORS, "lastUsedAt")} = ${dialect.now}
      WHERE ${n.column(AUTHENTICATORS, "credentialID")} = ${p(2)} RETURNING ${listedAuthenticatorColumns}`,
  };
}

/**
 * An INSERT of `fields` (bound in that order) and of `stamped` (the database's
 * now), returning `returning`. Where the table has a join record (the hosted
 * store's accounts and sessions), the row and its join record in one statement
 * (a data-modifying WITH): both are written or neither.
 */
function insert<Value>(dialect: SqlDialect<Value>, n: Names, table: Table, fields: readonly string[], stamped: readonly string[], returning: string): string {
  const columns = [...fields, ...stamped].map((name) => n.column(table, name)).join(", ");
  const values = [...fields.map((_, i) => n.p(i + 1)), ...stamped.map(() => dialect.now)].join(", ");
  const into = `INSERT INTO ${n.table(table)} (${columns}) VALUES (${values})`;
  const join = dialect.naming.join(table);
  if (!join) return `${into} RETURNING ${returning}`;
  const link = n.column(table, "userId");
  return `WITH inserted AS (${into} RETURNING *),
    joined AS (INSERT INTO ${join.table} (${quote(join.field)}, ${link}) SELECT id, ${link} FROM inserted)
    SELECT ${returning} FROM inserted`;
}

/** The user fields `updateUser` may change. */
const UPDATABLE_USER_FIELDS = ["name", "email", "emailVerified", "image"] as const satisfies readonly (keyof AdapterUser)[];

/**
 * `updateUser`'s statement: only the fields given change (`undefined` means
 * "not given", not "clear it"); with none, a SELECT of the same row.
 */
export function userUpdate<Value>(dialect: SqlDialect<Value>, n: Names, user: Partial<AdapterUser> & Pick<AdapterUser, "id">): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const sets: string[] = [];
  for (const field of UPDATABLE_USER_FIELDS) {
    const value = user[field];
    if (value === undefined) continue;
    params.push(field === "emailVerified" && value !== null ? dialect.encode.date(value as Date, field) : value);
    sets.push(`${n.column(USERS, field)} = ${n.p(params.length)}`);
  }
  params.push(user.id);
  const users = n.table(USERS);
  const sql =
    sets.length > 0
      ? `UPDATE ${users} SET ${sets.join(", ")} WHERE id = ${n.p(params.length)} RETURNING *`
      : `SELECT * FROM ${users} WHERE id = ${n.p(params.length)}`;
  return { sql, params };
}

/**
 * `updateAccount`'s statement: one, so the compare-and-set is atomic. Of two
 * concurrent updates of the row, the second waits for the first (PostgreSQL's
 * row lock, at READ COMMITTED, the default; SQLite's one writer) and then
 * checks its condition against the row the first wrote. With no field to
 * change, a SELECT of the same row. The user link is not touched (so the
 * hosted store's join record stays right).
 */
export function accountUpdate<Value>(
  dialect: SqlDialect<Value>,
  n: Names,
  update: AdapterAccountUpdate,
  condition: { refresh_token: string | null } | undefined,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const sets = accountUpdates(update).map(([column, value]) => {
    params.push(value);
    return `${n.column(ACCOUNTS, column)} = ${n.p(params.length)}`;
  });
  params.push(update.provider, update.providerAccountId);
  let where = `provider = ${n.p(params.length - 1)} AND ${n.column(ACCOUNTS, "providerAccountId")} = ${n.p(params.length)}`;
  if (condition) {
    // A condition of null matches an account without a refresh token.
    params.push(condition.refresh_token ?? null);
    where += ` AND refresh_token ${dialect.nullSafeEquals} ${n.p(params.length)}`;
  }
  const accounts = n.table(ACCOUNTS);
  const columns = n.list(ACCOUNTS, ACCOUNT_FIELDS);
  const sql =
    sets.length > 0
      ? `UPDATE ${accounts} SET ${sets.join(", ")} WHERE ${where} RETURNING ${columns}`
      : `SELECT ${columns} FROM ${accounts} WHERE ${where}`;
  return { sql, params };
}
