/**
 * `auth add-provider`'s plan: the config edit (ts-morph, possibly in the module
 * that holds the providers array), env placeholders in `.env` and
 * `.env.example`, and the callback URL to register. Pure: files come in through
 * `read`; the command applies the plan.
 */
import type { ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import { addProviders, PROVIDERS_MODULE } from "../ast/add-providers.js";
import { addEdit, emptyPlan, type Plan } from "../plan/plan.js";
import { ensureEnvKeys } from "./env.js";

export interface AddProviderInput {
  entries: readonly ProviderCatalogEntry[];
  configPath: string;
  /** An app file's text by relative path, `null` when missing. */
  read: (path: string) => string | null;
  /** Where the app serves auth, e.g. `http://localhost:5173/auth`; unknown frameworks get a placeholder. */
  authBaseUrl: string;
}

export type AddProviderPlan =
  | { ok: true; plan: Plan; added: ProviderCatalogEntry[]; present: ProviderCatalogEntry[]; callbackUrls: string[] }
  | { ok: false; reason: string; byHand: string };

export function planAddProviders(input: AddProviderInput): AddProviderPlan {
  const { entries, configPath, read } = input;
  const config = read(configPath);
  const byHand = manualSteps(entries, configPath);
  if (config === null) return { ok: false, reason: `${configPath} not found (run auth-init first, or pass --config)`, byHand };
  const result = addProviders({ path: configPath, text: config }, entries.map((e) => e.importName), read);
  if (!result.ok) return { ok: false, reason: result.reason, byHand };

  const plan = emptyPlan();
  for (const edit of result.edits) addEdit(plan, edit.path, read(edit.path), edit.text);
  const keys = entries.flatMap((entry) => entry.env.map((key) => ({ key, value: "" })));
  addEdit(plan, ".env", read(".env"), ensureEnvKeys(read(".env") ?? "", keys), true);
  addEdit(plan, ".env.example", read(".env.example"), ensureEnvKeys(read(".env.example") ?? "", keys));
  const byName = (names: string[]) => entries.filter((entry) => names.includes(entry.importName));
  const env = read(".env") ?? "";
  plan.env = keys.map(({ key }) => ({ key, filled: new RegExp(`^\\s*(?:export\\s+)?${key}\\s*=\\s*["']?[^"'\\s#]`, "m").test(env) }));
  const callbackUrls = entries.map((entry) => `${input.authBaseUrl}/callback/${entry.id}`);
  plan.nextSteps = entries.map((entry, i) => {
    const where = entry.setupUrl ? ` at ${entry.setupUrl}` : "";
    const empty = entry.env.filter((key) => !plan.env.find((e) => e.key === key)?.filled);
    return `Register the callback URL ${callbackUrls[i]} for ${entry.name}${where}${empty.length ? `, then set ${empty.join(" and ")} in .env` : ""}.`;
  });
  return { ok: true, plan, added: byName(result.added), present: byName(result.present), callbackUrls };
}

function manualSteps(entries: readonly ProviderCatalogEntry[], configPath: string): string {
  const names = entries.map((e) => e.importName).join(", ");
  const keys = entries.flatMap((e) => e.env);
  return [
    `In ${configPath} (or wherever your providers array is):`,
    `  import { ${names} } from "${PROVIDERS_MODULE}";`,
    `  providers: [..., ${names}]`,
    ...(keys.length ? [`and set ${keys.join(", ")} in .env.`] : []),
  ].join("\n");
}
