/**
 * The `auth-init` plan: every file it would create or edit, with the packages,
 * env keys and next steps, computed from the answers and a snapshot of the app.
 * Pure: it reads templates through `TemplateSource` and writes nothing.
 */
import { posix } from "node:path";
import { DEFAULT_BRANCH, HOSTED_STORE_ENV } from "@gatehouse/runtime/adapters/hosted-store";
import { findProvider, type ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import { RATE_LIMIT_COMMENT, rateLimitStoreComment } from "../../ast/config-object.js";
import { RATE_LIMIT_TABLES, rateLimitStoreModuleComment } from "../../ast/rate-limit-store.js";
import type { ProjectSnapshot } from "../../engine/project.js";
import { addEdit, addNewFile, emptyPlan, type Plan } from "../../plan/plan.js";
import type { PackageManager } from "../detect.js";
import { ensureEnvKeys, hasEnvValue, type EnvEntry } from "../env.js";
import { ensureIgnored } from "../gitignore.js";
import { addToPackageJson } from "../package-json.js";
import { adapterRequirement, isPasskey, needsAdapter, providerPackages } from "../passwordless.js";
import { envKeyComment, isOAuthProvider, providerSetupSteps } from "../provider-setup.js";
import { SECRET_KEY } from "../secret.js";
import { moduleToJavaScript, svelteToJavaScript } from "../javascript.js";
import { writesJavaScript, type SourceLayout } from "../source-layout.js";
import { render, type TemplateSource } from "../templates.js";
import { DEFAULT_SQLITE_PATH, type InitAnswers } from "./answers.js";
import type { FrameworkLayout, InitTemplateData, LayoutContext, RateLimitStoreName } from "./layout.js";
import { solidStart } from "./solid-start.js";
import { svelteKit } from "./sveltekit.js";
import { DRIVER_VERSIONS } from "./versions.js";
import { addReExport } from "../../ast/drizzle-config.js";
import { drizzleCommands, type DrizzleApp } from "../drizzle.js";
import { kyselyMigrateCommand, type KyselyApp } from "../kysely.js";
import { prismaMigrateCommand, type PrismaApp } from "../prisma.js";
import { withAuthModels } from "../prisma-schema.js";

export const PGLITE_DIR = ".pglite";
const MIN_PASSWORD_LENGTH = 8;

const LAYOUTS: Record<InitAnswers["framework"], (context: LayoutContext) => FrameworkLayout> = {
  sveltekit: svelteKit,
  "solid-start": solidStart,
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
  /** The `@gatehouse/cli` dev dependency: every command we print (`npx @gatehouse/cli ...`) runs the app's own copy. */
  cliSpec: string;
  /** A fresh AUTH_SECRET, used only when the app has none. */
  secret: string;
  /** The framework's major version (detected from package.json), when known. */
  frameworkMajor?: number;
  /** The Node.js running auth-init, for notes on what the framework needs of it. */
  nodeVersion?: string;
  /** Where the app keeps its source and in which language (the project's picture); the templates' own places when absent. */
  source?: SourceLayout;
  /** For `--adapter drizzle`: the app's Drizzle setup, and the runtime's Drizzle schema of the auth tables for its dialect. */
  drizzle?: DrizzleSetup;
  /** For `--adapter prisma`: the app's Prisma setup, and the runtime's Prisma models of the auth tables for its dialect. */
  prisma?: PrismaSetup;
  /** For `--adapter kysely`: the app's Kysely setup, and where the runtime's Kysely migrations go in its migrations folder. */
  kysely?: KyselySetup;
}

export interface KyselySetup {
  app: KyselyApp;
  /** The runtime's migration modules, each with its path in the app's folder: those an earlier run wrote, and those it lacks. */
  present: { path: string; text: string }[];
  missing: { path: string; text: string }[];
}

export interface PrismaSetup {
  app: PrismaApp;
  /** The runtime's models, or the same with `Auth` before each name where the app's schema has them already. */
  authModels: string;
  prefixed?: boolean;
}

export interface DrizzleSetup {
  app: DrizzleApp;
  authSchemaText: string;
}

export function layoutFor(framework: InitAnswers["framework"], context: LayoutContext = {}): FrameworkLayout {
  return LAYOUTS[framework](context);
}

/** Every file `planInit` may read for this framework (where this app keeps its source): give them to `readProject`. */
export function initPaths(framework: InitAnswers["framework"], source?: SourceLayout): string[] {
  const layout = layoutFor(framework, { source });
  const all: InitAnswers = { framework, providers: ["password"], strategy: "jwt", adapter: "pglite", databaseUrl: "", accountPage: true };
  const data = templateData(all, layout, undefined);
  const empty: ProjectSnapshot = { dir: "", exists: false, empty: true, files: {} };
  const files = layout.newFiles(data, empty).map((f) => f.path);
  // auth-db: the module an ORM app gets instead of db.ts (a second run compares with it).
  return [...new Set([...COMMON_PATHS, ...layout.paths, ...files, ...libFiles(layout, data).map((f) => f.path), layout.place(AUTH_DB)])];
}

export function planInit(input: InitInput): Plan {
  const { answers, project } = input;
  const layout = layoutFor(answers.framework, { major: input.frameworkMajor, nodeVersion: input.nodeVersion, project, source: input.source });
  const drizzle = answers.adapter === "drizzle" ? input.drizzle : undefined;
  if (answers.adapter === "drizzle" && !drizzle) throw new Error("--adapter drizzle needs the app's Drizzle setup");
  const prisma = answers.adapter === "prisma" ? input.prisma : undefined;
  if (answers.adapter === "prisma" && !prisma) throw new Error("--adapter prisma needs the app's Prisma setup");
  const kysely = answers.adapter === "kysely" ? input.kysely : undefined;
  if (answers.adapter === "kysely" && !kysely) throw new Error("--adapter kysely needs the app's Kysely setup");
  const authDb = layout.place(AUTH_DB);
  const client = prisma ? prismaClient(prisma.app, input.packageManager) : kysely ? kyselyClient(kysely.app, project, input.packageManager) : undefined;
  const data = templateData(answers, layout, drizzle && { ...drizzle.app, authDb, manager: input.packageManager, project }, client && { ...client, authDb });
  const plan = emptyPlan();
  const file = (path: string) => project.files[path];

  for (const { path, template } of [...layout.newFiles(data, project), ...libFiles(layout, data)]) {
    const text = inLanguageOf(path, template, input.source, render(input.templates, template, { ...layout.data, ...data }));
    // The report says `kept <path>: <reason>`: the reason does not name the path again.
    addNewFile(plan, path, file(path), text, "it exists and differs from what auth-init writes");
  }
  if (drizzle) planDrizzleSchema(plan, drizzle, file);
  if (prisma) planPrismaSchema(plan, prisma, file);
  if (kysely) planKyselyMigrations(plan, kysely, file);
  for (const edit of layout.edits(project, data)) {
    if (edit.ok) addEdit(plan, edit.path, file(edit.path), edit.text);
    else if (edit.syntaxError) plan.unparsable.push({ path: edit.path, ...edit.syntaxError });
    else plan.kept.push({ path: edit.path, reason: edit.reason });
  }

  const providers = answers.providers.map((id) => findProvider(id)!);
  const env = envEntries(answers, providers, input.secret);
  addEdit(plan, ".env", file(".env"), ensureEnvKeys(file(".env") ?? "", env), true);
  addEdit(plan, ".env.example", file(".env.example"), ensureEnvKeys(file(".env.example") ?? "", env.map((entry) => ({ ...entry, value: "" }))));
  // Development mail (.gatehouse/mail/) holds sign-in links: never committed.
  const database = localDatabaseFolder(answers);
  const devMail = data.credentials ? [".gatehouse/"] : [];
  const what = ["secrets", ...(database.length ? ["the local database"] : []), ...(devMail.length ? ["development mail"] : [])];
  const header = `auth: ${what.slice(0, -1).join(", ")}${what.length > 1 ? " and " : ""}${what.at(-1)}`;
  addEdit(plan, ".gitignore", file(".gitignore"), ensureIgnored(file(".gitignore") ?? "", [".env", ...database, ...devMail], header));

  plan.dependencies = { "@gatehouse/runtime": input.runtimeSpec, ...driver(answers).dependencies, ...providerPackages(providers), ...layout.dependencies?.() };
  plan.devDependencies = { "@gatehouse/cli": input.cliSpec, ...driver(answers).devDependencies };
  const pkg = file("package.json");
  if (pkg == null) throw new Error("package.json not found: run auth-init in the app's folder (or pass it as [dir])");
  const scripts = layout.scripts(project);
  addEdit(plan, "package.json", pkg, addToPackageJson(pkg, { dependencies: plan.dependencies, devDependencies: plan.devDependencies, scripts }));

  const envAfter = ensureEnvKeys(file(".env") ?? "", env);
  plan.env = env.map(({ key }) => ({ key, filled: hasEnvValue(envAfter, key) }));
  plan.nextSteps = nextSteps(answers, layout, providers, input.packageManager, plan, project, drizzle?.app, prisma, kysely && client && { folder: kysely.app.migrationFolder, migrate: client.migrate });
  return plan;
}

/** The module that puts the adapter on the app's Drizzle connection, beside where auth-init's own db module would go. */
const AUTH_DB = "src/lib/server/auth-db.ts";

/**
 * The auth tables as a module of the app's Drizzle schema, and the app's schema
 * module re-exporting them (when the config names one file rather than a folder).
 */
function planDrizzleSchema(plan: Plan, { app, authSchemaText }: DrizzleSetup, file: (path: string) => string | null | undefined): void {
  addNewFile(plan, app.authSchema, file(app.authSchema), authSchemaText, "it exists and differs from the auth tables of this @gatehouse/runtime");
  if (!app.schemaModule) return;
  const edit = addReExport({ path: app.schemaModule, text: file(app.schemaModule) ?? "" }, `./${posix.basename(app.authSchema).replace(/\.[jt]s$/, "")}`);
  if (edit.ok) addEdit(plan, app.schemaModule, file(app.schemaModule), edit.text);
  else if (edit.syntaxError) plan.unparsable.push({ path: app.schemaModule, ...edit.syntaxError });
  else plan.kept.push({ path: app.schemaModule, reason: edit.reason });
}

/**
 * The auth models in the app's Prisma schema: a file of their own in a schema
 * folder, else appended to the schema file between markers (a second run
 * replaces that block, so it stays the runtime's).
 */
function planPrismaSchema(plan: Plan, { app, authModels }: PrismaSetup, file: (path: string) => string | null | undefined): void {
  if (app.folder) addNewFile(plan, app.authSchema, file(app.authSchema), authModels, "it exists and differs from the auth models of this @gatehouse/runtime");
  else addEdit(plan, app.authSchema, file(app.authSchema), withAuthModels(file(app.authSchema) ?? "", authModels));
}

/**
 * The runtime's Kysely migrations in the app's folder: those it lacks, and
 * those an earlier run wrote (kept, and reported, if they were changed since).
 */
function planKyselyMigrations(plan: Plan, { present, missing }: KyselySetup, file: (path: string) => string | null | undefined): void {
  for (const { path, text } of [...present, ...missing]) addNewFile(plan, path, file(path), text, "it exists and differs from the Kysely migration of this @gatehouse/runtime");
}

/**
 * An ORM client the adapter wraps (Prisma's, Kysely's): the module that
 * exports it and the name auth-db gives it, the command that creates the auth
 * tables, and where they are declared (for auth-db's comment).
 */
interface OrmClient {
  orm: "prisma" | "kysely";
  dialect: "postgres" | "sqlite";
  module: string;
  /** The module's own name for it (`default` for a default export). */
  exportName: string;
  local: string;
  migrate: string;
  where: string;
}

function prismaClient(app: PrismaApp, manager: PackageManager): OrmClient {
  return { orm: "prisma", dialect: app.dialect, module: app.clientModule, exportName: app.clientExport, local: "prisma", migrate: prismaMigrateCommand(manager), where: app.authSchema };
}

function kyselyClient(app: KyselyApp, project: ProjectSnapshot, manager: PackageManager): OrmClient {
  const migrate = kyselyMigrateCommand(project, app, (script) => runScript(manager, script));
  return { orm: "kysely", dialect: app.dialect, module: app.dbModule, exportName: app.dbExport, local: "db", migrate, where: `${app.migrationFolder}/` };
}

/** What the templates need to know of the ORM client auth-db wraps. */
function ormClientData(client: (OrmClient & { authDb: string }) | undefined) {
  if (!client) return { prisma: false, kysely: false };
  const { orm, local, exportName } = client;
  return {
    prisma: orm === "prisma",
    kysely: orm === "kysely",
    dbModuleName: posix.basename(AUTH_DB, ".ts"),
    // The module's own name for the client, under ours (`prisma`, `db`).
    ormClientImport: exportName === "default" ? local : exportName === local ? `{ ${local} }` : `{ ${exportName} as ${local} }`,
    ormClientModule: relativeImport(client.authDb, client.module),
    ormClientName: local,
    ormClientWrap: orm === "prisma" ? "fromPrisma" : "fromKysely",
    ormClientWrapper: `@gatehouse/runtime/adapters/${client.dialect}/${orm}`,
    ormClientSqlite: client.dialect === "sqlite",
    ormClientMigrate: client.migrate,
    ormClientWhere: client.where,
  };
}

/** What the templates need to know of the app's Drizzle setup. */
interface DrizzleContext extends DrizzleApp {
  /** Where the auth-db module goes in this app. */
  authDb: string;
  manager: PackageManager;
  project: ProjectSnapshot;
}

function drizzleData(drizzle: DrizzleContext | undefined) {
  if (!drizzle) return { drizzle: false, dbModuleName: "db" };
  const commands = drizzleCommands(drizzle.project, (script) => runScript(drizzle.manager, script));
  return {
    drizzle: true,
    dbModuleName: posix.basename(AUTH_DB, ".ts"),
    drizzleDbImport: relativeImport(drizzle.authDb, drizzle.dbModule),
    drizzleAuthSchema: drizzle.authSchema,
    drizzleSchemaModule: drizzle.schemaModule ?? "",
    drizzleDriverName: drizzle.driverName,
    drizzleGenerate: commands.generate,
    drizzleMigrate: commands.migrate,
    drizzlePostgres: drizzle.dialect === "postgres",
    drizzleSqlite: drizzle.dialect === "sqlite",
    // How each driver's connection closes: postgres.js and pg end their pools, PGlite and better-sqlite3 close.
    drizzleEnds: drizzle.driver === "postgres-js" || drizzle.driver === "node-postgres",
    drizzleEndsWithTimeout: drizzle.driver === "postgres-js",
  };
}

/** `./db` for `src/lib/server/db/index.ts` seen from `src/lib/server/auth-db.ts`: no extension, no `/index`, as the bundler resolves it. */
function relativeImport(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to).replace(/\.[cm]?[jt]sx?$/, "").replace(/\/index$/, "");
  return path.startsWith(".") ? path : `./${path}`;
}

