/**
 * `auth migrate`: applies the app's schema (the runtime's migrations and the
 * app's own, from its schema module) to the database the app is configured for.
 */
import type { Command } from "commander";

export interface MigrateOptions {
  cwd: string;
  databaseUrl?: string;
  dryRun?: boolean;
}

const EXAMPLES = `
Examples:
  $ npx @gatehouse/cli migrate                         the app's database: DATABASE_URL or HOSTED_STORE_DATABASE_URL
                                             in .env, or its PGlite folder or SQLite file
  $ npx @gatehouse/cli migrate --dry-run               list what would be applied
  $ npx @gatehouse/cli migrate --database-url postgres://user:pw@db.example.com/app

Apps made by auth-init also migrate themselves when they first open the database;
this command does it ahead of a deploy. Stop a PGlite app first: one folder, one process.
A hosted store is migrated on the branch HOSTED_STORE_BRANCH names (default main).
Exit codes: 0 done (or nothing to do), 1 the database could not be reached or a migration failed, 2 usage.`;

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply the auth schema to the app's database (idempotent)")
    .option("--database-url <url>", "a PostgreSQL URL instead of the app's DATABASE_URL (or HOSTED_STORE_DATABASE_URL)")
    .option("--dry-run", "list the pending migrations; apply nothing")
    .option("--cwd <dir>", "the app's directory", ".")
    .addHelpText("after", EXAMPLES)
    .action(async function (this: Command, options: MigrateOptions) {
      const { runMigrate } = await import("./database-flows.js");
      await runMigrate(options, this);
    });
}
