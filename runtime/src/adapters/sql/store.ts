/**
 * An opened SQL store, as the adapter core (`adapter.ts`) works with it: the
 * client and its dialect, the statements in that dialect, the row mappers, and
 * the method groups written once in this folder (passwords, sessions, sign-in
 * methods) bound to its tables. Made once per adapter, when the store opens.
 */
import type { Table } from "../../schema/model.js";
import type { AdapterAccount, AdapterAuthenticator, AdapterNewUser, AdapterUser } from "../types.js";
import type { SqlDb, SqlDialect, SqlQuery } from "./dialect.js";
import { accountValues, authenticatorValues, rowMappers, type AuthenticatorRow as AuthenticatorRowOf, type RowMappers, type SessionRow as SessionRowOf, type UserRow as UserRowOf } from "./rows.js";
import { ACCOUNTS, AUTHENTICATORS, PASSWORDS, SESSIONS, USERS, statementsOf, type Statements } from "./statements.js";
import { passwordMethods, type PasswordMethods } from "./user-passwords.js";
import { revokeSessionsIn, sessionMethods, type SessionMethods, type SessionSchema } from "./user-sessions.js";
import { signInMethods, type SignInMethods } from "./user-sign-in-methods.js";

/** A database and its dialect: what the adapter opens on first use. */
export interface SqlStore<Value> {
  db: SqlDb<Value>;
  dialect: SqlDialect<Value>;
}

/** Rows as the core reads them: the dialect's `decode` knows its driver's types. */
interface RowTypes {
  id: unknown;
  date: unknown;
  integer: number | string | bigint;
  boolean: unknown;
}

type Row = Record<string, unknown>;
export type UserRow = UserRowOf<RowTypes>;
export type SessionRow = SessionRowOf<RowTypes>;
export type AuthenticatorRow = AuthenticatorRowOf<RowTypes>;

export interface OpenStore<Value> extends SqlStore<Value> {
  sql: Statements;
  map: RowMappers<RowTypes>;
  passwords: PasswordMethods;
  sessions: SessionMethods;
  signIn: SignInMethods;
}

/** The statements, mappers and shared method groups of `store`. */
export function openStore<Value>({ db, dialect }: SqlStore<Value>): OpenStore<Value> {
  const sql = statementsOf(dialect);
  const { names: n } = sql;
  const decoded = rowMappers<RowTypes>(dialect.decode);
  const user = wholeRow(dialect, USERS);
  const session = wholeRow(dialect, SESSIONS);
  const map: RowMappers<RowTypes> = {
    ...decoded,
    toUser: user ? (row) => decoded.toUser(user(row) as typeof row) : decoded.toUser,
    toSession: session ? (row) => decoded.toSession(session(row) as typeof row) : decoded.toSession,
  };
  const sessionSchema: SessionSchema<SessionRow> = {
    users: [n.table(USERS), n.column(USERS, "sessionVersion")],
    sessions: [n.table(SESSIONS), n.column(SESSIONS, "userId")],
    sessionColumns: "*",
    // Sessions from before migration 0004 have no createdAt: first, in the order they were stored.
    oldestFirst: `${n.column(SESSIONS, "createdAt")}${dialect.nullsFirst}, id`,
    placeholder: n.p,
    toSession: map.toSession,
  };
  return {
    db,
    dialect,
    sql,
    map,
    sessions: sessionMethods(db, sessionSchema),
    signIn: signInMethods(db, {
      // Join records of deleted accounts go with them (cascade).
      accounts: [n.table(ACCOUNTS), n.column(ACCOUNTS, "userId"), sql.accountColumns],
      authenticators: [n.table(AUTHENTICATORS), n.column(AUTHENTICATORS, "userId"), sql.listedAuthenticatorColumns],
      placeholder: n.p,
      toAccount: map.toAccount,
      toAuthenticator: map.toAuthenticator,
    }),
    passwords: passwordMethods(db, {
      users: n.table(USERS),
      userColumns: "*",
      passwords: n.table(PASSWORDS),
      passwordUser: n.column(PASSWORDS, "userId"),
      revokeSessions: revokeSessionsIn(sessionSchema),
      touch: `${n.column(PASSWORDS, "updatedAt")} = ${dialect.now}`,
      placeholder: n.p,
      date: (date) => dialect.encode.date(date, "emailVerified"),
      toUser: map.toUser,
    }),
  };
}

/** The first row of `sql`, mapped; `null` when it returns none. */
export function first<Value, R, T>(db: SqlQuery<Value>, sql: string, params: unknown[], map: (row: R) => T): Promise<T | null> {
  // A promise chain, not an async function (the session read runs this on every request). Every
  // caller is an async adapter method, where a client that throws at once still rejects.
  return db.query<R>(sql, params as Value[]).then(({ rows }) => (rows[0] === undefined ? null : map(rows[0])));
}

export function encodeDateOrNull<Value>(dialect: SqlDialect<Value>, date: Date | null | undefined, field: string): Value | null {
  return date === null || date === undefined ? null : dialect.encode.date(date, field);
}

// The inserts of a user, an account and a passkey, on the adapter's client or on a transaction's `tx`
// (`createUserWithAccount` runs them together). Each is an INSERT ... RETURNING: it returns its row or throws.

export async function insertUser<Value>(store: OpenStore<Value>, db: SqlQuery<Value>, user: AdapterNewUser): Promise<AdapterUser> {
  // The caller's id is kept (a credentials user keeps the id authorize() gave it); without one, a UUID.
  const values = [
    user.id || crypto.randomUUID(),
    user.name ?? null,
    user.email ?? null,
    encodeDateOrNull(store.dialect, user.emailVerified, "emailVerified"),
    user.image ?? null,
  ];
  return (await first(db, store.sql.insertUser, values, store.map.toUser))!;
}

export async function insertAccount<Value>(store: OpenStore<Value>, db: SqlQuery<Value>, account: AdapterAccount): Promise<AdapterAccount> {
  return (await first(db, store.sql.insertAccount, accountValues(account), store.map.toAccount))!;
}

export async function insertAuthenticator<Value>(store: OpenStore<Value>, db: SqlQuery<Value>, authenticator: AdapterAuthenticator): Promise<AdapterAuthenticator> {
  const values = authenticatorValues(authenticator, store.dialect.encode.boolean);
  return (await first(db, store.sql.insertAuthenticator, values, store.map.toAuthenticator))!;
}

/**
 * How a row read whole (a user, a session) becomes the model's: the dialect's
 * own decoding, its columns under the model's names, and without the
 * dialect's record bookkeeping. `undefined` where the row is the model's as it comes.
 */
function wholeRow<Value>(dialect: SqlDialect<Value>, table: Table): ((row: Row) => Row) | undefined {
  const { naming } = dialect;
  const renames = table.columns.map((column) => [naming.column(table, column), column.name] as const).filter(([stored, model]) => stored !== model);
  const dropped = naming.recordColumns.filter((name) => !renames.some(([stored]) => stored === name));
  const decode = dialect.decode.row;
  if (renames.length === 0 && dropped.length === 0 && !decode) return undefined;
  return (row) => {
    const copy = decode ? decode(row) : { ...row };
    for (const name of dropped) delete copy[name];
    for (const [stored, model] of renames) {
      if (!(stored in copy)) continue;
      copy[model] = copy[stored];
      delete copy[stored];
    }
    return copy;
  };
}
