/**
 * The plan of `auth-init --from authjs`: an app on `@auth/sveltekit` or
 * `@auth/solid-start` moved onto gatehouse by its imports. Every source file's
 * Auth.js imports point at gatehouse's modules; providers, adapters, callbacks,
 * env names and the database stay as they are; package.json trades the Auth.js
 * framework package for `@gatehouse/runtime`. Sessions carry over: the cookies,
 * their encryption and the database rows are Auth.js's. Pure: reads a snapshot.
 */
import { destructureOldHandle } from "../../ast/authjs-handle.js";
import { moveAuthjsImports } from "../../ast/authjs-imports.js";
import type { ProjectSnapshot } from "../../engine/project.js";
import { addEdit, emptyPlan, type Plan } from "../../plan/plan.js";
import type { Framework } from "../detect.js";
import { hasEnvValue } from "../env.js";
import { UsageError } from "../init/answers.js";
import { addToPackageJson, listedDependencies, removeFromPackageJson } from "../package-json.js";
import { AUTHJS_CORE } from "./module-map.js";

const RUNTIME = "@gatehouse/runtime";
const CLI = "@gatehouse/cli";
/** Any of these tells gatehouse the app's public origin. */
const PUBLIC_ORIGIN_KEYS = ["AUTH_URL", "ORIGIN", "AUTH_TRUST_HOST"];

const FRAMEWORK_OF: Readonly<Record<string, Framework>> = { "@auth/sveltekit": "sveltekit", "@auth/solid-start": "solid-start" };

export interface FromAuthjsInput {
  /** package.json, `.env` and every source file of the app (see `SOURCE_EXTENSIONS`). */
  project: ProjectSnapshot;
  /** The `@gatehouse/runtime` dependency spec. */
  runtimeSpec: string;
  /** The `@gatehouse/cli` dev dependency spec: the commands we print run the app's own copy. */
  cliSpec: string;
  /** The `@auth/core` the app runs now, for when it must stay listed (a provider gatehouse lacks). */
  authjsCoreVersion: string;
  /** The package manager's install command when the user runs it (`--no-install`); undefined when auth-init installs. */
  installCommand?: string;
}

export interface FromAuthjsPlan {
  plan: Plan;
  framework: Framework;
  /** Import, export and augmentation sites moved to gatehouse. */
  moved: number;
}

export function planFromAuthjs({ project, runtimeSpec, cliSpec, authjsCoreVersion, installCommand }: FromAuthjsInput): FromAuthjsPlan {
  const packageJson = project.files["package.json"];
  if (packageJson == null) throw new UsageError("no package.json here: run auth-init --from authjs in the folder of the Auth.js app");
  const listed = listedDependencies(packageJson);
  const frameworkPackage = Object.keys(FRAMEWORK_OF).find((name) => name in listed);
  const framework = frameworkPackage ? FRAMEWORK_OF[frameworkPackage]! : alreadyMoved(listed);

  const plan = emptyPlan();
  const stillImported = new Set<string>();
  let moved = 0;
  for (const [path, text] of Object.entries(project.files)) {
    if (text == null || path === "package.json" || path === ".env") continue;
    const result = moveAuthjsImports({ path, text });
    if ("syntaxError" in result) {
      // The whole move is refused (refuseUnparsable), as every command refuses to edit around a file it cannot read.
      plan.unparsable.push({ path, language: path.endsWith(".svelte") ? "Svelte" : "TypeScript", ...result.syntaxError });
      continue;
    }
    addEdit(plan, path, text, framework === "sveltekit" ? destructureOldHandle({ path, text: result.text }) : result.text);
    moved += result.moved;
    for (const name of result.stillImports) stillImported.add(name);
    for (const kept of result.kept) plan.kept.push({ path: `${path}:${kept.line}`, reason: `${kept.specifier} stays: ${kept.reason}` });
  }

  // A package goes only when no file imports it any more; @auth/core is listed when a kept import needs it.
  const unused = [...Object.keys(FRAMEWORK_OF), AUTHJS_CORE].filter((name) => name in listed && !stillImported.has(name));
  const needsCore = stillImported.has(AUTHJS_CORE) && !(AUTHJS_CORE in listed);
  plan.dependencies = { [RUNTIME]: runtimeSpec, ...(needsCore ? { [AUTHJS_CORE]: authjsCoreVersion } : {}) };
  plan.devDependencies = { [CLI]: cliSpec };
  const edited = addToPackageJson(removeFromPackageJson(packageJson, unused), { dependencies: plan.dependencies, devDependencies: plan.devDependencies });
  addEdit(plan, "package.json", packageJson, edited);

  plan.nextSteps = nextSteps(framework, installCommand, unused, plan, project.files[".env"] ?? "");
  return { plan, framework, moved };
}

/** No Auth.js framework package: an app already moved (nothing to do) or not an Auth.js app. */
function alreadyMoved(listed: Record<string, string>): Framework {
  if (RUNTIME in listed) {
    if ("@sveltejs/kit" in listed) return "sveltekit";
    if ("@solidjs/start" in listed || "solid-start" in listed) return "solid-start";
  }
  throw new UsageError(
    "package.json lists neither @auth/sveltekit nor @auth/solid-start: --from authjs moves an Auth.js app; without it, auth-init sets up a new one",
  );
}

function nextSteps(framework: Framework, installCommand: string | undefined, removed: readonly string[], plan: Plan, env: string): string[] {
  const steps: string[] = [];
  if (installCommand) steps.push(`Install: \`${installCommand}\`${removed.length > 0 ? ` (it removes ${removed.join(" and ")})` : ""}.`);
  // Auth.js trusts the request's host whenever NODE_ENV is not "production"; gatehouse only in development and test.
  if (!PUBLIC_ORIGIN_KEYS.some((key) => hasEnvValue(env, key))) {
    steps.push(
      `Where the app runs, set AUTH_URL to its public URL${framework === "sveltekit" ? " (adapter-node's ORIGIN counts too)" : ""} or AUTH_TRUST_HOST=true behind your own proxy: unlike Auth.js, gatehouse does not trust the request's host when NODE_ENV is merely unset (Vercel and Cloudflare Pages need nothing).`,
    );
  }
  steps.push("Build and start the app as before: signed-in users stay signed in (the same AUTH_SECRET, session cookies and database).");
  if (plan.kept.length > 0) steps.push("The imports listed as kept still come from Auth.js and work as they did; each line says why it stayed.");
  steps.push("What gatehouse does differently on purpose (error pages, host trust, getToken, createActionURL): gatehouse's docs/migrating-from-authjs.md, \"Moving from Auth.js\".");
  return steps;
}
