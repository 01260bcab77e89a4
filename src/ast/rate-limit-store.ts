/**
 * The rate limit store of an app whose database several processes share (a
 * PostgreSQL server, the hosted store, a SQLite file), for `auth add-provider
 * email` in an app auth-init made without a rate limit: the db module gets
 * `export const rateLimitStore = <Store>(<what the adapter is given>)` below its
 * `adapter`, as auth-init writes it, and the config imports it from there. Text
 * in, text out, idempotent.
 */
import { Node, SyntaxKind, type ImportDeclaration, type SourceFile } from "ts-morph";
import { doesNotParse, parseOrSyntaxError, unwrap, type SourceText, type Unparsable } from "./source.js";

/** The rate limit stores a generated db module may export, each with the table it counts in (the hosted store's records carry the svc_ prefix of its tables). */
export const RATE_LIMIT_TABLES = {
  PostgresRateLimitStore: "rate_limits",
  SqliteRateLimitStore: "rate_limits",
  HostedStoreRateLimitStore: "svc_rate_limits",
} as const;
export type RateLimitStoreName = keyof typeof RATE_LIMIT_TABLES;

/** Each adapter auth-init's db modules make, with the store that counts on the same connection. */
const STORE_OF_ADAPTER: Record<string, RateLimitStoreName> = {
  PostgresAdapter: "PostgresRateLimitStore",
  SqliteAdapter: "SqliteRateLimitStore",
  HostedStoreAdapter: "HostedStoreRateLimitStore",
};

const RATE_LIMIT_STORE_EXPORT = "rateLimitStore";

/** Above the db module's `rateLimitStore` (auth-init writes the same), one line each. */
export function rateLimitStoreModuleComment(table: string): string[] {
  return [
    `The sign-in counts of \`rateLimit\` (the auth config), in this database's ${table} table`,
    "(migrated with the other auth tables) over the adapter's connection: every process of the",
    "app counts in one place, so a limit holds however many of them run.",
  ];
}

export type RateLimitStoreExport =
  /** The module exports `rateLimitStore` (`changed` when this added it); `table` where it counts, when it is one of the runtime's stores. */
  | { ok: true; text: string; changed: boolean; table?: string }
  /** Not a db module this can add the store to (no `export const adapter = <Adapter>(…)` of ours): the config keeps the memory count. */
  | { ok: false; reason: string; syntaxError?: Unparsable };

/** `rateLimitStore` exported by the db module: already there, or added below `adapter` with its import. */
export function exportRateLimitStore(entry: SourceText): RateLimitStoreExport {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  const { file } = parsed;
  const present = file.getVariableDeclaration(RATE_LIMIT_STORE_EXPORT);
  if (present?.isExported()) {
    // One of the runtime's stores says where it counts; the app's own store may count anywhere.
    const made = unwrap(present.getInitializer());
    const name = made && Node.isCallExpression(made) ? made.getExpression().getText() : "";
    return { ok: true, text: entry.text, changed: false, ...(name in RATE_LIMIT_TABLES ? { table: RATE_LIMIT_TABLES[name as RateLimitStoreName] } : {}) };
  }
  const adapter = file.getVariableDeclaration("adapter");
  const call = adapter?.getInitializer();
  const statement = adapter?.getVariableStatement();
  if (!adapter || !statement?.isExported() || !call || !Node.isCallExpression(call)) return { ok: false, reason: `${entry.path} has no \`export const adapter = …(…)\`` };
  const name = call.getExpression().getText();
  const store = STORE_OF_ADAPTER[name];
  const from = adapterImport(file, name);
  if (!store || !from) return { ok: false, reason: `${entry.path} makes its adapter with ${name}, not one of @gatehouse/runtime's database adapters` };
  // Right after the adapter's name, where auth-init's templates list it.
  const named = from.getNamedImports();
  if (!named.some((item) => item.getName() === store)) from.insertNamedImport(named.findIndex((item) => item.getName() === name) + 1, store);
  // The store takes what the adapter takes: the same connection (or the function that opens it).
  const args = call.getArguments().map((arg) => arg.getText()).join(", ");
  const comment = rateLimitStoreModuleComment(RATE_LIMIT_TABLES[store]).map((line) => `// ${line}`).join("\n");
  file.insertText(statement.getEnd(), `\n\n${comment}\nexport const ${RATE_LIMIT_STORE_EXPORT} = ${store}(${args});`);
  return { ok: true, text: file.getFullText(), changed: true, table: RATE_LIMIT_TABLES[store] };
}

/** The import declaration that brings `name` from one of the runtime's adapter modules. */
function adapterImport(file: SourceFile, name: string): ImportDeclaration | undefined {
  return file
    .getImportDeclarations()
    .find((declaration) => declaration.getModuleSpecifierValue().startsWith("@gatehouse/runtime/adapters/") && declaration.getNamedImports().some((named) => named.getName() === name));
}

/** The module specifier the config imports `adapter` from (`$lib/server/db`, `./lib/server/db`); undefined when it does not import it by that name. */
export function adapterModuleSpecifier(config: SourceText): string | undefined {
  const parsed = parseOrSyntaxError(config);
  if ("syntaxError" in parsed) return undefined;
  return parsed.file
    .getDescendantsOfKind(SyntaxKind.ImportDeclaration)
    .find((declaration) => declaration.getNamedImports().some((named) => named.getName() === "adapter" && !named.getAliasNode()))
    ?.getModuleSpecifierValue();
}
