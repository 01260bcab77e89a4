/**
 * The `auth` program. Commands register their flags here cheaply; anything heavy
 * (ts-morph, handlebars) is imported inside a command's action, so `auth secret`
 * never loads it.
 */
import { createRequire } from "node:module";
import { Command, CommanderError } from "commander";
import { registerAddProvider } from "./commands/add-provider.js";
import { registerDoctor } from "./commands/doctor.js";
import { registerInit } from "./commands/init.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerSecret } from "./commands/secret.js";

function version(): string {
  // dist/cli.js and src/cli.ts both sit one level below package.json.
  const pkg: unknown = createRequire(import.meta.url)("../package.json");
  return (pkg as { version: string }).version;
}

/** Commander's errors about how the command was typed: exit code 2 (usage), as our own usage errors. */
const USAGE_ERRORS = new Set([
  "commander.unknownOption",
  "commander.unknownCommand",
  "commander.missingArgument",
  "commander.optionMissingArgument",
  "commander.missingMandatoryOptionValue",
  "commander.invalidArgument",
  "commander.excessArguments",
  "commander.conflictingOption",
]);

function buildProgram(): Command {
  const program = new Command("auth")
    .description("gatehouse: authentication for SvelteKit and SolidStart apps")
    .version(version())
    // Throw instead of process.exit so run() can return the exit code.
    .exitOverride();
  registerSecret(program);
  registerInit(program);
  registerAddProvider(program);
  registerMigrate(program);
  registerDoctor(program);
  return program;
}

/**
 * Runs the CLI with user arguments (no `node` / script path) and resolves to the
 * process exit code.
 *
 * @example
 * process.exitCode = await run(process.argv.slice(2));
 */
export async function run(argv: string[]): Promise<number> {
  // `auth --help | head` closes the pipe early: that is the reader's choice, not a crash.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  try {
    await buildProgram().parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // Commander has already printed its own message (or the help / version).
    if (error instanceof CommanderError) return USAGE_ERRORS.has(error.code) ? 2 : error.exitCode;
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
