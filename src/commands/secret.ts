/**
 * `auth secret`: flags and orchestration. The secret and the file edit come from
 * `generators/`, the disk from `engine/`.
 *
 * Kept light on purpose: only node built-ins and commander on the normal path.
 * `@clack/prompts` is imported only when there is a question to ask.
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { Option, type Command } from "commander";
import { assertEnvWritable, readTextFile, writeEnvFile } from "../engine/env-file.js";
import { readProject } from "../engine/project.js";
import { looseEnvWarning, replaceSecretCommand } from "../generators/file-modes.js";
import { isIgnored } from "../generators/gitignore.js";
import { generateSecret, setAuthSecret, type SecretEdit } from "../generators/secret.js";
import { appFolder } from "./app-folder.js";

interface SecretOptions {
  raw?: boolean;
  rotate?: boolean;
  yes?: boolean;
  envFile?: string;
  /** Hidden alias of --env-file, from before it existed. */
  file?: string;
  cwd?: string;
}

/** Exit code for a usage problem: a wrong or missing flag. Errors are 1. */
const USAGE = 2;

const EXAMPLES = `
Examples:
  $ auth secret                          write a new AUTH_SECRET to ./.env
  $ auth secret --rotate                 new secret as AUTH_SECRET_1 (then _2, _3): it encrypts, the old ones still decrypt
  $ auth secret --yes                    replace an existing secret without asking
  $ auth secret --env-file .env.local    write to another env file
  $ auth secret --cwd apps/web           the app lives in another directory
  $ auth secret --raw                    only print a secret; write no file

An existing AUTH_SECRET is replaced only after a yes/no question. Without a
terminal to ask on, pass --yes (replace it and any AUTH_SECRET_1.._3: everyone
is signed out) or --rotate (add the new one above it: sessions stay valid);
otherwise nothing is written and the exit code is 2.

Rotation follows Auth.js's order: the highest-numbered of AUTH_SECRET_3, _2, _1
that is set encrypts, then AUTH_SECRET; all of them decrypt.

Exit codes: 0 done, 1 error or answered no, 2 usage (wrong or missing flag).
`;

export function registerSecret(program: Command): void {
  program
    .command("secret")
    .description("generate a new AUTH_SECRET and write it to the app's env file")
    .option("--raw", "only print the secret to stdout; write no file")
    .option("--rotate", "write the new secret as the next AUTH_SECRET_n (Auth.js's order: it encrypts) and keep the old ones, so existing sessions stay valid")
    .option("-y, --yes", "replace an existing AUTH_SECRET without asking")
    .option("--env-file <path>", "env file to write, relative to --cwd", ".env")
    .addOption(new Option("--file <path>", "old name of --env-file").hideHelp())
    .option("--cwd <dir>", "the app's directory", ".")
    .addHelpText("after", EXAMPLES)
    .action(async function (this: Command, options: SecretOptions) {
      if (options.raw && options.rotate) {
        this.error("error: --raw and --rotate cannot be combined: --raw writes no file, and rotation keeps the old secret in the env file", { exitCode: USAGE });
      }
      const envPath = envFilePath(this, options);
      const secret = generateSecret();
      if (options.raw) return void console.log(secret);
      appFolder(this, options.cwd ?? ".");
      refuseOutsideApp(this, options);
      await writeSecret(this, secret, envPath, { rotate: Boolean(options.rotate), yes: Boolean(options.yes) });
    });
}

/**
 * The default `.env` goes into an app's folder only, as the other commands
 * refuse to run outside one: a folder without package.json (the home folder, a
 * monorepo root) would get a stray `.env` no app reads. An env file named with
 * --env-file (or --file) is the user's explicit choice, wherever it is; a folder
 * that does not exist is reported when writing, as before.
 */
function refuseOutsideApp(command: Command, options: SecretOptions): void {
  if (command.getOptionValueSource("envFile") === "cli" || options.file !== undefined) return;
  const dir = resolve(options.cwd ?? ".");
  const project = readProject(dir, ["package.json"]);
  if (!project.exists || project.files["package.json"] !== null) return;
  command.error(
    `error: no package.json in ${display(dir) || "."}, so no app to write .env for: run this in the app's folder, or pass --cwd <app folder> or --env-file <path> (--raw only prints a secret); nothing was written`,
    { exitCode: USAGE },
  );
}

/** `--env-file`, or its hidden alias `--file`; both are fine only when they name the same file. */
function envFilePath(command: Command, options: SecretOptions): string {
  const cwd = options.cwd ?? ".";
  const envFile = resolve(cwd, options.envFile ?? ".env");
  if (options.file === undefined) return envFile;
  const file = resolve(cwd, options.file);
  if (command.getOptionValueSource("envFile") === "cli" && file !== envFile) {
    command.error(`error: --env-file ${options.envFile} and --file ${options.file} name different files; --file is the old name of --env-file, give only one`, { exitCode: USAGE });
  }
  return file;
}

