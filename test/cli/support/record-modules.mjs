/**
 * Preload for `NODE_OPTIONS=--import <this file>`: appends every module the
 * process loads to the file named by GATEHOUSE_MODULE_LOG, one per line.
 * ES modules through a resolve hook (`url`), CommonJS through the require cache
 * at exit (`cjs:path`), because on Node 20 the hooks do not see `require()`.
 * Used to prove that `auth secret` does not load the heavy dependencies.
 */
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const log = process.env.GATEHOUSE_MODULE_LOG;
if (!log) throw new Error("record-modules.mjs: set GATEHOUSE_MODULE_LOG to the log file");

register("./record-modules-hooks.mjs", import.meta.url, { data: { log } });

const require = createRequire(import.meta.url);
process.on("exit", () => {
  appendFileSync(log, Object.keys(require.cache).map((path) => `cjs:${path}\n`).join(""));
});
