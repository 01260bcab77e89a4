/**
 * The edits and reads of the auth config object for passwordless providers, as
 * input/output fixtures: `enableWebAuthn` (added, merged into an existing
 * `experimental`, each run a second time with no change), `limitSignIns` and
 * `configAdapter`.
 */
import { describe, expect, it } from "vitest";
import { configAdapter, enableWebAuthn, limitSignIns, RATE_LIMIT_COMMENT, WEBAUTHN_COMMENT } from "../../../src/ast/config-object.js";

type ConfigEdit = typeof enableWebAuthn | typeof limitSignIns;

/** Runs the edit, then checks that a second run changes nothing. */
function editedTwice(edit: ConfigEdit, text: string): string {
  const result = edit({ path: "src/auth.ts", text });
  if (!result.ok) throw new Error(result.reason);
  expect(result.changed).toBe(result.text !== text);
  expect(edit({ path: "src/auth.ts", text: result.text })).toEqual({ ok: true, text: result.text, changed: false });
  return result.text;
}
const enabled = (text: string) => editedTwice(enableWebAuthn, text);
const limited = (text: string) => editedTwice(limitSignIns, text);

const SVELTEKIT = `import { SvelteKitAuth } from '@gatehouse/runtime/sveltekit';
import { Passkey } from '@gatehouse/runtime/providers';

export const { handle, signIn, signOut } = SvelteKitAuth({
\tadapter,
\tproviders: [
\t\tPasskey,
\t]
});
`;

describe("enableWebAuthn", () => {
  it("a config without `experimental`: the entry after the last one, with the comment auth-init writes (tabs, no trailing comma)", () => {
    expect(enabled(SVELTEKIT)).toBe(SVELTEKIT.replace("\t]\n});", `\t],\n\t// ${WEBAUTHN_COMMENT}\n\texperimental: { enableWebAuthn: true }\n});`));
  });

  it("two spaces and a trailing comma stay so", () => {
    const text = `export const authConfig: SolidAuthConfig = {\n  adapter,\n  providers: [Passkey],\n};\n`;
    expect(enabled(text)).toBe(`export const authConfig: SolidAuthConfig = {\n  adapter,\n  providers: [Passkey],\n  // ${WEBAUTHN_COMMENT}\n  experimental: { enableWebAuthn: true },\n};\n`);
  });

  it("a one-line config object stays on one line", () => {
    expect(enabled(`export const config = { adapter, providers: [Passkey] };\n`)).toBe(`export const config = { adapter, providers: [Passkey], experimental: { enableWebAuthn: true } };\n`);
  });

  it("an existing `experimental` object gets the key added, on its own line or inline as it is written", () => {
    const multi = `export const config = {\n  providers: [Passkey],\n  experimental: {\n    somethingElse: true,\n  },\n};\n`;
    expect(enabled(multi)).toBe(`export const config = {\n  providers: [Passkey],\n  experimental: {\n    somethingElse: true,\n    enableWebAuthn: true,\n  },\n};\n`);
    const inline = `export const config = { providers: [Passkey], experimental: { somethingElse: true } };\n`;
    expect(enabled(inline)).toBe(`export const config = { providers: [Passkey], experimental: { somethingElse: true, enableWebAuthn: true } };\n`);
    const empty = `export const config = { providers: [Passkey], experimental: {} };\n`;
    expect(enabled(empty)).toBe(`export const config = { providers: [Passkey], experimental: { enableWebAuthn: true } };\n`);
  });

  it("`enableWebAuthn: false` becomes true; true, or an expression of the app's own, is left alone", () => {
    expect(enabled(`export const config = { providers: [Passkey], experimental: { enableWebAuthn: false } };\n`)).toBe(
      `export const config = { providers: [Passkey], experimental: { enableWebAuthn: true } };\n`,
    );
    for (const value of ["true", "process.env.NODE_ENV !== 'production'"]) {
      const text = `export const config = { providers: [Passkey], experimental: { enableWebAuthn: ${value} } };\n`;
      expect(enabled(text)).toBe(text);
    }
  });

  it("a config function returning the object, and `satisfies`", () => {
    const text = `export const { handle } = SvelteKitAuth(async () => ({\n  providers: [Passkey],\n}) satisfies SvelteKitAuthConfig);\n`;
    expect(enabled(text)).toContain(`  providers: [Passkey],\n  // ${WEBAUTHN_COMMENT}\n  experimental: { enableWebAuthn: true },\n})`);
  });

  it.each([
    ["`experimental` from a variable", `const flags = {};\nexport const config = { providers: [], experimental: flags };\n`, /not written as an object/],
    ["no config object", `export const config = makeConfig();\n`, /has no config object with `providers`/],
    ["two config objects", `export const a = { providers: [] };\nexport const b = { providers: [] };\n`, /more than one object with `providers`/],
    ["broken syntax", `export const config = { providers: [ `, /does not parse/],
  ])("refuses %s, with the reason", (_name, text, reason) => {
    const result = enableWebAuthn({ path: "src/auth.ts", text });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(reason);
  });
});