async function writeSecret(command: Command, secret: string, envPath: string, flags: { rotate: boolean; yes: boolean }): Promise<void> {
  let before = readTextFile(envPath);
  let edit = setAuthSecret(before ?? "", secret, { rotate: flags.rotate });
  const shown = display(envPath);
  // A file its owner protected is said before any question: no use confirming a replace that cannot happen.
  assertEnvWritable(envPath);

  // Rotation loses nothing, and an empty AUTH_SECRET= counts as none: only a real replace asks.
  if (edit.change === "replaced" && !flags.yes) {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      command.error(
        `error: ${shown} already has an AUTH_SECRET; nothing was changed. Replacing it signs everyone out. ` +
          `Pass --yes to replace it anyway, or --rotate to add the new one as AUTH_SECRET_1 (or the next free number) and keep the old one valid.`,
        { exitCode: USAGE },
      );
    }
    if (!(await confirmReplace(shown))) {
      command.error(`error: kept the existing AUTH_SECRET in ${shown}; nothing was changed`, { exitCode: 1 });
    }
    // The answer may have taken a while: edit what the file holds now, not what it held then.
    before = readTextFile(envPath);
    edit = setAuthSecret(before ?? "", secret, { rotate: false });
  }

  const { looseMode } = writeEnvFile(envPath, edit.content, before !== undefined);
  report(edit, shown, flags.rotate, before === undefined);
  if (looseMode !== undefined) {
    const replaceSecret = replaceSecretCommand(relative(process.cwd(), envPath));
    console.error(looseEnvWarning({ shown, mode: looseMode, before: before ?? "", after: edit.content, replaceSecret }));
  }
  hintGitignore(envPath);
}

/** Asks on the terminal; `false` for "no" and for a cancel (Ctrl-C, Escape). */
async function confirmReplace(shown: string): Promise<boolean> {
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({
    message: `Replace the AUTH_SECRET in ${shown}? Everyone signed in will be signed out (--rotate keeps their sessions valid).`,
    initialValue: false,
  });
  return !isCancel(answer) && answer;
}

function report(edit: SecretEdit, shown: string, rotate: boolean, created: boolean): void {
  if (edit.change === "rotated") {
    console.log(rotationReport(edit, shown));
  } else if (rotate) {
    console.log(`Nothing to rotate: ${shown} had no AUTH_SECRET. Wrote a new one to ${shown}.`);
  } else if (edit.change === "replaced") {
    const removed = edit.removed.length > 0 ? ` and removed ${list(edit.removed)}` : "";
    console.log(`Replaced AUTH_SECRET in ${shown}${removed}. Existing sessions are now invalid; use --rotate next time to keep them.`);
  } else {
    console.log(`${created ? "Created" : "Updated"} ${shown} with a new AUTH_SECRET.`);
  }
}

/**
 * What a rotation did, in Auth.js's terms (the highest-numbered secret set
 * encrypts, all decrypt), and how to retire the oldest once its sessions are gone.
 */
export function rotationReport(edit: SecretEdit, shown: string): string {
  const lines = [`Rotated the secret in ${shown}: the new one is ${edit.key} and encrypts new sessions from now on.`];
  for (const [from, to] of edit.renamed) lines.push(`Moved ${from} to ${to} to make room (same value).`);
  if (edit.removed.length > 0) lines.push(`Removed the oldest, ${list(edit.removed)} (only four fit): sessions made with it are signed out.`);
  lines.push(
    `${list(edit.older)} still decrypt${edit.older.length === 1 ? "s" : ""} existing sessions. (Auth.js's order: the highest-numbered of AUTH_SECRET_3, _2, _1 that is set encrypts, then AUTH_SECRET; all of them decrypt.)`,
    `Once the sessions made with the oldest, ${edit.older[0]}, have expired (session.maxAge, 30 days by default), retire it: delete its line from ${shown}.`,
  );
  return lines.join("\n");
}

function list(keys: readonly string[]): string {
  return keys.length > 1 ? `${keys.slice(0, -1).join(", ")} and ${keys.at(-1)}` : (keys[0] ?? "");
}

/** Nudges, but never edits: whether to commit an env file is the user's call. */
function hintGitignore(envPath: string): void {
  const gitignorePath = join(dirname(envPath), ".gitignore");
  const gitignore = readTextFile(gitignorePath);
  if (gitignore !== undefined && isIgnored(gitignore, basename(envPath))) return;
  console.error(`Hint: ${basename(envPath)} is not listed in ${display(gitignorePath)}; add it so the secret is never committed.`);
}

/** Relative to where the user ran the command when inside it, else absolute. */
function display(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
