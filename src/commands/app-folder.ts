/**
 * The app folder a command works in (`--cwd`, and init's `[dir]`). A path that
 * names a file is a mistake in how the command was typed (exit 2), said before
 * any command reads `<file>/.env` and fails with the system's ENOTDIR.
 */
import { statSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { Command } from "commander";

export function appFolder(command: Command, ...path: string[]): string {
  const dir = resolve(...path);
  if (isFile(dir)) {
    const shown = relative(process.cwd(), dir) || dir;
    command.error(`error: ${shown} is a file, not a folder: pass the app's folder instead; nothing was changed`, { exitCode: 2, code: "auth.usage" });
  }
  return dir;
}

function isFile(path: string): boolean {
  try {
    return !statSync(path).isDirectory();
  } catch {
    // Absent (or unreadable): each command says what that means for it.
    return false;
  }
}
