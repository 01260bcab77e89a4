/** The runtime matrix's column for Bun: every scenario of scenarios/index.mjs, run there. */
import { describeRuntime } from "./support/matrix.js";

describeRuntime("bun");
