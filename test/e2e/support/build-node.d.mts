/** Types of build-node.mjs, for the tests' side. */

/** The `bin` directory of a Node 24 from npm, installed once into the OS temp directory and reused. */
export declare function buildNodeBin(): Promise<string>;
