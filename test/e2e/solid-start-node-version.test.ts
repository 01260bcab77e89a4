/**
 * A SolidStart 2 app made by auth-init in an empty folder, on a Node.js older
 * than 22: `npm run build` (and `npm run dev`, the same config) stops at once
 * with a message that says which Node it needs and which it found, instead of
 * SolidStart's "globSync is not a function" from deep inside; package.json says
 * so too (`engines`). The app's own install, then its build, on this Node.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { authInitBin } from "../cli/support/cli.js";
import { run } from "./support/processes.js";

const major = Number(process.versions.node.split(".")[0]);
const work = mkdtempSync(join(tmpdir(), "gatehouse-solid-node-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(major >= 22)(`a SolidStart 2 app on Node.js ${process.versions.node}`, () => {
  it("npm run build says it needs Node.js 22 and names this one; package.json's engines says so", async () => {
    const npm = { npm_config_prefer_offline: "true", npm_config_engine_strict: "false", npm_config_audit: "false", npm_config_fund: "false" };
    await run(process.execPath, [authInitBin, "app", "--framework", "solid-start", "--yes"], { cwd: work, env: npm, timeoutMs: 600_000 });
    const app = join(work, "app");
    expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8")).engines).toEqual({ node: ">=22" });
    // The plugin is imported after the check, and auth-init still registers its middleware there.
    expect(readFileSync(join(app, "vite.config.ts"), "utf8")).toContain(`solidStart({ middleware: "./src/middleware.ts" })`);
    const failure = await run("npm", ["run", "build"], { cwd: app, env: { NODE_ENV: "production" } }).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(failure).toContain(`SolidStart 2 needs Node.js 22 or newer for \`vite dev\` and \`vite build\`; this is Node.js ${process.versions.node}.`);
    expect(failure).not.toContain("globSync is not a function");
  }, 600_000);
});
