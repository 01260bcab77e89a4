/**
 * Reads and edits of the auth config object itself — the object literal that
 * holds `providers` (passed to `SvelteKitAuth`, returned by a config function,
 * or exported) — for the passwordless providers: whether it sets an `adapter`
 * (email links and passkeys need one), and `experimental: { enableWebAuthn: true }`
 * (passkeys), added or merged into an existing `experimental`, and
 * `rateLimit: { ip: 100 }` (email links). Text in, text out, idempotent.
 */
import { Node, SyntaxKind, type ObjectLiteralExpression, type SourceFile } from "ts-morph";
import { appendItems, doesNotParse, insertItemBefore, parse, parseOrSyntaxError, unwrap, type SourceText, type Unparsable } from "./source.js";

/** The comment above the `experimental` entry this adds, as `auth-init` writes it in new configs. */
export const WEBAUTHN_COMMENT = "Passkeys (WebAuthn) are experimental in the runtime: it runs them only when this is on.";

/** The config entry limiting sign-in attempts per email address and per client, and the comment above it, as `auth-init` writes them. */
export const RATE_LIMIT_ENTRY = "rateLimit: { ip: 100 }";
/** The same, counted in the app's database by the db module's `rateLimitStore`. */
export const RATE_LIMIT_STORE_ENTRY = "rateLimit: { ip: 100, store: rateLimitStore }";
/** What both comments say first: the limits. */
const RATE_LIMIT_LIMITS = [
  "At most 5 sign-in attempts per email address and 100 per client address (an office or a",
  "phone network may put many people behind one) in 15 minutes (password, email link,",
];
/** What both comments say last, from the end of a line on: where the client address comes from. */
const [CLIENT_ADDRESS, ...RATE_LIMIT_CLIENT_ADDRESS] = [
  "The client address is the connection's: behind a proxy, set",
  "AUTH_CLIENT_ADDRESS_HEADER to the header it puts the visitor's address in (such as",
  "x-forwarded-for), or every visitor shares the proxy's count.",
];
export const RATE_LIMIT_COMMENT: readonly string[] = [
  ...RATE_LIMIT_LIMITS,
  "passkey), counted in this process's memory (several processes: a store such as",
  `PostgresRateLimitStore). ${CLIENT_ADDRESS}`,
  ...RATE_LIMIT_CLIENT_ADDRESS,
];
/** With a store in the app's database: `table` is where it keeps the counts (`rate_limits`; the hosted store's `svc_rate_limits`). */
export function rateLimitStoreComment(table: string): readonly string[] {
  return [
    ...RATE_LIMIT_LIMITS,
    `passkey), counted in the database (its ${table} table), so the limits hold however many`,
    `processes of this app run. ${CLIENT_ADDRESS}`,
    ...RATE_LIMIT_CLIENT_ADDRESS,
  ];
}

/** `set`: the config has an `adapter`; `missing`: it surely has none; `unknown`: it cannot be told from the text (a spread, no config object found). */
export type AdapterPresence = "set" | "missing" | "unknown";

export function configAdapter(entry: SourceText): AdapterPresence {
  const parsed = parse(entry);
  const config = parsed && findConfigObject(parsed.file, entry.path);
  if (!config || "reason" in config) return "unknown";
  if (config.getProperty("adapter")) return "set";
  // `{ ...shared, providers }` may bring one along.
  return config.getProperties().some((property) => Node.isSpreadAssignment(property)) ? "unknown" : "missing";
}

/** Refused: why; `syntaxError` when the module does not parse (the command stops, see plan.ts). */
export type ConfigRefusal = { ok: false; reason: string; syntaxError?: Unparsable };

export type EnableWebAuthnResult = { ok: true; text: string; changed: boolean } | ConfigRefusal;

/**
 * `experimental: { enableWebAuthn: true }` in the config object: added after its
 * last entry, or the key added to an existing `experimental` object; a literal
 * `enableWebAuthn: false` becomes `true` (passkeys are being added). Any other
 * value of it is the app's own choice and is left as it is.
 */