function templateData(answers: InitAnswers, layout: FrameworkLayout, drizzle: DrizzleContext | undefined, client?: OrmClient & { authDb: string }): InitTemplateData {
  const providers = answers.providers.map((id) => findProvider(id)!);
  // Email + password accounts (the Password provider): they need a database, which checkAnswers made sure of.
  const credentials = providers.some((p) => p.type === "credentials");
  const hasAdapter = answers.adapter !== "none";
  const oauthProviders = providers.filter(isOAuthProvider);
  const email = providers.some((p) => p.type === "email");
  const passkey = providers.some(isPasskey);
  const accountPage = hasAccountPage(answers);
  // Passwords and email links are limited (a guess, a mail per request).
  const rateLimit = credentials || email;
  const rateLimitStore = rateLimit ? rateLimitStoreOf(answers, drizzle, client) : undefined;
  return {
    ...layout.data,
    credentials,
    hasAdapter,
    pglite: answers.adapter === "pglite",
    postgres: answers.adapter === "postgres",
    sqlite: answers.adapter === "sqlite",
    hostedStore: answers.adapter === "hosted-store",
    migrationsDir: answers.adapter === "sqlite" || answers.adapter === "hosted-store" ? answers.adapter : "postgres",
    strategy: answers.strategy,
    providerImports: providers.map((p) => p.importName).join(", "),
    oauth: oauthProviders.length > 0,
    oauthProviders: oauthProviders.map(({ id, name, importName }) => ({ id, name, importName })),
    email,
    // The Password provider and email links send mail through nodemailer.
    sendsMail: email || credentials,
    passkey,
    signInPageErrors: credentials || oauthProviders.length > 0 || email || passkey,
    errorMessages: oauthProviders.length > 0 || email,
    methodHeadings: [credentials, email, passkey].filter(Boolean).length > 1,
    signInFields: credentials || email || passkey,
    // An "or" between one way to sign in and the next, in the sign-in page's order.
    separators: { email: credentials, passkey: credentials || email, oauth: credentials || email || passkey },
    accountPage,
    home: accountPage ? "/account" : "/",
    rateLimit,
    rateLimitStore: rateLimitStore ?? "",
    rateLimitStoreComment: rateLimitStore ? rateLimitStoreModuleComment(RATE_LIMIT_TABLES[rateLimitStore]) : [],
    rateLimitComment: rateLimitStore ? rateLimitStoreComment(RATE_LIMIT_TABLES[rateLimitStore]) : RATE_LIMIT_COMMENT,
    bareProviders: providers.filter((p) => p.type !== "credentials").map(({ importName }) => ({ importName })),
    minPasswordLength: MIN_PASSWORD_LENGTH,
    pgliteDir: PGLITE_DIR,
    sqlitePath: DEFAULT_SQLITE_PATH,
    ...drizzleData(drizzle),
    ...ormClientData(client),
  };
}

