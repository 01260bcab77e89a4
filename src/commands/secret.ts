/**
 * `auth secret`: flags and orchestration. The secret and the file edit come from
 * `generators/`, the disk from `engine/`.
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { readTextFile, writeEnvFile } from "../engine/env-file.js";
import { isIgnored } from "../generators/gitignore.js";
import { generateSecret, setAuthSecret } from "../generators/secret.js";

interface SecretOptions {
  raw?: boolean;
  rotate?: boolean;
  file?: string;
  cwd?: string;
}

export function registerSecret(program: Command): void {
  program
    .command("secret")
    .description("generate a new AUTH_SECRET and write it to the app's env file")
    .option("--raw", "only print the secret to stdout; write no file")
    .option("--rotate", "keep the current secret as AUTH_SECRET_1 (older ones shift to _2 and _3) so existing sessions stay valid")
    // Not `--env-file`: Node claims that flag even after the script name (nodejs/node#54232).
    .option("--file <path>", "env file to write, relative to --cwd", ".env")
    .option("--cwd <dir>", "the app's directory", ".")
    .action(function (this: Command, options: SecretOptions) {
      if (options.raw && options.rotate) {
        this.error("error: --raw and --rotate cannot be combined: --raw writes no file, and rotation keeps the old secret in the env file");
      }
      const secret = generateSecret();
      if (options.raw) return void console.log(secret);
      writeSecret(secret, resolve(options.cwd ?? ".", options.file ?? ".env"), Boolean(options.rotate));
    });
}

function writeSecret(secret: string, envPath: string, rotate: boolean): void {
  const before = readTextFile(envPath);
  const edit = setAuthSecret(before ?? "", secret, { rotate });
  writeEnvFile(envPath, edit.content, before !== undefined);

  const shown = display(envPath);
  if (edit.change === "rotated") {
    const dropped = edit.droppedOldest ? " The oldest (AUTH_SECRET_3) was removed." : "";
    console.log(`Rotated AUTH_SECRET in ${shown}: the previous secret is now AUTH_SECRET_1.${dropped}`);
  } else if (rotate) {
    console.log(`Nothing to rotate: ${shown} had no AUTH_SECRET. Wrote a new one to ${shown}.`);
  } else if (edit.change === "replaced") {
    console.log(`Replaced AUTH_SECRET in ${shown}. Existing sessions are now invalid; use --rotate next time to keep them.`);
  } else {
    console.log(`${before === undefined ? "Created" : "Updated"} ${shown} with a new AUTH_SECRET.`);
  }
  hintGitignore(envPath);
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
