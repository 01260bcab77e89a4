/**
 * `auth doctor`'s checks, as pure functions of what the command read: each
 * finding says what is wrong (or right) and, when wrong, the fix.
 */
import { providerCatalog } from "@gatehouse/runtime/providers/catalog";
import type { DatabaseTaskResult, MissingPiece } from "../engine/app-database.js";
import { describeTarget, reachFix, type DatabaseLookup, type DatabaseTarget } from "./app-database.js";
import type { Detection } from "./detect.js";
import { permissionFindings, type FileModeFact } from "./doctor-permissions.js";
import { isIgnored } from "./gitignore.js";
import { listedDependencies } from "./package-json.js";
import { adapterRequirement, isPasskey, providerPackageReasons, providerPackages } from "./passwordless.js";
import { ROTATION_KEYS, ROTATION_MARKER, SECRET_KEY, SECRET_SLOTS } from "./secret.js";

export interface Finding {
  level: "ok" | "warning" | "error";
  message: string;
  fix?: string;
}

export interface DoctorInput {
  detection: Detection;
  env: Record<string, string>;
  envFileExists: boolean;
  /** The text of `.env`, when there is one: the rotation comment `auth secret --rotate` writes is read from it. */
  envText?: string | null;
  gitignore: string | null;
  /** The text of the auth config module, when found. */
  authConfig: { path: string; text: string } | null;
  installedRuntime: string | undefined;
  /** The app's package.json text, when there is one. */
  packageJson?: string | null;
  cliVersion: string;
  database: DatabaseLookup;
  /** The database's migration status; `undefined` when not checked; `inUse` (which processes) when another process has the PGlite folder open, so it was not opened. */
  databaseStatus?: DatabaseTaskResult | { notCreated: true } | { inUse: string };
  /** Where the app's schema module is (the list of migrations, the app's own after the runtime's), e.g. `src/lib/server/schema.ts`. */
  schemaModule?: string;
  /** Modes of the env files and the embedded database; empty where modes mean nothing (Windows). */
  fileModes?: FileModeFact[];
  /** An app whose auth tables its own ORM creates (Drizzle, Prisma, Kysely): what auth-init wrote into its setup against the installed runtime's, and how the tables are made. */
  appOrm?: AppOrmFacts;
}

/** What auth-init wrote into an ORM app (its schema module, models or migrations), compared with the installed runtime's. */
export interface AppOrmFacts {
  /** The tool that creates the tables (`drizzle-kit`, `Prisma`, `kysely-ctl`) and the command(s), in backticks: "`npm run db:generate` then `npm run db:migrate`". */
  tool: string;
  run: string;
  /** What was written and is not the runtime's any more (edited, or the runtime was upgraded), each with what to do. */
  stale: { message: string; fix: string }[];
  /** What was written, as the line that says it is the runtime's begins: "the auth models in prisma/schema.prisma are the Prisma models". */
  written: string;
}

const MIN_SECRET_LENGTH = 32;

export function diagnose(input: DoctorInput): Finding[] {
  return [
    ...framework(input),
    ...secret(input),
    ...permissionFindings(input.fileModes ?? []),
    ...providers(input),
    ...origin(input),
    ...database(input),
    ...rateLimitCounts(input),
    ...runtime(input),
  ];
}

function framework({ detection }: DoctorInput): Finding[] {
  if (!detection.hasPackageJson) return [{ level: "error", message: "no package.json here: this is not an app's folder", fix: "run doctor in the app's folder, or pass --cwd <app folder>" }];
  if (detection.frameworks.length === 0) return [{ level: "warning", message: "no SvelteKit or SolidStart in package.json" }];
  return [{ level: "ok", message: `framework: ${detection.frameworks.map((f) => f.id).join(", ")}` }];
}

