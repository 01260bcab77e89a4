/**
 * `registerMiddleware` and `registerServerPlugin`: input -> expected output fixtures for the shapes a
 * SolidStart config takes (SolidStart 2's vite.config.ts, 1.x's app.config.ts),
 * each also run a second time (no change); shapes it refuses, with the reason.
 */
import { describe, expect, it } from "vitest";
import { registerMiddleware, registerServerPlugin } from "../../../src/ast/solid-start-config.js";

const V2 = "./src/middleware.ts";
const V1 = "src/middleware.ts";

function registered(source: string, path = V2): string {
  const first = registerMiddleware(source, path);
  if (!first.ok) throw new Error(first.reason);
  const second = registerMiddleware(first.text, path);
  expect(second).toEqual({ ok: true, text: first.text });
  return first.text;
}

function refused(source: string, path = V2): string {
  const result = registerMiddleware(source, path);
  if (result.ok) throw new Error(`expected a refusal, got:\n${result.text}`);
  return result.reason;
}

describe("registerMiddleware in vite.config.ts (SolidStart 2)", () => {
  it("the plugin imported after a check, with `await import(...)` (the config of the apps auth-init creates)", () => {
    const input = `import { defineConfig } from "vite";

if (Number(process.versions.node.split(".")[0]) < 22) throw new Error("Node 22");
const { solidStart } = await import("@solidjs/start/config");
const { nitro } = await import("nitro/vite");

export default defineConfig({
  plugins: [solidStart(), nitro()],
});
`;
    expect(registered(input)).toBe(input.replace("solidStart()", `solidStart({ middleware: "./src/middleware.ts" })`));
    // The same destructuring from another module is not SolidStart's plugin.
    expect(refused(input.replace(`await import("@solidjs/start/config")`, `await import("./my-plugins")`))).toMatch(/no solidStart\(\.\.\.\) plugin/);
  });

  it("solidStart() without options gets them", () => {
    const input = `import { solidStart } from "@solidjs/start/config";
import { nitro } from "nitro/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [solidStart(), nitro()],
});
`;
    expect(registered(input)).toBe(`import { solidStart } from "@solidjs/start/config";
import { nitro } from "nitro/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [solidStart({ middleware: "./src/middleware.ts" }), nitro()],
});
`);
  });

  it("options on several lines: one more line in their indentation (tabs here), trailing comma or not as the file has it", () => {
    const input = `import { defineConfig } from "vite";
import { nitroV2Plugin as nitro } from "@solidjs/vite-plugin-nitro-2";
import { solidStart } from "@solidjs/start/config";

export default defineConfig({
\tplugins: [
\t\tsolidStart({
\t\t\tssr: true
\t\t}),
\t\tnitro()
\t]
});
`;
    expect(registered(input)).toBe(`import { defineConfig } from "vite";
import { nitroV2Plugin as nitro } from "@solidjs/vite-plugin-nitro-2";
import { solidStart } from "@solidjs/start/config";

export default defineConfig({
\tplugins: [
\t\tsolidStart({
\t\t\tssr: true,
\t\t\tmiddleware: "./src/middleware.ts"
\t\t}),
\t\tnitro()
\t]
});
`);
    const trailing = `import { solidStart } from "@solidjs/start/config";

export default {
  plugins: [
    solidStart({
      ssr: true,
    }),
  ],
};
`;
    expect(registered(trailing)).toContain(`    solidStart({
      ssr: true,
      middleware: "./src/middleware.ts",
    }),`);
  });

  it("options on one line stay on one line; the file's single quotes are followed", () => {
    const input = `import { solidStart as start } from '@solidjs/start/config';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [start({ ssr: true })] });
`;
    expect(registered(input)).toBe(`import { solidStart as start } from '@solidjs/start/config';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [start({ ssr: true, middleware: './src/middleware.ts' })] });
`);
  });

  it("empty options, and a config written as a function", () => {
    const input = `import { solidStart } from "@solidjs/start/config";
import { defineConfig } from "vite";

export default defineConfig(({ mode }) => ({
  plugins: [solidStart({})],
  define: { MODE: JSON.stringify(mode) },
}));
`;
    expect(registered(input)).toContain(`plugins: [solidStart({ middleware: "./src/middleware.ts" })],`);
  });

  it("the same file already registered, with or without ./, is left byte for byte", () => {
    for (const value of ["./src/middleware.ts", "src/middleware.ts"]) {
      const input = `import { solidStart } from "@solidjs/start/config";\nexport default { plugins: [solidStart({ middleware: "${value}" })] };\n`;
      expect(registerMiddleware(input, V2)).toEqual({ ok: true, text: input });
    }
  });
});

