/**
 * `composeAuthHandle`: input -> expected output fixtures for the shapes a
 * `src/hooks.server.ts` takes, each also run a second time (no change).
 */
import { describe, expect, it } from "vitest";
import { composeAuthHandle } from "../../../src/ast/sveltekit-hooks.js";

function composed(source: string): string {
  const first = composeAuthHandle(source);
  if (!first.ok) throw new Error(first.reason);
  const second = composeAuthHandle(first.text);
  expect(second).toEqual({ ok: true, text: first.text });
  return first.text;
}

describe("composeAuthHandle", () => {
  it("follows the file's single quotes (sv's style) in the imports it adds", () => {
    const input = "import type { Handle } from '@sveltejs/kit';\n\nexport const handle: Handle = ({ event, resolve }) => resolve(event);\n";
    const text = composed(input);
    expect(text).toContain("import { sequence } from '@sveltejs/kit/hooks';");
    expect(text).toContain("import { handle as authHandle } from './auth';");
  });

  it("an arrow-function handle becomes appHandle, sequenced after the auth handle", () => {
    const input = `import type { Handle } from "@sveltejs/kit";

export const handle: Handle = async ({ event, resolve }) => {
  event.locals.started = Date.now();
  return resolve(event);
};

export const handleError = ({ error }) => console.error(error);
`;
    expect(composed(input)).toBe(`import type { Handle } from "@sveltejs/kit";
import { sequence } from "@sveltejs/kit/hooks";
import { handle as authHandle } from "./auth";

const appHandle: Handle = async ({ event, resolve }) => {
  event.locals.started = Date.now();
  return resolve(event);
};

export const handleError = ({ error }) => console.error(error);

export const handle = sequence(authHandle, appHandle);
`);
  });

  it("a function declaration handle is renamed and kept", () => {
    const input = `export async function handle({ event, resolve }) {
  return resolve(event);
}
`;
    // No imports to follow: sv's single quotes.
    expect(composed(input)).toBe(`import { sequence } from '@sveltejs/kit/hooks';
import { handle as authHandle } from './auth';

async function appHandle({ event, resolve }) {
  return resolve(event);
}

export const handle = sequence(authHandle, appHandle);
`);
  });

  it("an existing sequence gets the auth handle first, and the existing hooks import is reused", () => {
    const input = `import { sequence } from "@sveltejs/kit/hooks";
import { i18n } from "$lib/i18n";
import { logger } from "$lib/logger";

export const handle = sequence(i18n, logger);
`;
    expect(composed(input)).toBe(`import { sequence } from "@sveltejs/kit/hooks";
import { i18n } from "$lib/i18n";
import { logger } from "$lib/logger";
import { handle as authHandle } from "./auth";

export const handle = sequence(authHandle, i18n, logger);
`);
  });

  it("a hooks file without a handle re-exports ours and keeps the rest", () => {
    const input = `export const handleError = ({ error }) => {
  console.error(error);
};
`;
    expect(composed(input)).toBe(`export const handleError = ({ error }) => {
  console.error(error);
};

export { handle } from './auth';
`);
    // A file that writes its strings in double quotes gets double quotes.
    expect(composed('export const handleError = () => console.error("failed");\n')).toContain('export { handle } from "./auth";');
  });

  it("files that already run the auth handle come back byte for byte", () => {
    for (const done of [
      `export { handle } from "./auth";\n`,
      `import { sequence } from "@sveltejs/kit/hooks";\nimport { handle as auth } from "./auth";\nconst mine = async ({ event, resolve }) => resolve(event);\nexport const handle = sequence(auth, mine);\n`,
    ]) {
      expect(composeAuthHandle(done)).toEqual({ ok: true, text: done });
    }
  });

  it("refuses shapes it cannot edit safely, with the reason", () => {
    const separateExport = `const handle = async ({ event, resolve }) => resolve(event);\nexport { handle };\n`;
    expect(composeAuthHandle(separateExport)).toEqual({ ok: false, reason: expect.stringContaining("by hand") });
    const nameTaken = `const appHandle = 1;\nexport const handle = async ({ event, resolve }) => resolve(event);\n`;
    expect(composeAuthHandle(nameTaken)).toEqual({ ok: false, reason: expect.stringContaining("appHandle") });
  });

  it("refuses a file that does not parse, with where: nothing is spliced into an unclosed function (the parser's recovery)", () => {
    expect(composeAuthHandle("export function x( {\n")).toEqual({
      ok: false,
      reason: expect.stringMatching(/^it does not parse as TypeScript \(line 2, column 1: /),
      syntaxError: { language: "TypeScript", line: 2, column: 1, message: "'}' expected." },
    });
    // Even when the file already exports the auth handle: a re-run does not vouch for a file that broke since.
    expect(composeAuthHandle('export { handle } from "./auth";\nexport function x( {\n').ok).toBe(false);
  });
});

describe("composeAuthHandle in a JavaScript hooks file", () => {
  const javascript = (source: string, authModule = "./auth") => {
    const first = composeAuthHandle(source, authModule, { javascript: true });
    if (!first.ok) throw new Error(first.reason);
    expect(composeAuthHandle(first.text, authModule, { javascript: true })).toEqual({ ok: true, text: first.text });
    return first.text;
  };

  it("the renamed handle keeps SvelteKit's type through JSDoc (checkJs typed it by its exported name)", () => {
    const text = javascript("export async function handle({ event, resolve }) {\n\treturn resolve(event);\n}\n");
    expect(text).toContain("/** @type {import('@sveltejs/kit').Handle} */\nasync function appHandle({ event, resolve }) {");
    expect(text).toContain("export const handle = sequence(authHandle, appHandle);");
    const arrow = javascript("export const handle = async ({ event, resolve }) => resolve(event);\n", "../auth");
    expect(arrow).toContain("@type {import('@sveltejs/kit').Handle}");
    expect(arrow).toContain("from '../auth'");
  });

  it("a JSDoc type the app already wrote is kept, not doubled", () => {
    const text = javascript("/** @type {import('@sveltejs/kit').Handle} */\nexport const handle = ({ event, resolve }) => resolve(event);\n");
    expect(text.match(/@type/g)).toHaveLength(1);
  });

  it("a TypeScript file gets no JSDoc: its annotation goes with it", () => {
    const ts = composeAuthHandle("export const handle: Handle = ({ event, resolve }) => resolve(event);\n");
    expect(ts.ok && ts.text).not.toContain("@type");
  });
});
