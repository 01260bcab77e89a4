/**
 * Running the real built CLI as a program, the way npm's bin links run it: through
 * its shebang, with this test's node first on PATH. `onTerminal` gives it a
 * pseudo-terminal (util-linux `script`) and types answers when questions show.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../../", import.meta.url));
export const authBin = join(root, "bin/auth.js");
export const authInitBin = join(root, "bin/auth-init.js");
const isWindows = process.platform === "win32";

/** The bins' shebang runs `env node`: make that the node running these tests. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`, ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bin with pipes for stdin and stdout (never a terminal). Windows has no shebangs: there npm's shim runs `node -- <bin>`, and so does this. */
export function cli(bin: string, args: string[], cwd: string = root, env: Record<string, string | undefined> = {}, timeout = 20_000): CliResult {
  const [command, argv] = isWindows ? [process.execPath, ["--", bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { cwd, encoding: "utf8", timeout, env: childEnv(env) });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** True where util-linux `script` can give a child a terminal. */
export const hasScript =
  process.platform === "linux" &&
  /util-linux/.test(spawnSync("script", ["--version"], { encoding: "utf8" }).stdout ?? "") &&
  spawnSync("script", ["-qec", "test -t 0 && test -t 1", "/dev/null"], { stdio: "pipe", timeout: 10_000 }).status === 0;

const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** One answer: when the terminal shows `when` (after the previous answer), type `keys`. */
export interface TerminalAnswer {
  when: string;
  keys: string;
}

/** Runs a bin on a pseudo-terminal, answering each question in turn; resolves with the exit code and everything the terminal showed. */
export function onTerminal(
  bin: string,
  args: string[],
  cwd: string,
  answers: TerminalAnswer[],
  env: Record<string, string | undefined> = {},
  timeout = 15_000,
): Promise<{ code: number | null; output: string; answered: number }> {
  const command = `stty cols 200 rows 50 && exec ${[bin, ...args].map(shellQuote).join(" ")}`;
  const child = spawn("script", ["-qec", command, "/dev/null"], { cwd, env: childEnv({ TERM: "xterm-256color", ...env }) });
  return new Promise((resolve, reject) => {
    let output = "";
    let answered = 0;
    let seen = 0;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${bin} did not exit within ${timeout} ms; terminal so far:\n${output}`));
    }, timeout);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const next = answers[answered];
      const at = next ? output.indexOf(next.when, seen) : -1;
      if (next && at !== -1) {
        seen = at + next.when.length;
        answered += 1;
        // A moment for the prompt to finish drawing and listen for keys.
        setTimeout(() => child.stdin.write(next.keys), 50);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, output, answered });
    });
  });
}

/** A temporary copy of a fixture folder under test/cli/fixtures (or an empty folder). */
export function tempCopy(fixture: string | null, prefix: string, cleanup: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-${prefix}-`));
  cleanup.push(dir);
  if (fixture) cpSync(join(root, "test/cli/fixtures", fixture), dir, { recursive: true });
  return dir;
}

export function removeAll(dirs: string[]): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Every file under `dir` (relative path -> text), to prove a run changed nothing;
 * with `under`, only that folder of it (paths still relative to `dir`). Read as
 * latin1 (byte for byte) unless an encoding is given.
 */
export function snapshotDir(dir: string, { under = "", encoding = "latin1" }: { under?: string; encoding?: BufferEncoding } = {}): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, encoding);
    }
  };
  walk(join(dir, under));
  return files;
}
