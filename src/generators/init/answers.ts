/**
 * What `auth-init` asks, the values it accepts and the defaults `--yes` takes.
 * Pure: the command turns flags into `InitFlags`, prompts fill the rest.
 */
import { findProvider, providerCatalog } from "@gatehouse/runtime/providers/catalog";
import type { Framework } from "../detect.js";
import { adapterRequirement } from "../passwordless.js";
import { closestMatch } from "../suggest.js";
import { ADAPTERS, FRAMEWORKS, isAppOrm, STRATEGIES, type AdapterChoice, type Strategy } from "./choices.js";

export { ADAPTERS, FRAMEWORKS, STRATEGIES, type AdapterChoice, type Strategy };

export interface InitAnswers {
  framework: Framework;
  /** Catalog ids, in the order given. */
  providers: string[];
  strategy: Strategy;
  adapter: AdapterChoice;
  /**
   * For `postgres` (DATABASE_URL) and `hosted-store` (HOSTED_STORE_DATABASE_URL);
   * written to `.env` (empty: a placeholder the user fills in).
   */
  databaseUrl: string;
  /**
   * An `/account` page (profile, password, sessions, ways to sign in, deletion), and
   * sign-in landing there. It needs a database, where the account lives: without
   * one there is no page. Default: on.
   */
  accountPage?: boolean;
}

/** The answers flags can give; anything missing is asked (or defaulted with `--yes`). */
export type InitFlags = Partial<Omit<InitAnswers, "providers">> & { providers?: string[] };

export const DEFAULT_PROVIDERS = ["password"];
export const DEFAULT_ADAPTER: AdapterChoice = "pglite";

/** Database sessions when there is a database (revocable, as Auth.js defaults), else JWT. */
export function defaultStrategy(adapter: AdapterChoice): Strategy {
  return adapter === "none" ? "jwt" : "database";
}

/** The adapters reached by a connection URL, and the env key `--database-url` fills for each. */
export const DATABASE_URL_KEYS: Partial<Record<AdapterChoice, string>> = {
  postgres: "DATABASE_URL",
  // HOSTED_STORE_ENV.databaseURL of the runtime, not imported: every command loads this module.
  "hosted-store": "HOSTED_STORE_DATABASE_URL",
};

/** Where the SQLite adapter's database file goes (its folder is git-ignored), and the env key that moves it: a path, not a URL. */
export const DEFAULT_SQLITE_PATH = ".data/auth.sqlite";
export const SQLITE_PATH_KEY = "SQLITE_PATH";

export function takesDatabaseUrl(adapter: AdapterChoice): boolean {
  return DATABASE_URL_KEYS[adapter] !== undefined;
}

export class UsageError extends Error {}

export function parseFramework(value: string): Framework {
  if ((FRAMEWORKS as readonly string[]).includes(value)) return value as Framework;
  throw new UsageError(`unknown framework "${value}": use one of ${FRAMEWORKS.join(", ")}`);
}

export function parseStrategy(value: string): Strategy {
  if ((STRATEGIES as readonly string[]).includes(value)) return value as Strategy;
  throw new UsageError(`unknown session strategy "${value}": use one of ${STRATEGIES.join(", ")}`);
}

export function parseAdapter(value: string): AdapterChoice {
  if ((ADAPTERS as readonly string[]).includes(value)) return value as AdapterChoice;
  throw new UsageError(`unknown adapter "${value}": use one of ${ADAPTERS.join(", ")}`);
}

/** `password,github` -> ids, each checked against the runtime's catalog; an older id (`credentials`) becomes today's. */
export function parseProviders(value: string): string[] {
  const given = value.split(",").map((id) => id.trim().toLowerCase()).filter(Boolean);
  const ids = [...new Set(given.map((id) => findProvider(id)?.id ?? id))];
  if (ids.length === 0) throw new UsageError("--providers needs at least one provider id");
  const unknown = ids.filter((id) => !findProvider(id));
  if (unknown.length > 0) {
    const known = providerCatalog.map((p) => p.id);
    const guesses = unknown.map((id) => closestMatch(id, known)).filter((id) => id !== undefined);
    const guess = guesses.length > 0 ? ` (did you mean ${guesses.join(", ")}?)` : "";
    throw new UsageError(`unknown provider${unknown.length > 1 ? "s" : ""} ${unknown.map((id) => `"${id}"`).join(", ")}${guess}: known ones are ${known.join(", ")}`);
  }
  return ids;
}

/** A PostgreSQL URL, normalized; `$` is percent-encoded so dotenv expansion cannot change it. */
export function parseDatabaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--database-url is not a URL: expected postgres://user:password@host:5432/database`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new UsageError(`--database-url must be a postgres:// or postgresql:// URL, not ${url.protocol}//`);
  }
  return url.href.replace(/\$/g, "%24");
}

/** Combinations that cannot work, named with the flag that fixes them. */
export function checkAnswers(answers: InitAnswers): void {
  if (answers.strategy === "database" && answers.adapter === "none") {
    // drizzle, prisma and kysely only where the app has them: not offered as a way out in general.
    const adapters = ADAPTERS.filter((adapter) => adapter !== "none" && !isAppOrm(adapter)).join(", ");
    throw new UsageError(`--strategy database stores sessions in a database: choose an --adapter (${adapters}), or use --strategy jwt`);
  }
  const requirement = adapterRequirement(answers.providers.map((id) => findProvider(id)!));
  if (requirement && answers.adapter === "none") {
    const others = ADAPTERS.filter((adapter) => adapter !== "none" && adapter !== DEFAULT_ADAPTER && !isAppOrm(adapter)).join(", ");
    throw new UsageError(`${requirement}: use --adapter ${DEFAULT_ADAPTER} (embedded PostgreSQL, nothing to set up), or ${others}, instead of --adapter none`);
  }
  if (answers.databaseUrl && answers.adapter === "sqlite") {
    throw new UsageError(
      `--database-url is not used with --adapter sqlite: the database is a file, ${DEFAULT_SQLITE_PATH} by default; set ${SQLITE_PATH_KEY} in .env to put it elsewhere`,
    );
  }
  if (answers.databaseUrl && answers.adapter === "drizzle") {
    throw new UsageError("--database-url is not used with --adapter drizzle: the auth tables go into the app's own Drizzle database, which its db module opens (DATABASE_URL in .env)");
  }
  if (answers.databaseUrl && answers.adapter === "prisma") {
    throw new UsageError("--database-url is not used with --adapter prisma: the auth tables go into the app's own Prisma database, which its Prisma Client opens");
  }
  if (answers.databaseUrl && answers.adapter === "kysely") {
    throw new UsageError("--database-url is not used with --adapter kysely: the auth tables go into the app's own Kysely database, which its Kysely instance opens");
  }
  if (answers.databaseUrl && !takesDatabaseUrl(answers.adapter)) {
    throw new UsageError(`--database-url is only used with --adapter postgres or hosted-store (the adapter is ${answers.adapter})`);
  }
}
