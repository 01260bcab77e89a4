/** Types of build-node.mjs, for the tests' side. */

/** The npm spec of the Node that builds SolidStart 2 apps. */
export declare const BUILD_NODE: string;

/** The `bin` directory of a Node 24 from npm, installed once into the OS temp directory and reused. */
export declare function buildNodeBin(): Promise<string>;
