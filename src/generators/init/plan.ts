/**
 * The `auth-init` plan: every file it would create or edit, with the packages,
 * env keys and next steps, computed from the answers and a snapshot of the app.
 * Pure: it reads templates through `TemplateSource` and writes nothing.
 */
import { findProvider, type ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import type { ProjectSnapshot } from "../../engine/project.js";
import { addEdit, addNewFile, emptyPlan, type Plan } from "../../plan/plan.js";
import type { PackageManager } from "../detect.js";
import { ensureEnvKeys, type EnvEntry } from "../env.js";
import { ensureIgnored } from "../gitignore.js";
import { addToPackageJson } from "../package-json.js";
import { SECRET_KEY } from "../secret.js";
import { render, type TemplateSource } from "../templates.js";
import type { InitAnswers } from "./answers.js";
import type { FrameworkLayout, InitTemplateData } from "./layout.js";
import { svelteKit } from "./sveltekit.js";
import { DRIVER_VERSIONS } from "./versions.js";

export const PGLITE_DIR = ".pglite";
const MIN_PASSWORD_LENGTH = 8;

const LAYOUTS: Record<InitAnswers["framework"], FrameworkLayout | undefined> = {
  sveltekit: svelteKit,
  "solid-start": undefined,
};

/** Files every plan reads, whatever the framework. */
const COMMON_PATHS = ["package.json", ".env", ".env.example", ".gitignore"];

export interface InitInput {
  answers: InitAnswers;
  project: ProjectSnapshot;
  packageManager: PackageManager;
  templates: TemplateSource;
  /** The `@gatehouse/runtime` dependency: a version range, or `file:` a packed tarball. */
  runtimeSpec: string;
  /** A fresh AUTH_SECRET, used only when the app has none. */
  secret: string;
}

export function layoutFor(framework: InitAnswers["framework"]): FrameworkLayout {
  const layout = LAYOUTS[framework];
  if (!layout) throw new Error(`auth-init cannot set up ${framework} apps yet`);
  return layout;
}

/** Every file `planInit` may read for this framework: give them to `readProject`. */
export function initPaths(framework: InitAnswers["framework"]): string[] {
  const layout = layoutFor(framework);
  const all: InitAnswers = { framework, providers: ["credentials"], strategy: "jwt", adapter: "pglite", databaseUrl: "" };
  const data = templateData(all, layout);
  const empty: ProjectSnapshot = { dir: "", exists: false, empty: true, files: {} };
  const files = layout.newFiles({ ...data, signUp: true }, empty).map((f) => f.path);
  return [...new Set([...COMMON_PATHS, ...layout.paths, ...files, ...libFiles(layout, { ...data, signUp: true }).map((f) => f.path)])];
}

export function planInit(input: InitInput): Plan {
  const { answers, project } = input;
  const layout = layoutFor(answers.framework);
  const data = templateData(answers, layout);
  const plan = emptyPlan();
  const file = (path: string) => project.files[path];

  for (const { path, template } of [...layout.newFiles(data, project), ...libFiles(layout, data)]) {
    const text = render(input.templates, template, { ...layout.data, ...data });
    addNewFile(plan, path, file(path), text, `${path} exists and differs from what auth-init writes: left as it is`);
  }
  for (const edit of layout.edits(project, data)) {
    if (edit.ok) addEdit(plan, edit.path, file(edit.path), edit.text);
    else plan.kept.push({ path: edit.path, reason: edit.reason });
  }

  const providers = answers.providers.map((id) => findProvider(id)!);
  const env = envEntries(answers, providers, input.secret);
  addEdit(plan, ".env", file(".env"), ensureEnvKeys(file(".env") ?? "", env), true);
  addEdit(plan, ".env.example", file(".env.example"), ensureEnvKeys(file(".env.example") ?? "", env.map(({ key }) => ({ key, value: "" }))));
  const ignored = [".env", ...(answers.adapter === "pglite" ? [`${PGLITE_DIR}/`] : [])];
  addEdit(plan, ".gitignore", file(".gitignore"), ensureIgnored(file(".gitignore") ?? "", ignored, "auth: secrets and the local database"));

  plan.dependencies = { "@gatehouse/runtime": input.runtimeSpec, ...driver(answers).dependencies };
  plan.devDependencies = driver(answers).devDependencies;
  const pkg = file("package.json");
  if (pkg == null) throw new Error("package.json not found: run auth-init in the app's folder (or pass it as [dir])");
  const scripts = layout.scripts(project);
  addEdit(plan, "package.json", pkg, addToPackageJson(pkg, { dependencies: plan.dependencies, devDependencies: plan.devDependencies, scripts }));

  const envAfter = ensureEnvKeys(file(".env") ?? "", env);
  plan.env = env.map(({ key }) => ({ key, filled: hasValue(envAfter, key) }));
  plan.nextSteps = nextSteps(answers, layout, providers, input.packageManager, plan);
  return plan;
}

function templateData(answers: InitAnswers, layout: FrameworkLayout): InitTemplateData {
  const providers = answers.providers.map((id) => findProvider(id)!);
  const credentials = providers.some((p) => p.type === "credentials");
  const hasAdapter = answers.adapter !== "none";
  const oauthProviders = providers.filter((p) => p.type === "oauth" || p.type === "oidc");
  return {
    ...layout.data,
    credentials,
    signUp: credentials && hasAdapter,
    hasAdapter,
    pglite: answers.adapter === "pglite",
    postgres: answers.adapter === "postgres",
    strategy: answers.strategy,
    providerImports: providers.map((p) => p.importName).join(", "),
    oauthProviders: oauthProviders.map(({ id, name, importName }) => ({ id, name, importName })),
    minPasswordLength: MIN_PASSWORD_LENGTH,
    pgliteDir: PGLITE_DIR,
  };
}

/** The database module, its schema and the password functions, shared by every framework. */
function libFiles(layout: FrameworkLayout, data: InitTemplateData) {
  if (!data.hasAdapter) return [];
  const names = ["db.ts", "schema.ts", ...(data.signUp ? ["passwords.ts"] : [])];
  return names.map((name) => ({ path: `${layout.libDir}/${name}`, template: `shared/lib/${name}.hbs` }));
}

function envEntries(answers: InitAnswers, providers: ProviderCatalogEntry[], secret: string): EnvEntry[] {
  return [
    { key: SECRET_KEY, value: secret },
    ...(answers.adapter === "postgres" ? [{ key: "DATABASE_URL", value: answers.databaseUrl }] : []),
    ...providers.flatMap((p) => p.env.map((key) => ({ key, value: "" }))),
  ];
}

/** The adapter's driver, and Node's types for the password module (node:crypto). */
function driver(answers: InitAnswers): { dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  const nodeTypes = { "@types/node": DRIVER_VERSIONS["@types/node"] };
  if (answers.adapter === "pglite") return { dependencies: { "@electric-sql/pglite": DRIVER_VERSIONS["@electric-sql/pglite"] }, devDependencies: nodeTypes };
  if (answers.adapter === "postgres") return { dependencies: { pg: DRIVER_VERSIONS.pg }, devDependencies: { "@types/pg": DRIVER_VERSIONS["@types/pg"], ...nodeTypes } };
  return { dependencies: {}, devDependencies: {} };
}

function hasValue(env: string, key: string): boolean {
  return new RegExp(`^\\s*(?:export\\s+)?${key}\\s*=\\s*["']?[^"'\\s#]`, "m").test(env);
}

export function runScript(manager: PackageManager, script: string): string {
  return manager === "npm" || manager === "bun" ? `${manager} run ${script}` : `${manager} ${script}`;
}

function nextSteps(answers: InitAnswers, layout: FrameworkLayout, providers: ProviderCatalogEntry[], manager: PackageManager, plan: Plan): string[] {
  const steps: string[] = [];
  const empty = plan.env.filter((e) => !e.filled).map((e) => e.key);
  for (const provider of providers.filter((p) => p.type === "oauth" || p.type === "oidc")) {
    const where = provider.setupUrl ? ` at ${provider.setupUrl}` : "";
    steps.push(`Register the callback URL ${layout.devOrigin}${layout.authPath}/callback/${provider.id} for ${provider.name}${where}, then set ${provider.env.join(" and ")} in .env.`);
  }
  if (empty.includes("DATABASE_URL")) steps.push("Set DATABASE_URL in .env to your PostgreSQL server (postgres://user:password@host:5432/database).");
  const credentials = providers.some((p) => p.type === "credentials");
  if (credentials && answers.adapter === "none") {
    steps.push("Write the password check in src/auth.ts (the Credentials provider's authorize): until then every sign-in is refused.");
  }
  const page = credentials && answers.adapter !== "none" ? "/signup" : "/signin";
  steps.push(`Start the app with \`${runScript(manager, "dev")}\` and open ${layout.devOrigin}${page}; ${layout.devOrigin}/protected shows who is signed in.`);
  return steps;
}
