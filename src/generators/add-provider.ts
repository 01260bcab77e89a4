/**
 * `auth add-provider`'s plan: the config edit (ts-morph, possibly in the module
 * that holds the providers array; for passkeys also `experimental.enableWebAuthn`),
 * env placeholders in `.env` and `.env.example`, and the next steps (the callback
 * URL to register, the SMTP server to set...). Pure: files come in through
 * `read`; the command applies the plan.
 */
import type { ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import { addProviders, PROVIDERS_MODULE } from "../ast/add-providers.js";
import { configAdapter, enableWebAuthn, limitSignIns, RATE_LIMIT_ENTRY, type ConfigRefusal, type SharedRateLimitStore } from "../ast/config-object.js";
import { adapterModuleSpecifier, exportRateLimitStore } from "../ast/rate-limit-store.js";
import type { SourceText } from "../ast/source.js";
import { addEdit, emptyPlan, type Plan, type UnparsableFile } from "../plan/plan.js";
import { ensureEnvKeys, hasEnvValue } from "./env.js";
import { addToPackageJson, listedDependencies } from "./package-json.js";
import { adapterRequirement, isEmail, isPasskey, providerPackageReasons, providerPackages } from "./passwordless.js";
import { callbackUrl, envKeyComment, isOAuthProvider, providerSetupSteps } from "./provider-setup.js";

export interface AddProviderInput {
  entries: readonly ProviderCatalogEntry[];
  configPath: string;
  /** An app file's text by relative path, `null` when missing. */
  read: (path: string) => string | null;
  /** Where the app serves auth, e.g. `http://localhost:5173/auth`; unknown frameworks get a placeholder. */
  authBaseUrl: string;
  /** How the app installs its dependencies (`npm install`), for packages a provider needs. */
  installCommand?: string;
  /**
   * The db module auth-init wrote (`src/lib/server/db.ts`, or `auth-db.ts` beside an ORM's), when the app has one:
   * a rate limit added for email links counts in its `rateLimitStore`, which is added to it when `addStore`
   * (a database several processes share: a PostgreSQL server, the hosted store, a SQLite file) and used when it exports one already.
   */
  dbModule?: { path: string; addStore: boolean };
  /** The framework's sign-in page (as auth-init writes it), its form for a provider and its browser module; absent for unknown frameworks. */
  signIn?: { page: string; button: (provider: { id: string; name: string; type?: string }) => string; clientModule: string };
}

export type AddProviderPlan =
  | { ok: true; plan: Plan; added: ProviderCatalogEntry[]; present: ProviderCatalogEntry[]; callbackUrls: string[] }
  /** The config could not be edited safely: why, and what to add by hand; `unparsable` when a module to edit does not parse (nothing is written). */
  | { ok: false; reason: string; byHand: string; unparsable?: UnparsableFile }
  /** Email links and passkeys in a config without an adapter: the runtime would refuse the whole config. */
  | { ok: false; needsAdapter: true; reason: string };

export function planAddProviders(input: AddProviderInput): AddProviderPlan {
  const { entries, configPath, read } = input;
  const config = read(configPath);
  const byHand = manualSteps(entries, configPath);
  if (config === null) return { ok: false, reason: `${configPath} not found (run auth-init first, or pass --config)`, byHand };
  const requirement = adapterRequirement(entries);
  const adapter = requirement ? configAdapter({ path: configPath, text: config }) : "set";
  if (requirement && adapter === "missing") return { ok: false, needsAdapter: true, reason: noAdapter(requirement, configPath) };
  const result = addProviders({ path: configPath, text: config }, entries.map((e) => e.importName), read);
  if (!result.ok) {
    const unparsable = result.unparsable && { ...result.unparsable, language: "TypeScript" as const };
    return { ok: false, reason: result.reason, byHand, ...(unparsable ? { unparsable } : {}) };
  }

  const edits = new Map(result.edits.map((edit) => [edit.path, edit.text]));
  if (entries.some(isPasskey)) {
    // Also when Passkey is already listed: a config without the switch is refused by the runtime.
    const enabled = enableWebAuthn({ path: configPath, text: edits.get(configPath) ?? config });
    if (!enabled.ok) return refused(enabled, configPath, byHand);
    if (enabled.changed) edits.set(configPath, enabled.text);
  }
  if (entries.some(isEmail)) {
    // Each link request sends a mail: without a limit, anyone can mail-bomb an address.
    const entry = { path: configPath, text: edits.get(configPath) ?? config };
    const shared = sharedRateLimitStore(entry, input.dbModule, read);
    const limited = limitSignIns(entry, shared?.store);
    if (!limited.ok) return refused(limited, configPath, byHand);
    if (limited.changed) {
      // The db module gets its store only with the entry that uses it (a config's own rateLimit is kept as it is).
      if (shared?.edit) edits.set(shared.edit.path, shared.edit.text);
      edits.set(configPath, limited.text);
    }
  }

  const plan = emptyPlan();
  for (const [path, text] of edits) addEdit(plan, path, read(path), text);
  const keys = entries.flatMap((entry) => entry.env.map((key) => ({ key, value: "", comment: envKeyComment(key) })));
  addEdit(plan, ".env", read(".env"), ensureEnvKeys(read(".env") ?? "", keys), true);
  addEdit(plan, ".env.example", read(".env.example"), ensureEnvKeys(read(".env.example") ?? "", keys));
  // package.json lists what the provider needs (email: nodemailer; passkeys: @simplewebauthn/server); installing is the user's step, as after auth-init --no-install.
  const pkg = read("package.json");
  const packages = providerPackages(entries);
  const missing = pkg === null ? [] : Object.keys(packages).filter((name) => !(name in listedDependencies(pkg)));
  if (pkg !== null && missing.length > 0) addEdit(plan, "package.json", pkg, addToPackageJson(pkg, { dependencies: packages }));
  plan.dependencies = Object.fromEntries(missing.map((name) => [name, packages[name]!]));
  const byName = (names: string[]) => entries.filter((entry) => names.includes(entry.importName));
  const env = read(".env") ?? "";
  plan.env = keys.map(({ key }) => ({ key, filled: hasEnvValue(env, key) }));
  const filled = (key: string) => plan.env.some((e) => e.key === key && e.filled);
  plan.nextSteps = [
    ...(requirement && adapter === "unknown" ? [`${requirement}: make sure ${configPath} sets an \`adapter\` — without one the runtime refuses the whole config.`] : []),
    ...(missing.length > 0 ? [`Install ${missing.join(", ")} (added to package.json; ${providerPackageReasons(entries, missing)}): \`${input.installCommand ?? "npm install"}\`.`] : []),
    ...providerSetupSteps(entries, input.authBaseUrl, filled),
    ...signInButtonSteps(entries, input.signIn, read),
    ...nitroTraceSteps(entries, read),
  ];
  const callbackUrls = entries.filter(isOAuthProvider).map((entry) => callbackUrl(input.authBaseUrl, entry));
  return { ok: true, plan, added: byName(result.added), present: byName(result.present), callbackUrls };
}

/**
 * Where a new rate limit counts when the database is one several processes share:
 * the db module's `rateLimitStore` (added to it, as auth-init writes it, when it
 * lacks one), imported where the config imports its `adapter`. Undefined (each
 * process's memory) when the config does not import `adapter` from that module,
 * or the module is not one this can add the store to.
 */
function sharedRateLimitStore(
  config: SourceText,
  dbModule: AddProviderInput["dbModule"],
  read: AddProviderInput["read"],
): { store: SharedRateLimitStore; edit?: SourceText } | undefined {
  const specifier = adapterModuleSpecifier(config);
  const text = dbModule && read(dbModule.path);
  if (!dbModule || !specifier || text == null || moduleName(specifier) !== moduleName(dbModule.path)) return undefined;
  const exported = exportRateLimitStore({ path: dbModule.path, text });
  if (!exported.ok || !exported.table || (exported.changed && !dbModule.addStore)) return undefined;
  return { store: { specifier, table: exported.table }, ...(exported.changed ? { edit: { path: dbModule.path, text: exported.text } } : {}) };
}

/** `$lib/server/db`, `./lib/server/db.js` and `src/lib/server/db.ts` all name `db`. */
const moduleName = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.[cm]?[jt]sx?$/, "");

