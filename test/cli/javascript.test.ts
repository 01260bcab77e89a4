/**
 * The JavaScript that auth-init writes into a JavaScript app: its TypeScript
 * templates with the types erased and the gaps closed, so the result reads as
 * if written by hand; and every template it may write that way, rendered.
 */
import { describe, expect, it } from "vitest";
import { moduleToJavaScript, svelteToJavaScript, UnerasableTypeScriptError } from "../../src/generators/javascript.js";

describe("moduleToJavaScript", () => {
  it("erases annotations, casts, satisfies, generics and type-only imports; keeps comments, blank lines and indentation", () => {
    const typescript = `import { fail, type Actions } from '@sveltejs/kit';
import { type A, b } from './b';
import type { PageServerLoad } from './$types';

// Kept: a comment.
const shared = globalThis as typeof globalThis & {
\t__db?: Promise<unknown>;
};

interface Options {
\tname: string;
}

export const actions = {
\tdefault: async (event: unknown): Promise<void> => {
\t\tconst form = new FormData(event as HTMLFormElement);
\t\tconsole.log(form, b, shared);
\t}
} satisfies Actions;

export function first<T>(list: T[], fallback?: T): T | undefined {
\treturn list[0] ?? fallback;
}
`;
    expect(moduleToJavaScript(typescript)).toBe(`import { fail } from '@sveltejs/kit';
import { b } from './b';

// Kept: a comment.
const shared = globalThis;

export const actions = {
\tdefault: async (event) => {
\t\tconst form = new FormData(event);
\t\tconsole.log(form, b, shared);
\t}
};

export function first(list, fallback) {
\treturn list[0] ?? fallback;
}
`);
  });

  it("JavaScript comes back as it was", () => {
    const javascript = "import { a } from './a';\n\nexport const b = (c) => a(c);\n";
    expect(moduleToJavaScript(javascript)).toBe(javascript);
  });

  it("TypeScript with a run-time meaning (an enum) is an error, not wrong JavaScript", () => {
    expect(() => moduleToJavaScript("enum Color { Red }\n")).toThrow(UnerasableTypeScriptError);
  });
});

describe("svelteToJavaScript", () => {
  it("a component's TypeScript script becomes a plain one; the markup is untouched", () => {
    const component = `<script lang="ts">
\timport type { PageProps } from './$types';
\tlet { data }: PageProps = $props();
\tconst count = (list: string[]): number => list.length;
</script>

<p>{data.title}: {count(data.items)}</p>
`;
    expect(svelteToJavaScript(component)).toBe(`<script>
\tlet { data } = $props();
\tconst count = (list) => list.length;
</script>

<p>{data.title}: {count(data.items)}</p>
`);
  });

  it("a module script keeps its other attributes", () => {
    expect(svelteToJavaScript('<script module lang="ts">\n\texport const x: number = 1;\n</script>\n')).toBe("<script module>\n\texport const x = 1;\n</script>\n");
  });
});
