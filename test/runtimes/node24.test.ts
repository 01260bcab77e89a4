/** The runtime matrix's column for Node 24: every scenario of scenarios/index.mjs, run there. */
import { describeRuntime } from "./support/matrix.js";

describeRuntime("node24");
