/**
 * `auth add-provider`'s plan: the config edit (ts-morph, possibly in the module
 * that holds the providers array), env placeholders in `.env` and
 * `.env.example`, and the callback URL to register. Pure: files come in through
 * `read`; the command applies the plan.
 */
import type { ProviderCatalogEntry } from "@gatehouse/runtime/providers/catalog";
import { addProviders, PROVIDERS_MODULE } from "../ast/add-providers.js";
import { addEdit, emptyPlan, type Plan } from "../plan/plan.js";
import { ensureEnvKeys, hasEnvValue } from "./env.js";
import { callbackUrl, providerSetupSteps } from "./provider-setup.js";

export interface AddProviderInput {
  entries: readonly ProviderCatalogEntry[];
  configPath: string;
  /** An app file's text by relative path, `null` when missing. */
  read: (path: string) => string | null;
  /** Where the app serves auth, e.g. `http://localhost:5173/auth`; unknown frameworks get a placeholder. */
  authBaseUrl: string;
  /** The framework's sign-in page (as auth-init writes it) and its form for a provider; absent for unknown frameworks. */
  signIn?: { page: string; button: (provider: { id: string; name: string }) => string };
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
  plan.env = keys.map(({ key }) => ({ key, filled: hasEnvValue(env, key) }));
  const filled = (key: string) => plan.env.some((e) => e.key === key && e.filled);
  plan.nextSteps = [
    ...providerSetupSteps(entries, input.authBaseUrl, filled),
    ...signInButtonSteps(entries, input.signIn, read),
  ];
  const callbackUrls = entries.map((entry) => callbackUrl(input.authBaseUrl, entry));
  return { ok: true, plan, added: byName(result.added), present: byName(result.present), callbackUrls };
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
    .filter((entry) => !page.includes(`provider="${entry.id}"`) && !page.includes(`/signin/${entry.id}"`))
    .map((entry) => `Add a ${entry.name} button to ${signIn.page}: ${signIn.button(entry)}`);
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
