/**
 * `auth init [dir]` / `auth-init [dir]`: flags and help. The flow itself lives in
 * `init-flow.ts`, loaded only when the command runs, so other commands never
 * load ts-morph, handlebars or the prompts.
 */
import { Command, Option } from "commander";
import { ADAPTERS, FRAMEWORKS, STRATEGIES } from "../generators/init/choices.js";

export interface InitOptions {
  framework?: string;
  providers?: string;
  strategy?: string;
  adapter?: string;
  databaseUrl?: string;
  /** false with --no-account-page; undefined when not given (asked, or on with --yes). */
  accountPage?: boolean;
  install: boolean;
  runtime?: string;
  yes?: boolean;
  dryRun?: boolean;
  /** `authjs`: move an Auth.js app onto gatehouse instead of setting up a new one. */
  from?: string;
  cwd: string;
}

const EXAMPLES = `
Examples:
  $ npx @gatehouse/cli init                         ask everything, in the current folder
  $ npx @gatehouse/cli init --yes                   email + password accounts on PGlite (embedded database), no questions
  $ npx @gatehouse/cli init my-app --yes            create a SvelteKit app in ./my-app first if it is empty
  $ npx @gatehouse/cli init my-app --framework solid-start --yes   the same with a SolidStart 2 app
  $ npx @gatehouse/cli init --adapter postgres --database-url postgres://localhost/app --yes
  $ npx @gatehouse/cli init --adapter sqlite --yes  a SQLite file, .data/auth.sqlite (SQLITE_PATH in .env moves it)
  $ npx @gatehouse/cli init --providers password,github,keycloak --yes   passwords, GitHub and Keycloak
  $ npx @gatehouse/cli init --providers email,passkey --yes   passwordless: email links and passkeys, on PGlite
  $ npx @gatehouse/cli init --providers github --adapter none --strategy jwt --yes   GitHub only, no database
  $ npx @gatehouse/cli init --yes --no-install      add the packages to package.json; install nothing
  $ npx @gatehouse/cli init --no-account-page --yes   without the /account page
  $ npx @gatehouse/cli init --dry-run --yes         show every file and diff; write nothing
  $ npx @gatehouse/cli init --from authjs           move an Auth.js app: shows the diff, asks, then installs
  $ npx @gatehouse/cli init --from authjs --dry-run   only show what the move would change

email and passkey keep their state in a database (one-time sign-in tokens, the
passkeys): with them --adapter none is refused, and --yes picks pglite.
Without a terminal (CI), pass --yes or every choice as a flag.`;

export function registerInit(program: Command): void {
  program
    .command("init [dir]")
    .description("set up auth in a SvelteKit or SolidStart app (or create one in an empty folder)")
    .addOption(new Option("--framework <id>", "the app's framework (detected from package.json)").choices(FRAMEWORKS))
    .option("--providers <ids>", "comma-separated provider ids from the catalog: password (email + password accounts; credentials is its old id), email (links by mail), passkey, github, google, keycloak... (default: password)")
    .addOption(new Option("--strategy <strategy>", "session strategy (default: database with an adapter, else jwt)").choices(STRATEGIES))
    .addOption(new Option("--adapter <adapter>", "where users and sessions are stored (default: drizzle in an app with a Drizzle database, prisma in one with Prisma, kysely in one with Kysely and kysely-ctl, else pglite; email and passkey need one, not none)").choices(ADAPTERS))
    .option("--database-url <url>", "the database's URL for --adapter postgres (DATABASE_URL) or hosted-store (HOSTED_STORE_DATABASE_URL), written to .env")
    .option("--no-account-page", "no /account page (profile, password, sessions, sign-in methods, deletion; on by default when there is a database)")
    .option("--no-install", "do not install the dependencies (add them to package.json only)")
    .option("--runtime <spec>", "the @gatehouse/runtime dependency spec (default: this CLI's version, or its checkout's runtime, packed); with it, @gatehouse/cli is asked for at this CLI's version")
    .option("-y, --yes", "take the defaults for everything not given as a flag; ask nothing")
    .option("--dry-run", "print the plan (files with diffs, dependencies, env keys) and write nothing")
    .addOption(new Option("--from <library>", "move an app from this library: authjs (@auth/sveltekit or @auth/solid-start), keeping its config, env, database and signed-in users").choices(["authjs"]))
    .option("--cwd <dir>", "run as if started in this folder", ".")
    .addHelpText("after", EXAMPLES)
    .action(async function (this: Command, dir: string | undefined, options: InitOptions) {
      const { runInit } = await import("./init-flow.js");
      // Commander defaults a --no- flag to true: only a given one counts as an answer.
      const accountPage = this.getOptionValueSource("accountPage") === "cli" ? options.accountPage : undefined;
      await runInit(dir, { ...options, accountPage }, this);
    });
}
