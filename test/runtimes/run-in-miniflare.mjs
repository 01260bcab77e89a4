/**
 * The matrix in workerd, driven by Node: `node run-in-miniflare.mjs <miniflare
 * install dir> '<context JSON>'` bundles worker-entry.mjs with esbuild (as
 * wrangler does for a deploy), starts the bundles in Miniflare's workerd, sends
 * each its run request and prints the report lines it streams back.
 *
 * Two Workers: "core" runs every scenario but the database's with no
 * compatibility flag, so nothing Node-like is there (the web-standards claim
 * itself), each browser request a Worker request of its own; "pg" runs those
 * that need the database with `nodejs_compat`, which `pg` needs (and which an
 * app using it turns on): its sockets are workerd's `cloudflare:sockets`. Then
 * the scenarios about workerd alone, one request per step.
 */
import { readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { scenarios } from "./scenarios/index.mjs";
import { REPORT_MARK, reportLine } from "./scenarios/report.mjs";

const [miniflareDir, contextJson] = process.argv.slice(2);
const context = JSON.parse(contextJson);
const require = createRequire(`${miniflareDir}/package.json`);
const { Miniflare } = await import(pathToFileURL(require.resolve("miniflare")).href);
/** Miniflare pins its workerd exactly; the Worker itself only knows it is "Cloudflare-Workers". */
const workerdVersion = JSON.parse(readFileSync(createRequire(require.resolve("miniflare")).resolve("workerd/package.json"), "utf8")).version;

/** The workerd release's own date: every compatibility behaviour it knows is on. */
const COMPATIBILITY_DATE = "2026-07-30";
/** The scenarios that need the database reach it through pg: they run on the "pg" Worker. */
const onPgWorker = ({ needs }) => needs === "databaseUrl";
const PG_SCENARIOS = scenarios.filter((scenario) => onPgWorker(scenario) && !scenario.steps).map(({ id }) => id);

/**
 * `pg` is CommonJS and `require`s Node's modules by their bare names; in an ES
 * module bundle those calls would throw. As wrangler does, each becomes a small
 * module that imports `node:<name>`, which workerd provides with `nodejs_compat`.
 */
const nodeBuiltinsForWorkerd = {
  name: "node-builtins-for-workerd",
  setup(build) {
    const names = builtinModules.filter((name) => !name.startsWith("_")).map((name) => name.replace(/[/]/g, "\\/"));
    build.onResolve({ filter: new RegExp(`^(node:)?(${names.join("|")})$`) }, ({ path, kind }) => {
      const name = path.replace(/^node:/, "");
      return kind === "require-call" ? { path: name, namespace: "node-builtin" } : { path: `node:${name}`, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: "node-builtin" }, ({ path }) => ({ contents: `import m from "node:${path}"; module.exports = m;`, loader: "js" }));
  },
};

const workers = [
  // Each of the browser's requests a request of its own (worker-entry.mjs), as a deployed Worker serves them.
  { name: "core", compatibilityFlags: [], script: await bundle({ external: ["pg"] }), run: { ...context, except: PG_SCENARIOS, requestPerCall: true } },
  // One request: its pool's connections serve only the request that opened them (pool-across-requests.mjs).
  { name: "pg", compatibilityFlags: ["nodejs_compat"], script: await bundle({ plugins: [nodeBuiltinsForWorkerd] }), run: { ...context, only: PG_SCENARIOS } },
];

const miniflare = new Miniflare({
  workers: workers.map(({ name, script, compatibilityFlags }) => ({
    name,
    // The bundle as its one module, given whole: Miniflare would otherwise walk it for imports and refuse
    // the runtime's `import(name)` of optional packages (nodemailer), whose specifier is not a literal.
    modules: [{ type: "ESModule", path: `${name}.mjs`, contents: script }],
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags,
    serviceBindings: { SELF: name },
  })),
});
try {
  for (const [index, worker] of workers.entries()) {
    for await (const event of reportedBy(worker)) {
      // One "runtime" line and one "done" line for the whole run, as from any other runtime.
      if (event.done) continue;
      if (event.runtime !== undefined) {
        if (index === 0) process.stdout.write(reportLine({ ...event, runtime: event.runtime === "workerd" ? `workerd ${workerdVersion}` : event.runtime }));
        continue;
      }
      process.stdout.write(reportLine(event));
    }
  }
  for (const scenario of scenarios.filter(({ only }) => only === "workerd")) {
    process.stdout.write(reportLine(await requestByRequest(scenario, onPgWorker(scenario) ? "pg" : "core")));
  }
  process.stdout.write(reportLine({ done: true }));
} finally {
  await miniflare.dispose();
}

/** Sends each step of `scenario` to Worker `name` as a request of its own; one result for them all. */
async function requestByRequest({ id, needs, steps }, name) {
  if (needs && !context[needs]) return { id, skipped: `no ${needs} given` };
  const worker = await miniflare.getWorker(name);
  let checks = 0;
  for (const step of steps.keys()) {
    const response = await worker.fetch("http://localhost/", { method: "POST", body: JSON.stringify({ ...context, id, step }) });
    const result = await response.json();
    if (!result.ok) return { id, ok: false, error: `request ${step + 1} of ${steps.length}: ${result.error}` };
    checks += result.checks;
  }
  return { id, ok: true, checks };
}

/** The report events a Worker streams back for its run request, as they come. */
async function* reportedBy({ name, run }) {
  const response = await (await miniflare.getWorker(name)).fetch("http://localhost/", { method: "POST", body: JSON.stringify(run) });
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of response.body) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop();
    for (const line of lines) if (line.startsWith(REPORT_MARK)) yield JSON.parse(line.slice(REPORT_MARK.length));
  }
}

async function bundle({ external = [], plugins = [] }) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./worker-entry.mjs", import.meta.url))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    // As wrangler resolves packages for a Worker.
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["cloudflare:*", ...external],
    plugins,
    logLevel: "error",
  });
  return result.outputFiles[0].text;
}
