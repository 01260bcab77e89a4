/**
 * The `auth add-provider` flow: check the ids against the runtime's catalog,
 * plan the edit, print it (`--dry-run`) or apply it, then the callback URLs.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { findProvider, providerCatalog } from "@gatehouse/runtime/providers/catalog";
import { applyPlan } from "../engine/apply.js";
import { warnTightened } from "./loose-env-warning.js";
import { readProject } from "../engine/project.js";
import { planAddProviders, type AddProviderInput } from "../generators/add-provider.js";
import { databaseKind } from "../generators/app-database.js";
import { listedDependencies } from "../generators/package-json.js";
import { detect, DETECT_PATHS } from "../generators/detect.js";
import { layoutFor } from "../generators/init/plan.js";
import { closestMatch } from "../generators/suggest.js";
import { UnparsableFileError } from "../plan/plan.js";
import { colorsFor } from "../ui/colors.js";
import { dryRunReport, nextStepsReport, summaryReport } from "../ui/plan-report.js";
import type { AddProviderOptions } from "./add-provider.js";
import { appFolder } from "./app-folder.js";
import { inBothLanguages } from "../generators/source-layout.js";

const DEFAULT_CONFIG = "src/auth.ts";

export async function runAddProvider(ids: string[], options: AddProviderOptions, command: Command): Promise<void> {
  const dir = appFolder(command, options.cwd);
  const c = colorsFor(process.stdout);
  const wanted = [...new Set(ids.map((id) => id.trim().toLowerCase()))];
  const unknown = wanted.filter((id) => !findProvider(id));
  if (unknown.length > 0) {
    // Only what add-provider takes: the Password provider is known, but auth-init sets it up.
    const accepted = providerCatalog.filter((p) => p.type !== "credentials").map((p) => p.id);
    const guesses = unknown.map((id) => closestMatch(id, accepted)).filter((id) => id !== undefined);
    const guess = guesses.length > 0 ? ` (did you mean ${guesses.join(", ")}?)` : "";
    command.error(`error: unknown provider${unknown.length > 1 ? "s" : ""} ${unknown.map((id) => `"${id}"`).join(", ")}${guess}: add-provider takes ${accepted.join(", ")}`, { exitCode: 2, code: "auth.usage" });
  }
  const entries = wanted.map((id) => findProvider(id)!);
  const password = entries.find((entry) => entry.type === "credentials");
  if (password) {
    command.error(`error: ${password.id} comes with pages (sign-up, forgot and reset password): set it up with auth-init, which writes them; add-provider edits only the config`, { exitCode: 2, code: "auth.usage" });
  }

  const { configPath, ...layout } = appLayout(dir, options.config);
  const result = planAddProviders({ entries, configPath, read: (path) => readOrNull(join(dir, path)), ...layout });
  if (!result.ok) {
    // A module that does not parse is not edited "by hand" around: the user fixes it first (one line, exit 1).
    if ("unparsable" in result && result.unparsable) throw new UnparsableFileError([result.unparsable]);
    if ("needsAdapter" in result) command.error(`error: ${result.reason}`, { exitCode: 1, code: "auth.adapter" });
    command.error(`error: cannot edit the config safely: ${result.reason}. Nothing was changed. Add it by hand:\n${result.byHand}`, { exitCode: 1, code: "auth.edit" });
  }
  for (const entry of result.present) console.log(`${entry.name} is already in ${configPath}.`);
  if (options.dryRun) {
    console.log(dryRunReport(result.plan, c));
  } else {
    const applied = applyPlan(dir, result.plan);
    if (result.plan.changes.length > 0) console.log(summaryReport(result.plan, c));
    warnTightened(dir, result.plan, applied);
  }
  console.log(`\n${nextStepsReport(result.plan, c)}`);
}

/**
 * Where the app serves auth in development, its sign-in page and its config
 * module, from the project's picture: its framework (SolidStart 1 and 2 differ
 * in dev port), where it keeps its source and in which language.
 */
function appLayout(dir: string, config: string | undefined): Pick<AddProviderInput, "authBaseUrl" | "signIn" | "installCommand" | "configPath" | "dbModule"> {
  const project = readProject(dir, DETECT_PATHS);
  const detection = detect(project);
  const installCommand = `${detection.packageManager} install`;
  const framework = detection.frameworks[0];
  if (!framework) return { authBaseUrl: "<your origin>/auth", installCommand, configPath: config ?? DEFAULT_CONFIG };
  const layout = layoutFor(framework.id, { major: framework.major, project, source: detection.source });
  const signIn = { page: layout.signInPage, button: layout.signInButton, clientModule: layout.clientModule };
  const dbModule = appDbModule(dir, layout.place, project.files["package.json"] ?? undefined);
  return { authBaseUrl: `${layout.devOrigin}${layout.authPath}`, signIn, installCommand, configPath: config ?? existingConfig(project.dir, layout.authConfig), ...(dbModule ? { dbModule } : {}) };
}

/**
 * The db module auth-init wrote, and whether a rate limit store may be added to
 * it: on a database several processes open (a PostgreSQL server, the hosted
 * store, a SQLite file), not on PGlite, which one process opens alone. An ORM's
 * `auth-db` module is only used when it exports a store already (which driver
 * the ORM opens PGlite with is not in its text).
 */
function appDbModule(dir: string, place: (path: string) => string, packageJson: string | undefined): AddProviderInput["dbModule"] {
  const authDb = place("src/lib/server/auth-db.ts");
  if (existsSync(join(dir, authDb))) return { path: authDb, addStore: false };
  const db = place("src/lib/server/db.ts");
  const text = readOrNull(join(dir, db));
  if (text === null) return undefined;
  const kind = packageJson === undefined ? undefined : databaseKind(listedDependencies(packageJson), {}, text);
  return { path: db, addStore: kind === "postgres" || kind === "hosted-store" || kind === "sqlite" };
}

/** The config module auth-init wrote: where the layout says, or in the other language (an app that changed language since). */
function existingConfig(dir: string, placed: string): string {
  return [placed, ...inBothLanguages(placed)].find((path) => readOrNull(join(dir, path)) !== null) ?? placed;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
