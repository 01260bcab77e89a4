/**
 * How a runtime's run reports to the test: one line per event, marked so that
 * whatever else the runtime prints (warnings, logs) is not taken for a result.
 * The first line says which runtime ran; then one line per scenario, then one
 * that says the run is done.
 */
export const REPORT_MARK = "gatehouse-matrix ";

export function reportLine(event) {
  return `${REPORT_MARK}${JSON.stringify(event)}\n`;
}

/**
 * The first line: the runtime and version this code runs on, as it says itself,
 * and whether it has Node's built-in modules (`process.getBuiltinModule`), which
 * the handler's fast paths use for node:crypto where they can (else WebCrypto
 * and @noble/hashes).
 */
export function runtimeEvent() {
  return { runtime: runtimeName(), nodeBuiltins: typeof globalThis.process?.getBuiltinModule === "function" };
}

function runtimeName() {
  if (typeof globalThis.Bun !== "undefined") return `bun ${globalThis.Bun.version}`;
  if (typeof globalThis.Deno !== "undefined") return `deno ${globalThis.Deno.version.deno}`;
  if (globalThis.navigator?.userAgent === "Cloudflare-Workers") return "workerd";
  return `node ${globalThis.process.versions.node}`;
}
