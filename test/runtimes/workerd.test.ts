/** The runtime matrix's column for workerd, Cloudflare's runtime, through Miniflare: every scenario of scenarios/index.mjs, run there. */
import { describeRuntime } from "./support/matrix.js";

describeRuntime("workerd");
