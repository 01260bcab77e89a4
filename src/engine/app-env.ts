/**
 * The environment an app's server sees: its `.env` file, with the process
 * environment taking precedence (as dotenv and Vite load it).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAssignment, splitLines } from "../generators/dotenv.js";

export interface AppEnv {
  /** Merged: the file's values, overridden by the process's. */
  values: Record<string, string>;
  /** Whether the env file exists. */
  fileExists: boolean;
}

export function readAppEnv(dir: string, file = ".env", processEnv: NodeJS.ProcessEnv = process.env): AppEnv {
  let text: string | undefined;
  try {
    text = readFileSync(join(dir, file), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const values: Record<string, string> = {};
  for (const line of splitLines((text ?? "").replace(/^\uFEFF/, ""))) {
    const assignment = parseAssignment(line.text);
    if (assignment) values[assignment.key] = assignment.value;
  }
  for (const [key, value] of Object.entries(processEnv)) if (value !== undefined) values[key] = value;
  return { values, fileExists: text !== undefined };
}
