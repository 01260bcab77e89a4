#!/usr/bin/env -S node --
// `-S node --`: Node stops reading its own options at `--`, so user flags such as
// `--env-file` reach the CLI instead of Node (nodejs/node#54232).
// Thin launcher: all behaviour lives in the built CLI (dist/, from src/). The
// path it was started by names the bin (auth, gatehouse, or cli for npx): the help says that name.
import { invokedAs, run } from "../dist/cli.js";

process.exitCode = await run(process.argv.slice(2), invokedAs(process.argv[1]));
