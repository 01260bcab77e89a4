/**
 * Creating a minimal app in an empty folder before setting up auth. SvelteKit
 * apps come from Svelte's own scaffolder (`sv create`, fetched from the package
 * registry), pinned to the version this repository tests. SolidStart apps are
 * written from our templates (`create-solid` needs the internet): a Plan of new
 * files, applied like any other.
 */
import { execa } from "execa";
import { basename, dirname } from "node:path";
import type { Framework } from "../generators/detect.js";
import { planSolidStartApp } from "../generators/init/solid-start-app.js";
import { applyPlan } from "./apply.js";
import { packageTemplates } from "./templates.js";

export const SV = "sv@0.17.1";

export async function createApp(dir: string, framework: Framework): Promise<void> {
  if (framework === "solid-start") {
    applyPlan(dir, planSolidStartApp(basename(dir), packageTemplates));
    return;
  }
  const args = ["-y", SV, "create", basename(dir), "--template", "minimal", "--types", "ts", "--add", "sveltekit-adapter=adapter:node", "--no-install", "--no-dir-check"];
  const result = await execa("npx", args, { cwd: dirname(dir), all: true, reject: false, stdin: "ignore" });
  if (result.failed) throw new Error(`\`npx ${args.join(" ")}\` failed:\n${result.all ?? ""}`);
}
