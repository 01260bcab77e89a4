#!/usr/bin/env node
// `auth-init ...` is `auth init ...`.
import { run } from "../dist/cli.js";

process.exitCode = await run(["init", ...process.argv.slice(2)]);
