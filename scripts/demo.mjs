#!/usr/bin/env node
// `npm run demo`: makes a SvelteKit app with `auth-init --yes` (email + password
// accounts on the embedded PGlite database) and runs its development server.
// Development, so sign-up works with no mail server: the confirmation link is
// printed here. Running it again reuses the app (auth-init finds nothing to
// change). PORT picks the port (default 3000); DEMO_DIR the folder (default .demo/app).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = resolve(root, process.env.DEMO_DIR ?? ".demo/app");
const port = process.env.PORT ?? "3000";

mkdirSync(dirname(dir), { recursive: true });
const init = spawnSync(process.execPath, [resolve(root, "bin/auth-init.js"), dir, "--yes"], { stdio: "inherit" });
if (init.status !== 0) process.exit(init.status ?? 1);

console.log(
  `\nDemo app: open http://localhost:${port}/signup and sign up. With no mail server set, the confirmation link is printed below (and kept in ${dir}/.gatehouse/mail/).\n` +
    "Ctrl-C stops it; npm run demo starts it again.\n",
);
// The app's own dev script (vite dev), on 127.0.0.1 only.
const server = spawn("npm", ["run", "dev", "--", "--host", "127.0.0.1", "--port", port, "--strictPort"], { cwd: dir, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