function secret({ env, envFileExists, envText, gitignore }: DoctorInput): Finding[] {
  const findings: Finding[] = [];
  const set = SECRET_SLOTS.filter((key) => Boolean(env[key]));
  // The runtime refuses a short secret anywhere in the list: keeping it (--rotate) would keep the app refusing to start.
  const short = set.filter((key) => env[key]!.length < MIN_SECRET_LENGTH);
  if (set.length === 0) findings.push({ level: "error", message: `${SECRET_KEY} is not set${envFileExists ? " in .env" : " (there is no .env)"}`, fix: "run `npx @gatehouse/cli secret`" });
  for (const key of short) {
    findings.push({
      level: "error",
      message: `${key} has ${env[key]!.length} characters; the runtime needs at least ${MIN_SECRET_LENGTH} and refuses the config`,
      fix: short.length === set.length ? "run `npx @gatehouse/cli secret --yes` (a secret that short cannot be kept, so everyone signs in again)" : `delete ${key} from .env`,
    });
  }
  if (set.length === 1 && short.length === 0) findings.push({ level: "ok", message: `${set[0]} is set (${env[set[0]!]!.length} characters)` });
  if (set.length > 1 && short.length === 0) findings.push({ level: "ok", message: `secrets set: ${set.join(", ")}; ${set.at(-1)} encrypts, all decrypt (Auth.js's order)` });
  const oldLayout = short.length === 0 ? oldRotationLayout(env, envText) : undefined;
  if (oldLayout) findings.push(oldLayout);
  if (envFileExists && gitignore !== null && !isIgnored(gitignore, ".env")) {
    findings.push({ level: "warning", message: ".env is not listed in .gitignore", fix: "add `.env` to .gitignore so the secret is never committed" });
  }
  return findings;
}

/** Provider exports the config imports from @gatehouse/runtime/providers. */
export function configuredProviders(config: string): string[] {
  const names: string[] = [];
  for (const match of config.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']@gatehouse\/runtime\/providers["']/g)) {
    for (const part of match[1]!.split(",")) {
      const name = part.trim().split(/\s+as\s+/)[0]!.trim();
      if (name && !name.startsWith("type ")) names.push(name);
    }
  }
  return names;
}

function providers(input: DoctorInput): Finding[] {
  const { authConfig, env, database } = input;
  if (!authConfig) return [{ level: "warning", message: "no auth config found (src/auth.ts)", fix: "run `npx @gatehouse/cli init`" }];
  const used = configuredProviders(authConfig.text);
  const entries = providerCatalog.filter((p) => used.includes(p.importName));
  const findings: Finding[] = [];
  for (const entry of entries) {
    const missing = entry.env.filter((key) => !env[key]);
    if (missing.length > 0 && entry.type === "credentials") {
      // Apps made by auth-init print the Password provider's links in development and refuse to start in production without them.
      findings.push({
        level: "warning",
        message: `${entry.name}: ${missing.join(", ")} not set: in development the sign-up and reset links are printed on the server's console; in production the app fails with an error naming them`,
        fix: `set ${missing.join(" and ")} in .env (or the server's environment) before deploying`,
      });
    } else if (missing.length > 0) findings.push({ level: "error", message: `${entry.name}: ${missing.join(", ")} not set`, fix: `set ${missing.join(" and ")} in .env${entry.setupUrl ? ` (from ${entry.setupUrl})` : ""}` });
    else findings.push({ level: "ok", message: `provider ${entry.id}${entry.env.length ? `: ${entry.env.join(", ")} set` : ""}` });
  }
  // The runtime refuses the whole config for these two: every sign-in and session check fails.
  if (entries.some(isPasskey) && !/\benableWebAuthn\s*:\s*true\b/.test(authConfig.text)) {
    findings.push({
      level: "error",
      message: `${authConfig.path} lists Passkey but does not turn on \`experimental: { enableWebAuthn: true }\`: the runtime refuses the config`,
      fix: "run `npx @gatehouse/cli add-provider passkey` (it adds the switch), or add it to the config by hand",
    });
  }
  // The runtime imports these only when the provider is used: a missing one fails at the first sign-in, not at start.
  const listed = input.packageJson ? listedDependencies(input.packageJson) : undefined;
  const unlisted = listed ? Object.keys(providerPackages(entries)).filter((name) => !(name in listed)) : [];
  if (unlisted.length > 0) {
    findings.push({
      level: "error",
      message: `${unlisted.join(" and ")} not in package.json (${providerPackageReasons(entries, unlisted)}): sign-in with it fails`,
      fix: `install it: npm install ${unlisted.join(" ")}`,
    });
  }
  const requirement = adapterRequirement(entries);
  if (requirement && !database.found && !database.fix) {
    findings.push({ level: "error", message: `${requirement}, and the app has none: the runtime refuses the config`, fix: "set one up with `npx @gatehouse/cli init --adapter pglite --yes` (it keeps your config), then add its `adapter` to the config" });
  }
  return findings;
}