/**
 * The store `rateLimit` counts in: the app's database wherever more than one
 * process can open it (a PostgreSQL server, the hosted store, a SQLite file), so that a limit holds
 * however many instances of the app run; none (process memory) on PGlite, which
 * one process alone opens, and without a database.
 */
function rateLimitStoreOf(answers: InitAnswers, drizzle: DrizzleContext | undefined, client: OrmClient | undefined): RateLimitStoreName | undefined {
  if (answers.adapter === "hosted-store") return "HostedStoreRateLimitStore";
  const dialect = (() => {
    if (answers.adapter === "postgres" || answers.adapter === "sqlite") return answers.adapter;
    if (drizzle) return drizzle.driver === "pglite" ? undefined : drizzle.dialect;
    return client?.dialect;
  })();
  return dialect === "postgres" ? "PostgresRateLimitStore" : dialect === "sqlite" ? "SqliteRateLimitStore" : undefined;
}

/** The account lives in the adapter: no database, no account page. */
function hasAccountPage(answers: InitAnswers): boolean {
  return answers.accountPage !== false && answers.adapter !== "none";
}

/** The folder an embedded database lives in, for .gitignore. */
function localDatabaseFolder(answers: InitAnswers): string[] {
  if (answers.adapter === "pglite") return [`${PGLITE_DIR}/`];
  if (answers.adapter === "sqlite") return [`${DEFAULT_SQLITE_PATH.slice(0, DEFAULT_SQLITE_PATH.lastIndexOf("/"))}/`];
  return [];
}

