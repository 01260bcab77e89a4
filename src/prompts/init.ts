/**
 * The `auth-init` questions (@clack/prompts). Each asks only for what the flags
 * and the app's files did not settle, and returns typed answers. Ctrl-C ends
 * the command with nothing written.
 */
import * as p from "@clack/prompts";
import { findProvider, providerCatalog, type ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import type { Framework } from "../generators/detect.js";
import { adapterRequirement, needsAdapter } from "../generators/passwordless.js";
import {
  ADAPTERS,
  DATABASE_URL_KEYS,
  DEFAULT_ADAPTER,
  DEFAULT_PROVIDERS,
  defaultStrategy,
  parseDatabaseUrl,
  UsageError,
  type AdapterChoice,
  type InitAnswers,
  type InitFlags,
  type Strategy,
} from "../generators/init/answers.js";
import { isAppOrm, type AppOrmAdapter } from "../generators/init/choices.js";

export class Cancelled extends Error {
  constructor() {
    super("cancelled: nothing was written");
  }
}

function answered<T>(value: T): Exclude<T, symbol> {
  if (p.isCancel(value)) throw new Cancelled();
  return value as Exclude<T, symbol>;
}

const FRAMEWORK_LABELS: Record<Framework, string> = { sveltekit: "SvelteKit", "solid-start": "SolidStart" };
const ADAPTER_LABELS: Record<AdapterChoice, { label: string; hint: string }> = {
  pglite: { label: "PGlite", hint: "embedded PostgreSQL in a folder of the app: nothing to set up" },
  postgres: { label: "PostgreSQL server", hint: "Neon, Supabase, CockroachDB, your own: needs a DATABASE_URL" },
  sqlite: { label: "SQLite", hint: "a file of the app (.data/auth.sqlite) through better-sqlite3: nothing to set up" },
  "hosted-store": { label: "Hosted store", hint: "the svc_ tables on a branch of a hosted database: needs a HOSTED_STORE_DATABASE_URL" },
  drizzle: { label: "This app's Drizzle database", hint: "the auth tables in its Drizzle schema, created by drizzle-kit" },
  prisma: { label: "This app's Prisma database", hint: "the auth tables as models of its Prisma schema, created by prisma migrate" },
  kysely: { label: "This app's Kysely database", hint: "the auth tables as Kysely migrations in its migrations folder, applied with its own" },
  none: { label: "No database", hint: "JWT sessions; OAuth providers only" },
};

export function intro(title: string): void {
  p.intro(title);
}

export async function askFramework(choices: readonly Framework[]): Promise<Framework> {
  return answered(
    await p.select<Framework>({
      message: "Which framework does this app use?",
      options: choices.map((id) => ({ value: id, label: FRAMEWORK_LABELS[id] })),
    }),
  );
}

export async function askCreateApp(dir: string): Promise<boolean> {
  return answered(await p.confirm({ message: `${dir} has no app yet. Create a minimal app there first?`, initialValue: true }));
}

/** What a provider needs, next to its name in the list. */
function providerHint(entry: ProviderCatalogEntry): string | undefined {
  if (entry.type === "credentials") return "sign-up, confirmation and reset links by mail; needs a database";
  if (entry.type === "email") return `a sign-in link by mail: ${entry.env.join(", ")}; needs a database`;
  if (entry.type === "webauthn") return "WebAuthn, experimental; needs a database";
  return entry.env.join(", ") || undefined;
}

/** Fills in every answer the flags left open. */
/** The app's own ORM, where the auth tables can join it: offered first, with what it would do. */
export interface AppOrmOffer {
  adapter: AppOrmAdapter;
  hint: string;
}

export async function askInit(flags: InitFlags, framework: Framework, orm?: AppOrmOffer): Promise<InitAnswers> {
  // `--adapter none` given: providers that need a database cannot be ticked (checkAnswers would refuse them).
  const noDatabase = flags.adapter === "none";
  const providers =
    flags.providers ??
    answered(
      await p.multiselect<string>({
        message: "Sign in with",
        options: providerCatalog.map((entry) => ({
          value: entry.id,
          label: entry.name,
          hint: noDatabase && needsAdapter(entry) ? "needs a database: not with --adapter none" : providerHint(entry),
          disabled: noDatabase && needsAdapter(entry),
        })),
        // A default that cannot be ticked (password with --adapter none) is not ticked either.
        initialValues: DEFAULT_PROVIDERS.filter((id) => !(noDatabase && needsAdapter(findProvider(id)!))),
        required: true,
      }),
    );
  // Email links and passkeys keep their state in the database: "No database" is not offered with them.
  const requirement = adapterRequirement(providers.map((id) => findProvider(id)!));
  const adapter =
    flags.adapter ??
    answered(
      await p.select<AdapterChoice>({
        message: `Where should users and sessions be stored?${requirement ? ` (${requirement}, so "No database" is not offered)` : ""}`,
        // Drizzle, Prisma or Kysely is offered, first, only in an app whose setup the auth tables can join.
        options: [...(orm ? [orm.adapter] : []), ...ADAPTERS.filter((value) => !isAppOrm(value) && (!requirement || value !== "none"))].map((value) => ({
          value,
          ...ADAPTER_LABELS[value],
          ...(value === orm?.adapter ? { hint: orm.hint } : {}),
        })),
        initialValue: orm ? orm.adapter : DEFAULT_ADAPTER,
      }),
    );
  const strategy: Strategy =
    flags.strategy ??
    (adapter === "none"
      ? "jwt"
      : answered(
          await p.select<Strategy>({
            message: "Session strategy",
            options: [
              { value: "database", label: "Database sessions", hint: "revocable; one database read per request" },
              { value: "jwt", label: "JWT sessions", hint: "an encrypted cookie; no database read per request" },
            ],
            initialValue: defaultStrategy(adapter),
          }),
        ));
  let databaseUrl = flags.databaseUrl ?? "";
  const urlKey = DATABASE_URL_KEYS[adapter];
  if (urlKey && !flags.databaseUrl) {
    const url = answered(
      await p.text({
        message: `${urlKey} (leave empty to fill in .env later)`,
        placeholder: "postgres://user:password@localhost:5432/app",
        validate: (value) => {
          if (!value) return undefined;
          try {
            parseDatabaseUrl(value);
            return undefined;
          } catch (error) {
            return error instanceof UsageError ? error.message : String(error);
          }
        },
      }),
    );
    databaseUrl = url ? parseDatabaseUrl(url) : "";
  }
  // The account lives in the database: without one there is no account page to offer.
  const accountPage =
    flags.accountPage ??
    (adapter !== "none" &&
      answered(
        await p.confirm({
          message: "Add an account page (/account: profile, password, sessions, sign-in methods, deleting the account)?",
          initialValue: true,
        }),
      ));
  return { framework, providers, adapter, strategy, databaseUrl, accountPage };
}

export function spinner(): { start(message: string): void; stop(message: string): void; error(message: string): void } {
  const s = p.spinner();
  return { start: (m) => s.start(m), stop: (m) => s.stop(m), error: (m) => s.error(m) };
}

export function outro(message: string): void {
  p.outro(message);
}
