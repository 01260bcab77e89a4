/**
 * The matrix in a runtime with a command line (Node, Bun, Deno): `<runtime>
 * cli-entry.mjs '<context JSON>'` runs the scenarios and prints the report lines.
 * Started from this folder's parent tree, so `@gatehouse/runtime` resolves to the
 * built package through node_modules and its exports map, as in an app.
 */
import { runScenarios } from "./scenarios/index.mjs";
import { reportLine, runtimeEvent } from "./scenarios/report.mjs";

const args = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const context = JSON.parse(args[0]);
const write = (event) => globalThis.process.stdout.write(reportLine(event));

write(runtimeEvent());
await runScenarios(context, write);
write({ done: true });
// A pool or socket a failed scenario left open must not keep the process up.
globalThis.process.exit(0);