/** The pages' stylesheet; the database module and its schema, and the pages' messages, shared by every framework. */
function libFiles(layout: FrameworkLayout, data: InitTemplateData) {
  const { place } = layout;
  const style = { path: place("src/lib/auth.css"), template: "shared/lib/auth.css.hbs" };
  if (!data.hasAdapter) return [style];
  // With Drizzle the app's schema holds the tables and its db module the connection: one module puts the adapter on it.
  const ormDb = data.drizzle ? "shared/lib/drizzle-db.ts.hbs" : data.prisma || data.kysely ? "shared/lib/orm-client-db.ts.hbs" : undefined;
  const server = ormDb ? [{ path: place(AUTH_DB), template: ormDb }] : ["db.ts", "schema.ts"].map((name) => ({ path: place(`src/lib/server/${name}`), template: `shared/lib/${name}.hbs` }));
  // Outside the server folder: the pages (browser code too) read it.
  const messages = data.credentials || data.accountPage ? [{ path: place("src/lib/auth-messages.ts"), template: "shared/lib/auth-messages.ts.hbs" }] : [];
  return [style, ...server, ...messages];
}

/**
 * A rendered template in the language of the place it goes: a TypeScript module
 * placed as `.js`, and the components of a JavaScript app nothing type-checks, lose their types.
 */
