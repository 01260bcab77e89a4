#!/usr/bin/env node
// `npm run pack [-- <dir>]`: the two packages as npm would publish them,
// @gatehouse/cli and @gatehouse/runtime, packed from this checkout's build into
// packed/ (or <dir>): the same packing auth-init does into an app's vendor/.
// docs/cli.md: "Installing before gatehouse is on npm".
import { resolve } from "node:path";
import { cliVersion, gatehouseSources, packInto } from "../dist/engine/runtime-link.js";

const destination = resolve(process.argv[2] ?? resolve(import.meta.dirname, "..", "packed"));
for (const tarball of await packInto(destination, gatehouseSources(undefined, cliVersion()))) console.log(tarball);
