/** The runtime matrix's column for Deno: every scenario of scenarios/index.mjs, run there. */
import { describeRuntime } from "./support/matrix.js";

describeRuntime("deno");
