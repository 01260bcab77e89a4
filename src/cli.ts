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

/** How the user started the CLI, for the usage lines of its help. */
export interface Invocation {
  /** What they typed: a bin's name (`auth`, `gatehouse`, `auth-init`) or `npx @gatehouse/cli`. */
  name: string;
  /** The command that name stands for: `auth-init` is `init`. */
  command?: string;
}

/** The bin npx runs for `npx @gatehouse/cli` (the package name's last part): the user typed the package name, not this. */
const NPX_BIN = "cli";
const NPX_NAME = "npx @gatehouse/cli";

/**
 * The invocation from the path the bin was started by (process.argv[1]: npm's
 * link, named after the bin); `npx @gatehouse/cli` when the name says nothing.
 *
 * @example
 * invokedAs("/app/node_modules/.bin/cli") // { name: "npx @gatehouse/cli" }
 * invokedAs("/app/node_modules/.bin/gatehouse") // { name: "gatehouse" }
 */
export function invokedAs(binPath: string | undefined): Invocation {
  const name = (binPath ?? "").split(/[\\/]/).pop()!.replace(/\.(?:c|m)?js$/, "");
  return { name: name === NPX_BIN || !/^[\w.-]+$/.test(name) ? NPX_NAME : name };
}

function buildProgram(invocation: Invocation): Command {
  const program = new Command(invocation.name)
    .description("gatehouse: authentication for SvelteKit and SolidStart apps")
    .version(version())
    // Throw instead of process.exit so run() can return the exit code.
    .exitOverride()
    // Before the commands are added: they take the program's help settings when created.
    .configureHelp({ commandUsage: (command) => usageLine(command, invocation) });
  registerSecret(program);
  registerInit(program);
  registerAddProvider(program);
  registerMigrate(program);
  registerDoctor(program);
  return program;
}

/** `Usage: <what the user typed> <command> [options]`: `auth-init [options] [dir]`, not `auth init`. */
function usageLine(command: Command, invocation: Invocation): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  if (invocation.command !== undefined && names[0] === invocation.command) names.shift();
  return [invocation.name, ...names, command.usage()].join(" ");
}

/**
 * Runs the CLI with user arguments (no `node` / script path) and resolves to the
 * process exit code. `invocation` names the program in its help.
 *
 * @example
 * process.exitCode = await run(process.argv.slice(2), invokedAs(process.argv[1]));
 */
export async function run(argv: string[], invocation: Invocation = { name: NPX_NAME }): Promise<number> {
  // `auth --help | head` closes the pipe early: that is the reader's choice, not a crash.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  try {
    await buildProgram(invocation).parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    // Commander has already printed its own message (or the help / version).
    if (error instanceof CommanderError) return USAGE_ERRORS.has(error.code) ? 2 : error.exitCode;
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
