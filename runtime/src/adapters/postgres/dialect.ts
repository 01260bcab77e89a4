/**
 * PostgreSQL as the SQL adapter core speaks it (`../sql/dialect.ts`): `$n`
 * placeholders, dates and booleans bound as they are (the drivers send them),
 * and decoded from what the drivers return. Drivers differ: node-postgres
 * returns BIGINT as a string (it may not fit a number), PGlite as a number or
 * bigint; both return timestamptz as a `Date`, and a row carried as JSON
 * (`to_jsonb`) has its dates as ISO text. The hosted store is PostgreSQL on
 * the same drivers: its dialect is this one on its own tables.
 */
import type { SqlDialect, SqlNaming } from "../sql/dialect.js";

/** A timestamptz: a `Date`, or its text where a driver's type parser is off (or the row came as JSON). */
export type Timestamp = Date | string;

/** PostgreSQL on `naming`'s tables; `notFound` is the adapter's error. */
export function postgresDialect(naming: SqlNaming, notFound: (message: string) => Error): SqlDialect<unknown> {
  return {
    naming,
    placeholder: (n) => `$${n}`,
    encode: { date: (date) => date, boolean: (value) => value },
    decode: { date: (value) => toDate(value as Timestamp), boolean: toBoolean },
    now: "now()",
    nullSafeEquals: "IS NOT DISTINCT FROM",
    nullsFirst: " NULLS FIRST",
    rowAsJson: (alias) => `to_jsonb(${alias})`,
    notFound,
  };
}

export function toDate(value: Timestamp): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A boolean, or its text (`t`, `true`, ...) where a driver's type parser is off. */
function toBoolean(value: unknown): boolean {
  return value === true || value === "t" || value === "true";
}