function inLanguageOf(path: string, template: string, source: SourceLayout | undefined, text: string): string {
  if (template.endsWith(".ts.hbs") && path.endsWith(".js")) return moduleToJavaScript(text);
  if (template.endsWith(".tsx.hbs") && path.endsWith(".jsx")) return moduleToJavaScript(text, { jsx: true });
  if (template.endsWith(".svelte.hbs") && source && writesJavaScript(source)) return svelteToJavaScript(text);
  return text;
}

function envEntries(answers: InitAnswers, providers: ProviderCatalogEntry[], secret: string): EnvEntry[] {
  return [
    { key: SECRET_KEY, value: secret },
    ...(answers.adapter === "postgres" ? [{ key: "DATABASE_URL", value: answers.databaseUrl }] : []),
    ...(answers.adapter === "hosted-store"
      ? [
          { key: HOSTED_STORE_ENV.databaseURL, value: answers.databaseUrl },
          { key: HOSTED_STORE_ENV.branch, value: DEFAULT_BRANCH },
        ]
      : []),
    ...providers.flatMap((p) => p.env.map((key) => ({ key, value: "", comment: envKeyComment(key) }))),
  ];
}

/** The adapter's driver, and Node's types for the server modules (db.ts may use process.env and node:fs). */
function driver(answers: InitAnswers): { dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  const nodeTypes = { "@types/node": DRIVER_VERSIONS["@types/node"] };
  const pg = { dependencies: { pg: DRIVER_VERSIONS.pg }, devDependencies: { "@types/pg": DRIVER_VERSIONS["@types/pg"], ...nodeTypes } };
  switch (answers.adapter) {
    case "pglite":
      return { dependencies: { "@electric-sql/pglite": DRIVER_VERSIONS["@electric-sql/pglite"] }, devDependencies: nodeTypes };
    case "postgres":
    case "hosted-store":
      return pg;
    case "drizzle":
    case "prisma":
    case "kysely":
      // The app's own db module, Prisma Client or Kysely instance opens the database with the driver it already has.
      return { dependencies: {}, devDependencies: nodeTypes };
    case "sqlite":
      return {
        dependencies: { "better-sqlite3": DRIVER_VERSIONS["better-sqlite3"] },
        devDependencies: { "@types/better-sqlite3": DRIVER_VERSIONS["@types/better-sqlite3"], ...nodeTypes },
      };
    case "none":
      return { dependencies: {}, devDependencies: {} };
  }
}