function refused(result: ConfigRefusal, configPath: string, byHand: string): AddProviderPlan {
  return { ok: false, reason: result.reason, byHand, ...(result.syntaxError ? { unparsable: { path: configPath, ...result.syntaxError } } : {}) };
}

function noAdapter(requirement: string, configPath: string): string {
  return [
    `${requirement}, and ${configPath} sets no \`adapter\`: the runtime would refuse the whole config (every sign-in and session check). Nothing was changed.`,
    "Give the app a database first: `npx @gatehouse/cli init --adapter pglite --yes` adds one (src/lib/server/db.ts with its schema and driver) and keeps your config;",
    `then import \`adapter\` from src/lib/server/db.ts in ${configPath}, add \`adapter,\` to the config, and run this again.`,
  ].join("\n");
}

/**
 * The sign-in page auth-init wrote lists the providers it knew then: say what to
 * add for the others. A .svelte or .tsx page the user may have changed is not
 * edited (no safe AST edit for both); a page without it (built-in pages only) needs nothing.
 */
function signInButtonSteps(entries: readonly ProviderCatalogEntry[], signIn: AddProviderInput["signIn"], read: AddProviderInput["read"]): string[] {
  const page = signIn ? read(signIn.page) : null;
  if (!signIn || page === null) return [];
  return entries
    .filter((entry) => !page.includes(`provider="${entry.id}"`) && !page.includes(`/signin/${entry.id}"`) && !new RegExp(`signIn\\(\\s*['"]${entry.id}['"]`).test(page))
    .map((entry) =>
      isPasskey(entry)
        ? `Add a passkey button to ${signIn.page}: in the browser, \`signIn("${entry.id}", { email })\` from ${signIn.clientModule} signs in (no email: with a passkey the browser has; a new email: a new account), and \`signIn("${entry.id}", { action: "register" })\` adds a passkey for a signed-in user.`
        : entry.type === "email"
          ? `Add the email sign-in form to ${signIn.page}: ${signIn.button(entry)}`
          : `Add a ${entry.name} button to ${signIn.page}: ${signIn.button(entry)}`,
    );
}

