/**
 * The matrix in workerd: a Worker whose `POST /` with the context as its body
 * runs the scenarios and streams the report lines back as they come, or, when
 * the context names a scenario `id` and `step`, runs that one step (a request of
 * its own) and answers its result. run-in-miniflare.mjs bundles it (as wrangler
 * would) and sends the requests.
 *
 * With `context.requestPerCall`, every request a scenario's browser makes
 * reaches the handler as a request to this Worker of its own, through its
 * `SELF` binding: a deployed Worker serves each request in its own context, and
 * workerd refuses what one request's I/O leaves for another.
 */
import { Auth } from "@gatehouse/runtime";
import { sendRequestsThrough } from "./scenarios/browser.mjs";
import { runChecked, runScenarios, scenarios } from "./scenarios/index.mjs";
import { reportLine, runtimeEvent } from "./scenarios/report.mjs";

/** Names the scenario's config a request to `SELF` is for: configs hold functions, so they stay here, by number. */
const CONFIG_HEADER = "x-matrix-config";
const configs = [];
const configIds = new WeakMap();

export default {
  async fetch(request, env) {
    const configId = request.headers.get(CONFIG_HEADER);
    if (configId !== null) return Auth(request, configs[Number(configId)]);
    const context = await request.json();
    if (context.step !== undefined) {
      const scenario = scenarios.find(({ id }) => id === context.id);
      return Response.json(await runChecked(scenario.id, (checks) => scenario.steps[context.step](checks, context)));
    }
    if (context.requestPerCall) sendRequestsThrough((call, config) => env.SELF.fetch(forConfig(call, config)));
    return streamed(async (write) => {
      await write(runtimeEvent());
      await runScenarios(context, write);
      await write({ done: true });
    });
  },
};

/** `request`, marked with its config's number; redirects come back as they are, as to a browser. */
function forConfig(request, config) {
  if (!configIds.has(config)) configIds.set(config, configs.push(config) - 1);
  const headers = new Headers(request.headers);
  headers.set(CONFIG_HEADER, String(configIds.get(config)));
  return new Request(request, { headers, redirect: "manual" });
}

/** A response whose body is the report lines `run(write)` writes, sent as they come. */
function streamed(run) {
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  // The run goes on while the response streams; a failure outside a scenario ends the stream with it.
  run((event) => writer.write(encoder.encode(reportLine(event)))).then(
    () => writer.close(),
    (error) => writer.abort(error),
  );
  return new Response(readable, { headers: { "content-type": "text/plain" } });
}