/** The database of each adapter, as the next steps name it. */
const DATABASE_NAMES: Record<Exclude<InitAnswers["adapter"], "none">, string> = {
  drizzle: "the app's Drizzle database",
  prisma: "the app's Prisma database",
  kysely: "the app's Kysely database",
  pglite: `the embedded PGlite database (${PGLITE_DIR}/, created on the app's first start)`,
  postgres: "the PostgreSQL server at DATABASE_URL",
  sqlite: `the SQLite file ${DEFAULT_SQLITE_PATH}`,
  "hosted-store": "the hosted store's branch",
};

export function runScript(manager: PackageManager, script: string): string {
  return manager === "npm" || manager === "bun" ? `${manager} run ${script}` : `${manager} ${script}`;
}

function nextSteps(
  answers: InitAnswers,
  layout: FrameworkLayout,
  providers: ProviderCatalogEntry[],
  manager: PackageManager,
  plan: Plan,
  project: ProjectSnapshot,
  drizzle: DrizzleApp | undefined,
  prismaSetup: PrismaSetup | undefined,
  kysely: { folder: string; migrate: string } | undefined,
): string[] {
  const steps: string[] = [];
  const own = layout.nextSteps?.(project, (script) => runScript(manager, script)) ?? { setup: [], production: [] };
  const empty = plan.env.filter((e) => !e.filled).map((e) => e.key);
  const filled = (key: string) => !empty.includes(key);
  const addable = providers.filter((p) => p.type !== "credentials");
  const config = layout.authConfig;
  if (addable.length > 0 && plan.kept.some((kept) => kept.path === config)) {
    // A re-run with more providers: the config is the user's now, and add-provider edits it in place.
    steps.push(`${config} is your own and was kept: if it lacks them, add the providers with \`npx @gatehouse/cli add-provider ${addable.map((p) => p.id).join(" ")}\`, which edits it in place.`);
  }
  steps.push(...providerSetupSteps(providers, `${layout.devOrigin}${layout.authPath}`, filled));
  const needing = providers.filter(needsAdapter);
  if (needing.length > 0 && answers.adapter !== "none") {
    // Said also when --yes picked the database: the user chose a provider, not a database.
    steps.push(`${adapterRequirement(needing)}: ${needing.length === 1 ? "it uses" : "they use"} ${DATABASE_NAMES[answers.adapter]}.`);
  }
  if (empty.includes("DATABASE_URL")) steps.push("Set DATABASE_URL in .env to your PostgreSQL server (postgres://user:password@host:5432/database).");
  if (empty.includes(HOSTED_STORE_ENV.databaseURL)) {
    steps.push(`Set ${HOSTED_STORE_ENV.databaseURL} in .env to your hosted store's database (postgres://user:password@host:5432/database); ${HOSTED_STORE_ENV.branch} names the branch (default ${DEFAULT_BRANCH}).`);
  }
  const credentials = providers.some((p) => p.type === "credentials");
  if (drizzle) {
    const schema = drizzle.schemaModule ? `${drizzle.authSchema} (exported from ${drizzle.schemaModule})` : drizzle.authSchema;
    const { generate, migrate } = drizzleCommands(project, (script) => runScript(manager, script));
    steps.push(
      `The auth tables are in your Drizzle schema, ${schema}: create them the Drizzle way, \`${generate}\` (writes the migration) then \`${migrate}\` (applies it). Until they exist, the app's first sign-in stops with an error naming what is missing.`,
    );
  }
  if (prismaSetup) {
    const { app: prisma } = prismaSetup;
    const where = prisma.folder ? `${prisma.authSchema}, in your schema folder` : `your Prisma schema, ${prisma.authSchema}`;
    // The names the app's own code would use on the client: said where they are not the plain ones.
    const named = prismaSetup.prefixed ? ` Your schema has models of the same names already, so these are AuthUser, AuthAccount, AuthSession, ... (their tables are still users, accounts, sessions, ...).` : "";
    steps.push(
      `The auth tables are models in ${where}: create them the Prisma way, \`${prismaMigrateCommand(manager)}\` (writes and applies the migration, and generates the client). Until they exist, the app's first sign-in stops with an error naming what is missing.${named}`,
    );
  }
  if (kysely) {
    steps.push(
      `The auth tables are Kysely migrations in your migrations folder, ${kysely.folder}/ (the files named *_gatehouse_*): apply them with yours, \`${kysely.migrate}\`. Until they exist, the app's first sign-in stops with an error naming what is missing.`,
    );
  }
  steps.push(...own.setup);
  const page = credentials ? "/signup" : "/signin";
  const account = hasAccountPage(answers) ? `, and ${layout.devOrigin}/account is the user's account page` : "";
  steps.push(`Start the app with \`${runScript(manager, "dev")}\` and open ${layout.devOrigin}${page}; ${layout.devOrigin}/protected shows who is signed in${account}.`);
  const proves = credentials || providers.some((p) => p.type === "email");
  if (providers.some(isPasskey) && !proves) {
    // A passkey sign-up only claims its address (SECURITY.md, "Email ownership"): without a mailed link nobody can prove one.
    steps.push(
      "A passkey sign-up only claims its email address: with no email links or passwords, an address someone registered first cannot be proven and taken back by its owner. Add sign-in links by mail with `npx @gatehouse/cli add-provider email`.",
    );
  }
  if (credentials) {
    steps.push(
      "Sign-up and password reset mail a link. In development, with AUTH_EMAIL_SERVER empty, the link is printed on the dev server's console (and kept in .gatehouse/mail/); in production, set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM: without them the server stops with an error naming them as soon as it loads its auth config.",
    );
  }
  steps.push(...own.production);
  return steps;
}