export function enableWebAuthn(entry: SourceText): EnableWebAuthnResult {
  const opened = openConfig(entry);
  if ("reason" in opened) return opened;
  const { file, config } = opened;
  const unchanged = { ok: true as const, text: entry.text, changed: false };

  const experimental = config.getProperty("experimental");
  if (!experimental) {
    appendItems(file, config, [{ text: "experimental: { enableWebAuthn: true }", comment: WEBAUTHN_COMMENT }]);
    return { ok: true, text: file.getFullText(), changed: true };
  }
  const value = Node.isPropertyAssignment(experimental) ? unwrap(experimental.getInitializer()) : undefined;
  if (!Node.isObjectLiteralExpression(value)) {
    return { ok: false, reason: `its \`experimental\` option is not written as an object (\`{ ... }\`), so \`enableWebAuthn: true\` cannot be added to it` };
  }
  const flag = value.getProperty("enableWebAuthn");
  if (!flag) {
    appendItems(file, value, [{ text: "enableWebAuthn: true" }]);
    return { ok: true, text: file.getFullText(), changed: true };
  }
  const flagValue = Node.isPropertyAssignment(flag) ? unwrap(flag.getInitializer()) : undefined;
  if (flagValue?.getKind() === SyntaxKind.FalseKeyword) {
    flagValue.replaceWithText("true");
    return { ok: true, text: file.getFullText(), changed: true };
  }
  return unchanged;
}

export type LimitSignInsResult = { ok: true; text: string; changed: boolean } | ConfigRefusal;

/** The db module's `rateLimitStore`: the config imports it from `specifier` (where it imports `adapter` from); it counts in `table`. */
export interface SharedRateLimitStore {
  specifier: string;
  table: string;
}

/**
 * `rateLimit: { ip: 100 }` just before the config object's `providers` (where
 * `auth-init` writes it), unless it has a `rateLimit` already (the app's own,
 * kept as it is, `false` included). With `store`, the counts go to the
 * database: `store: rateLimitStore`, imported beside `adapter`.
 */
export function limitSignIns(entry: SourceText, store?: SharedRateLimitStore): LimitSignInsResult {
  const opened = openConfig(entry);
  if ("reason" in opened) return opened;
  const { file, config } = opened;
  if (config.getProperty("rateLimit")) return { ok: true, text: entry.text, changed: false };
  const from = store && file.getImportDeclarations().find((declaration) => declaration.getModuleSpecifierValue() === store.specifier);
  if (!store || !from) {
    insertItemBefore(file, config, config.getPropertyOrThrow("providers"), { text: RATE_LIMIT_ENTRY, comment: RATE_LIMIT_COMMENT.join("\n") });
    return { ok: true, text: file.getFullText(), changed: true };
  }
  // The import first: inserting text forgets the nodes it was found with.
  if (!from.getNamedImports().some((named) => named.getName() === "rateLimitStore")) from.addNamedImport("rateLimitStore");
  const comment = rateLimitStoreComment(store.table).join("\n");
  insertItemBefore(file, config, config.getPropertyOrThrow("providers"), { text: RATE_LIMIT_STORE_ENTRY, comment });
  return { ok: true, text: file.getFullText(), changed: true };
}

/** The module parsed for editing, and its config object; or why it cannot be edited. */
function openConfig(entry: SourceText): { file: SourceFile; config: ObjectLiteralExpression } | ConfigRefusal {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  const config = findConfigObject(parsed.file, entry.path);
  return "reason" in config ? config : { file: parsed.file, config };
}

/** The one object literal of the module with a `providers` key. */
function findConfigObject(file: SourceFile, path: string): ObjectLiteralExpression | { ok: false; reason: string } {
  const objects = file.getDescendantsOfKind(SyntaxKind.ObjectLiteralExpression).filter((object) => object.getProperty("providers"));
  if (objects.length === 1) return objects[0]!;
  return { ok: false, reason: objects.length === 0 ? `${path} has no config object with \`providers\`` : `${path} has more than one object with \`providers\`` };
}
