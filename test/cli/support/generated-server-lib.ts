/**
 * auth-init's files under `src/lib/server/` (db.ts, schema.ts, ...) for one
 * database, written into a folder of a test's own, so a test can import and run
 * them outside an app. SolidStart 2's are used: its db.ts reads `process.env`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readProject } from "../../../src/engine/project.js";
import { packageTemplates } from "../../../src/engine/templates.js";
import { DETECT_PATHS } from "../../../src/generators/detect.js";
import type { AdapterChoice } from "../../../src/generators/init/answers.js";
import { initPaths, planInit } from "../../../src/generators/init/plan.js";
import { root } from "./cli.js";

/** Writes the server lib files auth-init makes for `adapter` (the Password provider, database sessions) into `dir`. */
export function writeGeneratedServerLib(adapter: AdapterChoice, dir: string): void {
  const project = readProject(join(root, "test/cli/fixtures/solid-start-v2"), [...DETECT_PATHS, ...initPaths("solid-start")]);
  const plan = planInit({
    answers: { framework: "solid-start", providers: ["password"], strategy: "database", adapter, databaseUrl: "" },
    project,
    packageManager: "npm",
    templates: packageTemplates,
    runtimeSpec: "^0.1.0",
    cliSpec: "^0.1.0",
    secret: "TEST_SECRET_0123456789_abcdefghijklmnopqrstu",
    frameworkMajor: 2,
  });
  for (const change of plan.changes.filter((c) => c.path.startsWith("src/lib/server/"))) {
    mkdirSync(join(dir, dirname(change.path)), { recursive: true });
    writeFileSync(join(dir, change.path), change.after!);
  }
}
