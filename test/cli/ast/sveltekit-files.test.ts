/**
 * Where a SvelteKit app keeps its source, read from its config without running
 * it: `kit.files` in svelte.config.js, or `files` in the options of the
 * `sveltekit(...)` Vite plugin (which then replace svelte.config.js).
 */
import { describe, expect, it } from "vitest";
import { readSvelteConfigFiles, readViteConfigFiles } from "../../../src/ast/sveltekit-files.js";

describe("readSvelteConfigFiles", () => {
  it("reads src, routes, lib and hooks.server from kit.files (./ and trailing / dropped)", () => {
    const config = `import adapter from '@sveltejs/adapter-node';
/** @type {import('@sveltejs/kit').Config} */
const config = { kit: { adapter: adapter(), files: { src: './app/', routes: 'app/pages', lib: \`app/library\`, hooks: { server: 'app/server/hooks' }, assets: 'public' } } };
export default config;
`;
    expect(readSvelteConfigFiles("svelte.config.js", config)).toEqual({ ok: true, configured: true, files: { src: "app", routes: "app/pages", lib: "app/library", hooksServer: "app/server/hooks" } });
  });

  it("no kit or no files: nothing set, SvelteKit's defaults apply", () => {
    expect(readSvelteConfigFiles("svelte.config.js", "export default { kit: { adapter: null } };")).toEqual({ ok: true, configured: true, files: {} });
    expect(readSvelteConfigFiles("svelte.config.js", "export default {};")).toEqual({ ok: true, configured: true, files: {} });
  });

  it("a location computed at run time, or files that are not an object literal, cannot be read: said, with the option", () => {
    const computed = readSvelteConfigFiles("svelte.config.js", "import path from 'node:path';\nexport default { kit: { files: { routes: path.join('src', 'pages') } } };");
    expect(computed).toMatchObject({ ok: false, reason: expect.stringMatching(/`files\.routes` in svelte\.config\.js is not a string literal/) });
    expect(readSvelteConfigFiles("svelte.config.js", "const files = {};\nexport default { kit: { files } };")).toMatchObject({ ok: false, reason: expect.stringMatching(/`files` in svelte\.config\.js is not an object literal/) });
  });

  it("a config that does not parse says where", () => {
    expect(readSvelteConfigFiles("svelte.config.js", "export default { kit: { files: { routes: 'x' }\n")).toMatchObject({ ok: false, syntaxError: { line: 2 } });
  });
});

describe("readViteConfigFiles", () => {
  it("sv 0.17's vite.config: files among sveltekit()'s options", () => {
    const config = `import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';
export default defineConfig({ plugins: [sveltekit({ adapter: adapter(), files: { routes: 'src/pages', hooks: { server: 'src/server/hooks' } } })] });
`;
    expect(readViteConfigFiles("vite.config.js", config)).toEqual({ ok: true, configured: true, files: { routes: "src/pages", hooksServer: "src/server/hooks" } });
  });

  it("sveltekit() without options is not configured: svelte.config.js decides", () => {
    expect(readViteConfigFiles("vite.config.ts", "export default defineConfig({ plugins: [sveltekit()] });")).toEqual({ ok: true, configured: false, files: {} });
    expect(readViteConfigFiles("vite.config.ts", "export default defineConfig({ plugins: [] });")).toEqual({ ok: true, configured: false, files: {} });
  });

  it("options that are not an object literal cannot be read", () => {
    expect(readViteConfigFiles("vite.config.ts", "const options = {};\nexport default defineConfig({ plugins: [sveltekit(options)] });")).toMatchObject({ ok: false, reason: expect.stringMatching(/not an object literal/) });
  });
});
