/**
 * The `src/app.d.ts` edit as input/output fixtures, each also run twice.
 */
import { describe, expect, it } from "vitest";
import { declareLocalsAuth } from "../../../src/ast/sveltekit-app-types.js";

function edited(source: string): string {
  const result = declareLocalsAuth(source);
  if (!result.ok) throw new Error(result.reason);
  const again = declareLocalsAuth(result.text);
  expect(again).toEqual({ ok: true, text: result.text });
  return result.text;
}

const AUTH_DOC = "/** The session of this request, or `null` (read once per request): set by the auth handle. */";
const AUTH = "auth(): Promise<import('@gatehouse/runtime/sveltekit').Session | null>;";

describe("declareLocalsAuth", () => {
  it("sv's app.d.ts: the commented-out Locals becomes the interface with auth(), tabs kept", () => {
    const input = `// See https://svelte.dev/docs/kit/types#app.d.ts
// for information about these interfaces
declare global {
\tnamespace App {
\t\t// interface Error {}
\t\t// interface Locals {}
\t\t// interface PageData {}
\t\t// interface PageState {}
\t\t// interface Platform {}
\t}
}

export {};
`;
    expect(edited(input)).toBe(`// See https://svelte.dev/docs/kit/types#app.d.ts
// for information about these interfaces
declare global {
\tnamespace App {
\t\t// interface Error {}
\t\tinterface Locals {
\t\t\t${AUTH_DOC}
\t\t\t${AUTH}
\t\t}
\t\t// interface PageData {}
\t\t// interface PageState {}
\t\t// interface Platform {}
\t}
}

export {};
`);
  });

  it("an existing Locals keeps its members and gains auth()", () => {
    const input = `import type { Db } from '$lib/db';

declare global {
  namespace App {
    interface Locals {
      db: Db;
    }
  }
}

export {};
`;
    expect(edited(input)).toBe(`import type { Db } from '$lib/db';

declare global {
  namespace App {
    interface Locals {
      db: Db;
      ${AUTH_DOC}
      ${AUTH}
    }
  }
}

export {};
`);
  });

  it("a Locals that already declares auth is left byte for byte", () => {
    const input = "declare global {\n  namespace App {\n    interface Locals { auth(): Promise<unknown> }\n  }\n}\nexport {};\n";
    expect(declareLocalsAuth(input)).toEqual({ ok: true, text: input });
  });

  it("an empty file gets declare global, namespace App, Locals and export {}", () => {
    const text = edited("");
    expect(text).toContain("declare global {");
    expect(text).toContain("namespace App {");
    expect(text).toContain(AUTH);
    expect(text.trimEnd().endsWith("export {};")).toBe(true);
  });

  it("a file without namespace App gets one inside its declare global", () => {
    const text = edited("declare global {\n  interface Window { x: number }\n}\n\nexport {};\n");
    expect(text).toContain("interface Window { x: number }");
    expect(text).toMatch(/declare global \{[\s\S]*namespace App \{[\s\S]*interface Locals \{[\s\S]*auth\(\)/);
    expect(text.match(/export \{\};/g)).toHaveLength(1);
  });

  it("refuses a file that does not parse, with where it breaks", () => {
    const result = declareLocalsAuth("declare global { namespace App { interface Locals { ");
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("does not parse"), syntaxError: { language: "TypeScript", line: 1, column: 53, message: "'}' expected." } });
  });
});
