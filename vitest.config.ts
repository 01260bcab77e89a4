import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const runtimeSrc = (path: string) => fileURLToPath(new URL(`./runtime/src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the runtime's sources; the published build is checked by test/package.
    alias: [
      { find: /^@gatehouse\/runtime$/, replacement: runtimeSrc("index.ts") },
      { find: /^@gatehouse\/runtime\/jwt$/, replacement: runtimeSrc("jwt.ts") },
      { find: /^@gatehouse\/runtime\/password$/, replacement: runtimeSrc("password.ts") },
      { find: /^@gatehouse\/runtime\/providers$/, replacement: runtimeSrc("providers/index.ts") },
      { find: /^@gatehouse\/runtime\/solid-start$/, replacement: runtimeSrc("frameworks/solid-start/index.ts") },
      // `adapters/memory` -> adapters/memory.ts, `adapters/postgres` -> adapters/postgres/index.ts.
      { find: /^@gatehouse\/runtime\/adapters\/(.*)$/, replacement: runtimeSrc("adapters/$1") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/build-cli.global-setup.ts"],
    testTimeout: 30_000,
    // The e2e apps install from the npm registry, most of them the same packages: npm takes the
    // metadata it cached for the first app rather than asking the registry again for every later one
    // (what it lacks it still fetches). Installs are a third of the run.
    env: { npm_config_prefer_offline: "true" },
    // Teardown stops servers and deletes apps with their node_modules: on a loaded 2-CPU machine that
    // can take longer than vitest's 10 s default (a workspace's rmSync did, in CI).
    hookTimeout: 120_000,
    // Vitest's default is one file per CPU but one, so a 2-CPU machine (CI's) ran the files one by one.
    // Much of the run is waiting (app builds, browsers, servers, databases), so at least two go at once.
    // (Three on CI's 2 CPUs took as long in all and made browser steps slower than their timeouts.)
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
