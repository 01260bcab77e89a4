/**
 * `npm run typecheck` (tsc --noEmit on the CLI and the tests, then on the
 * runtime) as one of the test files: it runs beside the others, which wait on
 * app installs and builds much of the time, rather than before all of them.
 */
import { execa } from "execa";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

it("the CLI, the tests and the runtime type-check (npm run typecheck)", { timeout: 600_000 }, async () => {
  const result = await execa("npm", ["run", "typecheck"], { cwd: ROOT, reject: false, all: true });
  expect(result.exitCode, result.all).toBe(0);
});
