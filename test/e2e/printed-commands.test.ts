/**
 * Every command we tell a user to run, run where we print it: `auth-init --yes`
 * makes a SvelteKit app (this checkout's runtime and CLI packed into it and
 * installed), then each `npx @gatehouse/cli ...` that auth-init printed, that a
 * generated file names, that `auth doctor` prints as a fix, or that README.md,
 * docs/*.md or a command's --help gives for an app (without placeholders) is run in the app
 * exactly as written,
 * through npx. Each must reach the app's own copy of our CLI (outside it, `npx
 * auth` would run Better Auth's CLI), and do what it says.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authInitBin } from "../cli/support/cli.js";
import { run } from "./support/processes.js";
import { REPO_ROOT } from "./support/runtime-package.js";

const COMMAND = /npx @gatehouse\/cli(?: [^`\n#|)]*[^`\n#|) ,.;:])?/g;
/** Commands in README.md and docs/ that stand for something the reader fills in. */
const PLACEHOLDER = /<|\[|\/path\/to|user:pw|\.\.\.|example\.com|apps\/web|src\/lib\/server\/auth\.ts/;

/** What each printed command may answer besides 0, and why. */
const EXPECTED_EXIT: Record<string, { code: number; says: RegExp }> = {
  // The app has a secret already and there is no terminal to ask on: it names --yes and --rotate.
  "npx @gatehouse/cli secret": { code: 2, says: /Pass --yes to replace it anyway, or --rotate/ },
};

const work = mkdtempSync(join(tmpdir(), "gatehouse-printed-"));
const app = join(work, "app");
let initOutput = "";

function commandsIn(text: string): string[] {
  // Help examples put their description after two or more spaces.
  return [...text.matchAll(COMMAND)].map((match) => match[0].split(/\s{2,}/)[0]!.trim());
}

/** README.md and every page of docs/: the user guide. */
function guideText(): string {
  const docs = join(REPO_ROOT, "docs");
  const pages = readdirSync(docs).filter((name) => name.endsWith(".md")).map((name) => join(docs, name));
  return [join(REPO_ROOT, "README.md"), ...pages].map((path) => readFileSync(path, "utf8")).join("\n");
}

/** Text files of the app that we wrote or edited (not dependencies, builds or the database). */
function appTexts(dir: string): string {
  let text = "";
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (["node_modules", "vendor", ".svelte-kit", ".pglite", ".git"].includes(name)) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js|svelte|md|json|example)$|^\.env/.test(name)) text += `\n${readFileSync(path, "utf8")}`;
    }
  };
  walk(dir);
  return text;
}

/** Commands for an app that is set up: not the ones that create or move apps (other e2e tests run those), nor placeholders. */
function forThisApp(commands: string[]): string[] {
  return commands.filter(
    (command) => !PLACEHOLDER.test(command) && !/ init\b(?!.*--dry-run)/.test(command) && !/--from/.test(command) && command !== "npx @gatehouse/cli",
  );
}

/** The examples each command's --help gives. */
function helpExamples(): string[] {
  return ["secret", "init", "add-provider", "migrate", "doctor"].flatMap((name) => commandsIn(runPrinted(`npx @gatehouse/cli ${name} --help`).output));
}

function runPrinted(command: string): { code: number | null; output: string } {
  // As a user types it, in a shell; CI=1 so nothing waits for a terminal.
  const result = spawnSync("sh", ["-c", command], { cwd: app, encoding: "utf8", timeout: 120_000, env: { ...process.env, CI: "1", DATABASE_URL: undefined } });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  initOutput = await run(process.execPath, [authInitBin, "app", "--yes", "--providers", "password,github"], { cwd: work, timeoutMs: 600_000 });
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("every command we print, run where we print it", () => {
  it("the app has our CLI as a dev dependency, and npx @gatehouse/cli reaches it", () => {
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies["@gatehouse/cli"]).toMatch(/^file:vendor\/gatehouse-cli-/);
    const version = runPrinted("npx @gatehouse/cli --version");
    expect(version).toEqual({ code: 0, output: `${JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version}\n` });
  });

  it("what auth-init printed, what the generated files name, and the commands README and docs/ give for an app all work", () => {
    const doctor = runPrinted("npx @gatehouse/cli doctor");
    const guide = commandsIn(guideText());
    const commands = [...new Set([...commandsIn(initOutput), ...commandsIn(appTexts(app)), ...commandsIn(doctor.output), ...forThisApp([...guide, ...helpExamples()])])];
    // The ones this app must give: the generated schema names migrate; README and docs/ give secret, doctor, add-provider.
    expect(commands).toEqual(expect.arrayContaining(["npx @gatehouse/cli migrate", "npx @gatehouse/cli secret --rotate", "npx @gatehouse/cli add-provider github"]));
    const failures: string[] = [];
    for (const command of commands) {
      const { code, output } = runPrinted(command);
      const expected = EXPECTED_EXIT[command];
      const reachedOurs = !/BETTER_AUTH|npm error|could not determine executable/i.test(output);
      const ok = reachedOurs && (command.endsWith(" doctor") ? code === 0 || code === 1 : expected ? code === expected.code && expected.says.test(output) : code === 0);
      if (!ok) failures.push(`${command} (exit ${code}):\n${output}`);
    }
    expect(failures, `in ${relative(REPO_ROOT, app)}`).toEqual([]);
    console.log(`[e2e] printed commands run: ${commands.length}\n  ${commands.join("\n  ")}`);
  }, 600_000);
});