/** Packages SolidStart 2's Nitro must keep out of its server bundle, per provider type, and why. */
const NITRO_TRACED: Partial<Record<ProviderCatalogEntry["type"], { name: string; why: string }>> = {
  email: { name: "nodemailer", why: "the runtime imports it by a name Nitro cannot follow" },
  webauthn: { name: "@simplewebauthn/server", why: "its reflect-metadata polyfill must run before its X.509 parser, an order Nitro's bundle does not keep" },
};

/** A SolidStart 2 app (nitro.config.ts) whose `traceDeps` lacks what an added provider needs: say what to add. */
function nitroTraceSteps(entries: readonly ProviderCatalogEntry[], read: AddProviderInput["read"]): string[] {
  const nitro = read("nitro.config.ts");
  if (nitro === null) return [];
  const needed = [...new Set(entries.flatMap((entry) => NITRO_TRACED[entry.type] ?? []))].filter(({ name }) => !nitro.includes(`"${name}"`) && !nitro.includes(`'${name}'`));
  return needed.map(({ name, why }) => `Add "${name}" to \`traceDeps\` in nitro.config.ts (${why}), or the built server fails when it is used.`);
}

function manualSteps(entries: readonly ProviderCatalogEntry[], configPath: string): string {
  const names = entries.map((e) => e.importName).join(", ");
  const keys = entries.flatMap((e) => e.env);
  return [
    `In ${configPath} (or wherever your providers array is):`,
    `  import { ${names} } from "${PROVIDERS_MODULE}";`,
    `  providers: [..., ${names}]`,
    ...(entries.some(isPasskey) ? ["  experimental: { enableWebAuthn: true }"] : []),
    ...(entries.some(isEmail) ? [`  ${RATE_LIMIT_ENTRY}`] : []),
    ...(keys.length ? [`and set ${keys.join(", ")} in .env.`] : []),
  ].join("\n");
}
