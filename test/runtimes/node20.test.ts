/** The runtime matrix's column for Node 20 (this machine's node when it is the pinned version): every scenario of scenarios/index.mjs, run there. */
import { describeRuntime } from "./support/matrix.js";

describeRuntime("node20");
