#!/usr/bin/env -S node --
// `-S node --`: Node stops reading its own options at `--`, so user flags such as
// `--env-file` reach the CLI instead of Node (nodejs/node#54232).
// `auth-init ...` is `auth init ...`, and its help says `auth-init`.
import { run } from "../dist/cli.js";

process.exitCode = await run(["init", ...process.argv.slice(2)], { name: "auth-init", command: "init" });
