#!/usr/bin/env node
// Thin launcher: all behaviour lives in the built CLI (dist/, from src/).
import { run } from "../dist/cli.js";

process.exitCode = await run(process.argv.slice(2));
