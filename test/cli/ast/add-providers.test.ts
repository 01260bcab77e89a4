/**
 * `addProviders` (auth add-provider's edit) as input/output fixtures for the
 * shapes auth configs take, each run a second time (no change).
 */
import { describe, expect, it } from "vitest";
import { addProviders, type SourceText } from "../../../src/ast/add-providers.js";

const run = (entry: SourceText, names: string[], others: Record<string, string> = {}) => addProviders(entry, names, (path) => others[path] ?? null);

/** Applies the edit, then checks that a second run finds everything present. */
function edited(entry: SourceText, names: string[], others: Record<string, string> = {}): Record<string, string> {
  const result = run(entry, names, others);
  if (!result.ok) throw new Error(result.reason);
  const files: Record<string, string> = { [entry.path]: entry.text, ...others };
  for (const edit of result.edits) files[edit.path] = edit.text;
  const again = run({ path: entry.path, text: files[entry.path]! }, names, files);
  expect(again).toEqual({ ok: true, edits: [], added: [], present: names });
  return files;
}

const SVELTEKIT = `import { SvelteKitAuth } from '@gatehouse/runtime/sveltekit';
import { Credentials } from '@gatehouse/runtime/providers';
import { adapter } from '$lib/server/db';

export const { handle, signIn, signOut } = SvelteKitAuth({
\tadapter,
\tproviders: [
\t\tCredentials({
\t\t\tauthorize: (credentials) => check(credentials)
\t\t}),
\t]
});
`;

describe("addProviders", () => {
  it("the config auth-init writes: the import is merged, the entry appended on its own line", () => {
    const files = edited({ path: "src/auth.ts", text: SVELTEKIT }, ["GitHub"]);
    expect(files["src/auth.ts"]).toBe(`import { SvelteKitAuth } from '@gatehouse/runtime/sveltekit';
import { Credentials, GitHub } from '@gatehouse/runtime/providers';
import { adapter } from '$lib/server/db';

export const { handle, signIn, signOut } = SvelteKitAuth({
\tadapter,
\tproviders: [
\t\tCredentials({
\t\t\tauthorize: (credentials) => check(credentials)
\t\t}),
\t\tGitHub,
\t]
});
`);
  });

  it("a multi-line array without a trailing comma gets none; two spaces stay two spaces", () => {
    const text = `import { Credentials } from "@gatehouse/runtime/providers";\nexport const authConfig = {\n  providers: [\n    Credentials({ authorize })\n  ],\n};\n`;
    expect(edited({ path: "src/auth.ts", text }, ["GitHub", "Google"])["src/auth.ts"]).toBe(
      `import { Credentials, GitHub, Google } from "@gatehouse/runtime/providers";\nexport const authConfig = {\n  providers: [\n    Credentials({ authorize }),\n    GitHub,\n    Google\n  ],\n};\n`,
    );
  });

  it("several at once, in order; one already there is reported as present", () => {
    const text = `import { GitHub } from "@gatehouse/runtime/providers";\nexport const config = { providers: [GitHub] };\n`;
    const result = run({ path: "src/auth.ts", text }, ["GitHub", "Google", "Discord"]);
    expect(result).toMatchObject({ ok: true, added: ["Google", "Discord"], present: ["GitHub"] });
    expect(result.ok && result.edits[0]!.text).toBe(
      `import { GitHub, Google, Discord } from "@gatehouse/runtime/providers";\nexport const config = { providers: [GitHub, Google, Discord] };\n`,
    );
  });

  it("a config function returning the object (SvelteKitAuth(async (event) => ({ ... })))", () => {
    const text = `import { SvelteKitAuth } from "@gatehouse/runtime/sveltekit";\n\nexport const { handle } = SvelteKitAuth(async (event) => ({\n  providers: [],\n  trustHost: true,\n}));\n`;
    const files = edited({ path: "src/auth.ts", text }, ["GitHub"]);
    expect(files["src/auth.ts"]).toBe(
      `import { SvelteKitAuth } from "@gatehouse/runtime/sveltekit";\nimport { GitHub } from "@gatehouse/runtime/providers";\n\nexport const { handle } = SvelteKitAuth(async (event) => ({\n  providers: [GitHub],\n  trustHost: true,\n}));\n`,
    );
  });

  it("a typed config object with `satisfies`, and a function body that returns it", () => {
    const text = `import type { SolidAuthConfig } from "@gatehouse/runtime/solid-start";\n\nexport function config() {\n  return { providers: [] } satisfies SolidAuthConfig;\n}\n`;
    expect(edited({ path: "src/auth.ts", text }, ["GitHub"])["src/auth.ts"]).toContain("return { providers: [GitHub] } satisfies SolidAuthConfig;");
  });

  it("a local providers variable (shorthand property)", () => {
    const text = `import { Credentials } from '@gatehouse/runtime/providers';\nconst providers = [Credentials({ authorize })];\nexport const config = { providers };\n`;
    expect(edited({ path: "src/auth.ts", text }, ["GitHub"])["src/auth.ts"]).toBe(
      `import { Credentials, GitHub } from '@gatehouse/runtime/providers';\nconst providers = [Credentials({ authorize }), GitHub];\nexport const config = { providers };\n`,
    );
  });

  it("providers kept in another module of the app: that module is edited", () => {
    const entry = { path: "src/auth.ts", text: `import { providers } from './lib/providers';\nexport const config = { providers };\n` };
    const other = { "src/lib/providers.ts": `export const providers = [];\n` };
    const files = edited(entry, ["GitHub"], other);
    expect(files["src/auth.ts"]).toBe(entry.text);
    // The new import follows the app's quotes (from the config module).
    expect(files["src/lib/providers.ts"]).toBe(`import { GitHub } from '@gatehouse/runtime/providers';\n\nexport const providers = [GitHub];\n`);
  });

  it("an alias of ours, or the same name from Auth.js, already in the array counts as present", () => {
    const aliased = `import { GitHub as GH } from '@gatehouse/runtime/providers';\nexport const config = { providers: [GH({ clientId: 'x' })] };\n`;
    expect(run({ path: "src/auth.ts", text: aliased }, ["GitHub"])).toEqual({ ok: true, edits: [], added: [], present: ["GitHub"] });
    const authjs = `import GitHub from '@auth/core/providers/github';\nexport const config = { providers: [GitHub] };\n`;
    expect(run({ path: "src/auth.ts", text: authjs }, ["GitHub"])).toEqual({ ok: true, edits: [], added: [], present: ["GitHub"] });
  });

  it.each([
    ["computed providers", `export const config = { providers: load() };\n`, /computed/],
    ["two arrays", `export const a = { providers: [] };\nexport const b = { providers: [] };\n`, /more than one/],
    ["no providers", `export const config = {};\n`, /has no `providers: \[...\]`/],
    ["a package's providers", `import { providers } from 'shared-auth';\nexport const config = { providers };\n`, /not declared in src\/auth.ts or imported from a module of the app/],
    ["a missing module", `import { providers } from './nope';\nexport const config = { providers };\n`, /cannot find the module \.\/nope/],
    ["a name taken by something else", `const GitHub = 1;\nexport const config = { providers: [] };\n`, /already declares `GitHub`/],
    ["broken syntax", `export const config = { providers: [ `, /does not parse/],
  ])("refuses %s, with the reason", (_name, text, reason) => {
    const result = run({ path: "src/auth.ts", text }, ["GitHub"]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});