/**
 * Where the config's `rateLimit` counts, read from its text: `none` (no rate
 * limit), `memory` (an object literal without `store`), `store`, or `unknown`
 * (not an object literal, or one this cannot read: nothing is said of it).
 */
export function configRateLimit(config: string): "none" | "memory" | "store" | "unknown" {
  const key = /(?:^|[{,\s])rateLimit\s*:\s*/m.exec(config);
  if (!key) return /\brateLimit\b/.test(config) ? "unknown" : "none";
  // A literal without nested braces, as auth-init and add-provider write it.
  const literal = /^\{([^{}]*)\}/.exec(config.slice(key.index + key[0].length));
  if (!literal) return "unknown";
  if (literal[1]!.includes("...")) return "unknown";
  return /(?:^|[{,\s])store\s*(?:[:,]|$)/.test(literal[1]!.trim()) ? "store" : "memory";
}

/**
 * A rate limit counted in each process's memory, on a PostgreSQL server: every
 * instance of the app counts for itself, so N instances allow N times the
 * attempts (and a restart forgets them). The database can hold the counts.
 */
function rateLimitCounts({ authConfig, database: lookup }: DoctorInput): Finding[] {
  if (!authConfig || !lookup.found) return [];
  const counts = configRateLimit(authConfig.text);
  if (counts === "store") return [{ level: "ok", message: "rateLimit counts in a store (its `store`), not in each process's memory" }];
  const shared = sharedRateLimitStore(lookup.target);
  if (counts !== "memory" || !shared) return [];
  return [
    {
      level: "warning",
      message: `rateLimit counts sign-in attempts in each process's memory, while the app's database is ${shared.database}: every instance of the app counts for itself, so two allow twice the attempts, and a restart forgets them`,
      fix: `count them in the database: beside the adapter, \`export const rateLimitStore = ${shared.store}(…)\` (from ${shared.module}, given what ${shared.adapter} is given), and \`store: rateLimitStore\` in rateLimit in ${authConfig.path}, as auth-init writes them`,
    },
  ];
}

/** The store that shares the counts of an app on a database server, and how to name it; undefined where one process opens the database. */
function sharedRateLimitStore(target: DatabaseTarget): { database: string; store: string; module: string; adapter: string } | undefined {
  if (target.kind === "hosted-store") return { database: "the hosted store", store: "HostedStoreRateLimitStore", module: "@gatehouse/runtime/adapters/hosted-store", adapter: "HostedStoreAdapter" };
  const server = target.kind === "postgres" || (target.kind === "app-orm" && target.dialect === "postgres" && target.driver !== "pglite");
  if (!server) return undefined;
  return { database: "a PostgreSQL server", store: "PostgresRateLimitStore", module: "@gatehouse/runtime/adapters/postgres", adapter: "PostgresAdapter" };
}

/**
 * Before gatehouse followed Auth.js's order, `auth secret --rotate` kept AUTH_SECRET
 * as the newest and moved older ones to _1.._3; now the highest number encrypts.
 * Such a file still works (every secret decrypts) but new sessions are made with
 * an older secret. A file with rotation secrets and without the comment the new
 * `--rotate` writes may be one: one more `--rotate` puts a fresh secret on top.
 */
function oldRotationLayout(env: Record<string, string>, envText: string | null | undefined): Finding | undefined {
  if (typeof envText !== "string" || !env[SECRET_KEY]) return undefined;
  const rotation = ROTATION_KEYS.filter((key) => env[key]);
  if (rotation.length === 0 || envText.split(/\r?\n/).some((line) => line.startsWith(ROTATION_MARKER))) return undefined;
  const full = rotation.length === ROTATION_KEYS.length;
  return {
    level: "warning",
    message:
      `${[SECRET_KEY, ...rotation].join(", ")} are set, and ${rotation.at(-1)} encrypts (Auth.js's order: the highest number). ` +
      "If they come from `auth secret --rotate` before gatehouse followed that order, AUTH_SECRET is your newest secret and new sessions use an older one (all still decrypt)",
    fix: full
      ? "delete AUTH_SECRET_3 from .env (the oldest under the old order), then run `npx @gatehouse/cli secret --rotate`"
      : "run `npx @gatehouse/cli secret --rotate`: it adds a new secret above them that encrypts, and keeps the others",
  };
}

function origin({ env }: DoctorInput): Finding[] {
  const url = env.AUTH_URL;
  if (url) {
    try {
      const parsed = new URL(url);
      // "localhost:3000" parses, with `localhost:` as its scheme: the runtime refuses it.
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
      if (parsed.protocol !== "https:" && !["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname)) {
        return [{ level: "warning", message: `AUTH_URL is ${url}: not https`, fix: "use https in production, or secure cookies are off" }];
      }
      return [{ level: "ok", message: `AUTH_URL is ${url}` }];
    } catch {
      return [{ level: "error", message: `AUTH_URL is not a URL: ${url}`, fix: "set AUTH_URL to the app's public origin, e.g. https://example.com" }];
    }
  }
  if (env.ORIGIN) return [{ level: "ok", message: `public origin from ORIGIN: ${env.ORIGIN}` }];
  if (env.AUTH_TRUST_HOST === "true" || env.AUTH_TRUST_HOST === "1") {
    return [{ level: "ok", message: "AUTH_TRUST_HOST is on: the origin comes from the request's Host (behind a proxy you trust)" }];
  }
  return [{
    level: "warning",
    message: "no public origin configured: fine with the dev server (trusted in development), refused in production",
    fix: "in production set AUTH_URL=https://your.domain (with adapter-node, ORIGIN works too), or AUTH_TRUST_HOST=true behind a proxy that sets Host",
  }];
}

function database(input: DoctorInput): Finding[] {
  // Which database an app uses is read from its package.json: without one there is nothing to say.
  if (!input.detection.hasPackageJson) return [];
  return [...(input.appOrm ? appOrmWritten(input.appOrm) : []), ...databaseState(input)];
}

function databaseState({ database: lookup, databaseStatus: status, schemaModule, appOrm }: DoctorInput): Finding[] {
  if (!lookup.found) {
    if (lookup.unchecked) return [{ level: "warning", message: `database: ${lookup.reason}`, ...(lookup.fix ? { fix: lookup.fix } : {}) }];
    if (lookup.fix) return [{ level: "error", message: `database: ${lookup.reason}`, fix: lookup.fix }];
    return [{ level: "ok", message: "no database: JWT sessions only" }];
  }
  const where = describeTarget(lookup.target);
  if (!status) return [];
  const orm = lookup.target.kind === "app-orm" ? (appOrm ?? { tool: "the app's ORM", run: "its migrations" }) : undefined;
  if ("notCreated" in status) {
    if (orm) return [{ level: "error", message: `${where} does not exist yet, nor its auth tables (the app refuses to sign anyone in without them)`, fix: `create them with ${orm.tool}: ${orm.run}` }];
    return [{ level: "ok", message: `${where} does not exist yet: the app creates and migrates it on first start` }];
  }
  if ("inUse" in status) {
    return [{ level: "warning", message: `${where} is in use by ${status.inUse}: not opened, so its migrations were not checked`, fix: "stop the app and run doctor again (the app migrates itself when it starts)" }];
  }
  if (!status.ok) return [{ level: "error", message: `${where} cannot be reached: ${status.error}`, fix: reachFix(lookup.target) }];
  if (lookup.target.kind === "app-orm") return ormTables(where, status, orm!);
  const findings = drift(where, lookup.target, status, schemaModule ?? "src/lib/server/schema.ts");
  return findings.length > 0 ? findings : [{ level: "ok", message: `${where} is reachable and migrated` }];
}

/** What auth-init wrote into the ORM app: still the installed runtime's, or each difference with what to do. */
function appOrmWritten(orm: AppOrmFacts): Finding[] {
  if (orm.stale.length > 0) return orm.stale.map(({ message, fix }) => ({ level: "error", message, fix }));
  return [{ level: "ok", message: `${orm.written} of the app's @gatehouse/runtime; ${orm.tool} creates their tables (${orm.run})` }];
}

/**
 * An app whose auth tables its ORM creates: no ledger, so every table, column
 * and index the installed runtime uses is expected.
 */
function ormTables(where: string, status: DatabaseTaskResult, orm: Pick<AppOrmFacts, "tool" | "run">): Finding[] {
  if (status.missing?.length) {
    return [{ level: "error", message: `${where} lacks ${status.missing.map(describePiece).join(", ")} (the app refuses to sign anyone in on it)`, fix: `create them with ${orm.tool}: ${orm.run}` }];
  }
  return [{ level: "ok", message: `${where} has every auth table, column and index of the app's @gatehouse/runtime` }];
}

/**
 * How the database differs from the schema the app's installed runtime expects:
 * migrations to apply (a warning: the app applies them itself), migrations a
 * newer runtime applied and pieces missing although applied (problems: the app
 * refuses to run on either).
 */
function drift(where: string, target: Exclude<DatabaseTarget, { kind: "app-orm" }>, status: DatabaseTaskResult, schemaModule: string): Finding[] {
  const findings: Finding[] = [];
  if (status.unknown?.length) {
    findings.push({
      level: "error",
      message: `${where} records migrations the app's @gatehouse/runtime does not know: ${status.unknown.join(", ")} (the app refuses to start on it)`,
      fix: `a newer @gatehouse/runtime applied them: install that version in this app; or, if they are migrations of your own, list them again at the end of the app's schema (${schemaModule})`,
    });
  }
  if (status.missing?.length) {
    findings.push({
      level: "error",
      message: `${where} lacks ${status.missing.map(describePiece).join(", ")}, although its ledger records those migrations as applied (the app refuses to start on it)`,
      fix: `something changed the database after it was migrated: restore what is missing from the migrations' SQL in node_modules/@gatehouse/runtime/migrations/${MIGRATIONS_DIR[target.kind]}/`,
    });
  }
  if (status.pending.length > 0) {
    findings.push({ level: "warning", message: `${where} lacks migrations: ${status.pending.join(", ")}`, fix: "run `npx @gatehouse/cli migrate` (the app also applies them when it first opens the database)" });
  }
  return findings;
}

const MIGRATIONS_DIR: Record<Exclude<DatabaseTarget["kind"], "app-orm">, string> = { pglite: "postgres", postgres: "postgres", sqlite: "sqlite", "hosted-store": "hosted-store" };

function describePiece(piece: MissingPiece): string {
  const what = piece.column ? `column ${piece.table}.${piece.column}` : piece.index ? `index ${piece.index} on ${piece.table}` : `table ${piece.table}`;
  return `${what} (${piece.migration})`;
}

function runtime({ installedRuntime, cliVersion }: DoctorInput): Finding[] {
  if (!installedRuntime) return [{ level: "error", message: "@gatehouse/runtime is not installed", fix: "install the app's dependencies (npm install)" }];
  const minor = (version: string) => version.split(".").slice(0, 2).join(".");
  if (minor(installedRuntime) !== minor(cliVersion)) {
    return [{ level: "warning", message: `@gatehouse/runtime ${installedRuntime} with the CLI ${cliVersion}`, fix: `use matching versions: npm install -D @gatehouse/cli@${installedRuntime} (the CLI of the app's runtime), or npm install @gatehouse/runtime@^${cliVersion}` }];
  }
  return [{ level: "ok", message: `@gatehouse/runtime ${installedRuntime}` }];
}
