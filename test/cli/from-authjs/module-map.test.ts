/**
 * The table `auth-init --from authjs` moves imports by agrees with both sides:
 * every name it moves is exported by the gatehouse module it points at (read
 * from the runtime's source, types included), and every Auth.js module and
 * provider it knows exists in @auth/core 0.41.3 (a devDependency).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { MODULE_MAP, PROVIDER_EXPORTS, PROVIDER_MODULE_NAMES, PROVIDERS_MODULE } from "../../../src/generators/from-authjs/module-map.js";
import { root } from "../support/cli.js";

/** The runtime's source file behind each public module. */
const SOURCE: Record<string, string> = {
  "@gatehouse/runtime": "runtime/src/index.ts",
  "@gatehouse/runtime/jwt": "runtime/src/jwt.ts",
  "@gatehouse/runtime/providers": "runtime/src/providers/index.ts",
  "@gatehouse/runtime/sveltekit": "runtime/src/frameworks/sveltekit/index.ts",
  "@gatehouse/runtime/sveltekit/client": "runtime/src/frameworks/sveltekit/client.ts",
  "@gatehouse/runtime/solid-start": "runtime/src/frameworks/solid-start/index.ts",
  "@gatehouse/runtime/solid-start/client": "runtime/src/frameworks/solid-start/client.ts",
};

const project = new Project({ tsConfigFilePath: join(root, "runtime/tsconfig.json"), skipAddingFilesFromTsConfig: true });
const exportsOf = (module: string): string[] => {
  const file = project.addSourceFileAtPath(join(root, SOURCE[module]!));
  return [...file.getExportedDeclarations().keys()];
};

describe("the --from authjs module map", () => {
  it.each(Object.entries(MODULE_MAP))("%s: every name it moves is exported by its gatehouse module", (_, target) => {
    const exported = exportsOf(target.module);
    expect(target.names.filter((name) => !exported.includes(name))).toEqual([]);
  });

  it("every provider and provider type it moves is exported by @gatehouse/runtime/providers", () => {
    const exported = exportsOf(PROVIDERS_MODULE);
    expect(Object.values(PROVIDER_EXPORTS).filter((name) => !exported.includes(name))).toEqual([]);
    expect(PROVIDER_MODULE_NAMES.filter((name) => !exported.includes(name))).toEqual([]);
  });

  it("every Auth.js module and provider module it maps exists in @auth/core 0.41.3", () => {
    const core = join(root, "node_modules/@auth/core");
    // `@auth/core/jwt` is jwt.js; `@auth/core` and `@auth/core/providers` are index.js files.
    const exists = (specifier: string) => {
      const path = join(core, specifier.slice("@auth/core".length));
      return existsSync(`${path}.js`) || existsSync(join(path, "index.js"));
    };
    expect(Object.keys(MODULE_MAP).filter((specifier) => specifier.startsWith("@auth/core") && !exists(specifier))).toEqual([]);
    expect(Object.keys(PROVIDER_EXPORTS).filter((name) => !existsSync(join(core, "providers", `${name}.js`)))).toEqual([]);
  });
});