describe("registerMiddleware in app.config.ts (SolidStart 1.x)", () => {
  it("defineConfig({}) from @solidjs/start/config", () => {
    const input = `import { defineConfig } from "@solidjs/start/config";

export default defineConfig({});
`;
    expect(registered(input, V1)).toBe(`import { defineConfig } from "@solidjs/start/config";

export default defineConfig({ middleware: "src/middleware.ts" });
`);
  });

  it("defineConfig() without options, and options on several lines", () => {
    expect(registered(`import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig();\n`, V1)).toBe(
      `import { defineConfig } from "@solidjs/start/config";\n\nexport default defineConfig({ middleware: "src/middleware.ts" });\n`,
    );
    const input = `import { defineConfig } from "@solidjs/start/config";

export default defineConfig({
  server: { preset: "node-server" },
  vite: { plugins: [] },
});
`;
    expect(registered(input, V1)).toBe(`import { defineConfig } from "@solidjs/start/config";

export default defineConfig({
  server: { preset: "node-server" },
  vite: { plugins: [] },
  middleware: "src/middleware.ts",
});
`);
  });
});

describe("registerMiddleware refuses what it cannot edit safely, saying what to do by hand", () => {
  it("another middleware file: add authMiddleware to that one", () => {
    const input = `import { defineConfig } from "@solidjs/start/config";\nexport default defineConfig({ middleware: "./src/server/middleware.ts" });\n`;
    const reason = refused(input, V1);
    expect(reason).toContain("it registers another middleware file (./src/server/middleware.ts)");
    expect(reason).toContain("authMiddleware(authConfig");
  });

  it.each([
    ["options in a variable", `import { solidStart } from "@solidjs/start/config";\nconst options = { ssr: true };\nexport default { plugins: [solidStart(options)] };\n`, "not an object literal"],
    ["options spreading another object", `import { solidStart } from "@solidjs/start/config";\nexport default { plugins: [solidStart({ ...shared })] };\n`, "spread another object"],
    ["a computed middleware path", `import { solidStart } from "@solidjs/start/config";\nexport default { plugins: [solidStart({ middleware: resolve("src/mw.ts") })] };\n`, "not a plain path"],
    ["two solidStart calls", `import { solidStart } from "@solidjs/start/config";\nexport default [solidStart(), solidStart()];\n`, "more than once"],
    ["no SolidStart at all", `import { defineConfig } from "vite";\nexport default defineConfig({ plugins: [] });\n`, "no solidStart(...) plugin"],
    ["a file that does not parse", `import { solidStart } from "@solidjs/start/config";\nexport default { plugins: [solidStart( };\n`, "does not parse"],
  ])("%s", (_name, input, reason) => {
    expect(refused(input)).toContain(reason);
  });

  it("the reason names the entry to add by hand", () => {
    expect(refused(`import { defineConfig } from "vite";\nexport default defineConfig({});\n`)).toContain('`middleware: "./src/middleware.ts"`');
  });
});

