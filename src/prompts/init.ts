/**
 * The `auth-init` questions (@clack/prompts). Each asks only for what the flags
 * and the app's files did not settle, and returns typed answers. Ctrl-C ends
 * the command with nothing written.
 */
import * as p from "@clack/prompts";
import { providerCatalog } from "@gatehouse/runtime/providers/catalog";
import type { Framework } from "../generators/detect.js";
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
  none: { label: "No database", hint: "JWT sessions only; you check passwords yourself" },
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

/** Fills in every answer the flags left open. */
export async function askInit(flags: InitFlags, framework: Framework): Promise<InitAnswers> {
  const providers =
    flags.providers ??
    answered(
      await p.multiselect<string>({
        message: "Sign in with",
        options: providerCatalog.map((entry) => ({ value: entry.id, label: entry.name, hint: entry.env.join(", ") || undefined })),
        initialValues: DEFAULT_PROVIDERS,
        required: true,
      }),
    );
  const adapter =
    flags.adapter ??
    answered(
      await p.select<AdapterChoice>({
        message: "Where should users and sessions be stored?",
        options: ADAPTERS.map((value) => ({ value, ...ADAPTER_LABELS[value] })),
        initialValue: DEFAULT_ADAPTER,
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
  return { framework, providers, adapter, strategy, databaseUrl };
}

export function spinner(): { start(message: string): void; stop(message: string): void; error(message: string): void } {
  const s = p.spinner();
  return { start: (m) => s.start(m), stop: (m) => s.stop(m), error: (m) => s.error(m) };
}

export function outro(message: string): void {
  p.outro(message);
}