describe("configAdapter", () => {
  it.each([
    ["set", SVELTEKIT],
    ["set", `export const config = { adapter: PostgresAdapter(pool), providers: [] };\n`],
    ["missing", `export const config = { session: { strategy: "jwt" }, providers: [GitHub] };\n`],
    ["unknown", `export const config = { ...shared, providers: [] };\n`],
    ["unknown", `export const config = makeConfig();\n`],
    ["unknown", `export const config = { providers: [ `],
  ] as const)("%s: %j", (expected, text) => {
    expect(configAdapter({ path: "src/auth.ts", text })).toBe(expected);
  });
});

describe("limitSignIns", () => {
  const comment = (indent: string) => RATE_LIMIT_COMMENT.map((line) => `${indent}// ${line}\n`).join("");

  it("`rateLimit: { ip: 100 }` just before `providers`, under the comment auth-init writes, in the file's indentation", () => {
    expect(limited(SVELTEKIT)).toBe(SVELTEKIT.replace("\tproviders: [", `${comment("\t")}\trateLimit: { ip: 100 },\n\tproviders: [`));
    const solid = `export const authConfig: SolidAuthConfig = {\n  adapter,\n  providers: [Nodemailer],\n};\n`;
    expect(limited(solid)).toBe(`export const authConfig: SolidAuthConfig = {\n  adapter,\n${comment("  ")}  rateLimit: { ip: 100 },\n  providers: [Nodemailer],\n};\n`);
  });

  it("above a comment of the app's that belongs to `providers`", () => {
    const text = `export default { adapter,\n  // Our sign-in methods.\n  providers: [Nodemailer] };\n`;
    expect(limited(text)).toBe(`export default { adapter,\n${comment("  ")}  rateLimit: { ip: 100 },\n  // Our sign-in methods.\n  providers: [Nodemailer] };\n`);
  });

  it("a one-line config object stays on one line", () => {
    expect(limited(`export const config = { adapter, providers: [Nodemailer] };\n`)).toBe(`export const config = { adapter, rateLimit: { ip: 100 }, providers: [Nodemailer] };\n`);
  });

  it("the app's own rateLimit is kept as it is, `false` included", () => {
    for (const own of ["rateLimit: false", "rateLimit: { ip: 10, identifier: 3 }", "rateLimit"]) {
      const text = `export const config = { adapter, ${own}, providers: [Nodemailer] };\n`;
      expect(limitSignIns({ path: "src/auth.ts", text })).toEqual({ ok: true, text, changed: false });
    }
  });

  it("no config object to edit: a reason, nothing changed", () => {
    expect(limitSignIns({ path: "src/auth.ts", text: "export const x = 1;\n" })).toEqual({ ok: false, reason: "src/auth.ts has no config object with `providers`" });
  });
});