describe("registerServerPlugin in app.config.ts (SolidStart 1.x)", () => {
  const PLUGIN = "./src/lib/server/close-database.ts";
  const pluginAdded = (source: string): string => {
    const first = registerServerPlugin(source, PLUGIN);
    if (!first.ok) throw new Error(first.reason);
    expect(registerServerPlugin(first.text, PLUGIN)).toEqual({ ok: true, text: first.text });
    return first.text;
  };
  const pluginRefused = (source: string): string => {
    const result = registerServerPlugin(source, PLUGIN);
    if (result.ok) throw new Error(`expected a refusal, got:\n${result.text}`);
    return result.reason;
  };
  const HEAD = `import { defineConfig } from "@solidjs/start/config";\n\n`;

  it("no options, no server option, server options without plugins: each gets what is missing", () => {
    expect(pluginAdded(`${HEAD}export default defineConfig();\n`)).toBe(`${HEAD}export default defineConfig({ server: { plugins: ["./src/lib/server/close-database.ts"] } });\n`);
    expect(pluginAdded(`${HEAD}export default defineConfig({ middleware: "src/middleware.ts" });\n`)).toBe(
      `${HEAD}export default defineConfig({ middleware: "src/middleware.ts", server: { plugins: ["./src/lib/server/close-database.ts"] } });\n`,
    );
    expect(pluginAdded(`${HEAD}export default defineConfig({\n  server: {\n    preset: "node-server"\n  }\n});\n`)).toBe(
      `${HEAD}export default defineConfig({\n  server: {\n    preset: "node-server",\n    plugins: ["./src/lib/server/close-database.ts"]\n  }\n});\n`,
    );
  });

  it("the app's own plugins are kept, ours appended in the list's layout; the file's single quotes are followed", () => {
    expect(pluginAdded(`${HEAD}export default defineConfig({ server: { plugins: ["./src/plugins/metrics.ts"] } });\n`)).toBe(
      `${HEAD}export default defineConfig({ server: { plugins: ["./src/plugins/metrics.ts", "./src/lib/server/close-database.ts"] } });\n`,
    );
    expect(pluginAdded(`${HEAD}export default defineConfig({\n  server: {\n    plugins: [\n      "./src/plugins/a.ts",\n      "./src/plugins/b.ts",\n    ],\n  },\n});\n`)).toBe(
      `${HEAD}export default defineConfig({\n  server: {\n    plugins: [\n      "./src/plugins/a.ts",\n      "./src/plugins/b.ts",\n      "./src/lib/server/close-database.ts",\n    ],\n  },\n});\n`,
    );
    expect(pluginAdded(`import { defineConfig } from '@solidjs/start/config';\nexport default defineConfig({ server: { plugins: [] } });\n`)).toBe(
      `import { defineConfig } from '@solidjs/start/config';\nexport default defineConfig({ server: { plugins: ['./src/lib/server/close-database.ts'] } });\n`,
    );
  });

  it("the plugin already listed, with or without ./, is left byte for byte", () => {
    for (const value of ["./src/lib/server/close-database.ts", "src/lib/server/close-database.ts"]) {
      const input = `${HEAD}export default defineConfig({ server: { plugins: ["./a.ts", "${value}"] } });\n`;
      expect(registerServerPlugin(input, PLUGIN)).toEqual({ ok: true, text: input });
    }
  });

  it.each([
    ["server options in a variable", `${HEAD}const server = {};\nexport default defineConfig({ server });\n`, "its server option is not an object literal"],
    ["plugins in a variable", `${HEAD}const plugins = [];\nexport default defineConfig({ server: { plugins } });\n`, "its server.plugins option is not an array literal"],
    ["options spreading another object", `${HEAD}export default defineConfig({ ...shared });\n`, "spread another object, which may set server already"],
    ["server options spreading another object", `${HEAD}export default defineConfig({ server: { ...shared } });\n`, "spreads another object, which may set plugins already"],
    ["options in a variable", `${HEAD}const options = {};\nexport default defineConfig(options);\n`, "not an object literal"],
    ["SolidStart 2's plugin (its Nitro plugins go in nitro.config.ts)", `import { solidStart } from "@solidjs/start/config";\nexport default { plugins: [solidStart()] };\n`, "it has no defineConfig(...)"],
    ["a file that does not parse", `${HEAD}export default defineConfig({ server: { };\n`, "does not parse"],
  ])("refuses %s, naming the entry to add by hand", (_name, input, reason) => {
    const said = pluginRefused(input);
    expect(said).toContain(reason);
    if (!reason.includes("parse")) expect(said).toContain('add "./src/lib/server/close-database.ts" to `server: { plugins: [...] }` in SolidStart\'s options by hand');
  });
});
