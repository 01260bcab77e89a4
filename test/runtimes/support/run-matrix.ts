/**
 * Runs the scenarios in one runtime's process and collects its report lines
 * (scenarios/report.mjs): which runtime ran, then one result per scenario. The
 * process's other output is kept to explain a failure.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { REPORT_MARK, type ReportEvent, type RuntimeEvent, type ScenarioResult } from "../scenarios/report.mjs";
import type { Command } from "./runtimes.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface MatrixRun {
  /** What the runtime said it is. */
  runtime: RuntimeEvent | undefined;
  results: Map<string, ScenarioResult>;
  /** Whether the runtime reported the end of the run (else it crashed or hung: see `output`). */
  done: boolean;
  /** How the process ended, and the tail of what it printed besides the report. */
  output: string;
  durationMs: number;
}

/** Starts `command` in the checkout's root (so `@gatehouse/runtime` resolves to the build) and waits for it, at most `timeoutMs`. */
export function runMatrix(command: Command, timeoutMs: number): Promise<MatrixRun> {
  const started = Date.now();
  // NODE_OPTIONS is vitest's business, not the runtime's.
  const env = { ...process.env, NODE_OPTIONS: undefined, ...command.env };
  // A process group of its own, so a hang is ended with what it started (Miniflare's workerd).
  const child = spawn(command.file, command.args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const run: MatrixRun = { runtime: undefined, results: new Map(), done: false, output: "", durationMs: 0 };
  let stdout = "";
  let other = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
    const lines = stdout.split("\n");
    stdout = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith(REPORT_MARK)) {
        other += `${line}\n`;
        continue;
      }
      const event = JSON.parse(line.slice(REPORT_MARK.length)) as ReportEvent;
      if ("runtime" in event) run.runtime = event;
      else if ("done" in event) run.done = true;
      else run.results.set(event.id, event);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (other += chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      other += `\n[the run did not end within ${timeoutMs / 1000} s and was stopped]`;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    let finished = false;
    const finish = (how: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      run.durationMs = Date.now() - started;
      run.output = `${command.file} ${how}; its other output:\n${other.slice(-4000) || "(none)"}`;
      resolve(run);
    };
    child.on("error", (error) => finish(`could not start: ${error.message}`));
    child.on("close", (code, signal) => finish(signal ? `ended by ${signal}` : `exited ${code}`));
  });
}
