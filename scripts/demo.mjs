#!/usr/bin/env node
// `npm run demo`: makes a SvelteKit app with `auth-init --yes` (email + password
// accounts on the embedded PGlite database) and runs its development server.
// Development, so sign-up works with no mail server: the confirmation link is
// printed here. Running it again reuses the app (auth-init finds nothing to
// change). PORT picks the port (default 3000); DEMO_DIR the folder (default .demo/app).
//
// One address to open is printed, the one that works: auth-init's next steps
// (start the app yourself, on Vite's usual port) and Vite's own banner (its
// 127.0.0.1 address) are left out, since the demo starts the app on PORT.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = resolve(root, process.env.DEMO_DIR ?? ".demo/app");
const port = process.env.PORT ?? "3000";

mkdirSync(dirname(dir), { recursive: true });
const status = await runInit();
if (status !== 0) process.exit(status);

console.log(
  `\nDemo app: open http://localhost:${port}/signup and sign up. With no mail server set, the confirmation link is printed below (and kept in ${dir}/.gatehouse/mail/).\n` +
    "Ctrl-C stops it; npm run demo starts it again.\n",
);
// The app's own dev script (vite dev), on 127.0.0.1 only; `--logLevel warn` drops Vite's banner and its
// 127.0.0.1 address (warnings and errors still show, and so does what the app prints, the mail included).
const server = spawn("npm", ["run", "--silent", "dev", "--", "--host", "127.0.0.1", "--port", port, "--strictPort", "--logLevel", "warn"], { cwd: dir, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(signal ? 0 : (code ?? 0)));

/** auth-init with its output shown as it comes, up to its next steps; resolves to its exit code. */
function runInit() {
  const color = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {};
  const init = spawn(process.execPath, [resolve(root, "bin/auth-init.js"), dir, "--yes"], { stdio: ["inherit", "pipe", "inherit"], env: { ...process.env, ...color } });
  let pending = "";
  let blank = "";
  let inNextSteps = false;
  init.stdout.setEncoding("utf8").on("data", (chunk) => {
    if (inNextSteps) return;
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      // eslint-disable-next-line no-control-regex -- the heading may be bold
      if (/^(?:\u001b\[\d+m)?Next steps:/.test(line)) {
        inNextSteps = true;
        return;
      }
      // Blank lines wait for the next line: the one before the next steps is not shown.
      if (line.trim() === "") blank += "\n";
      else {
        process.stdout.write(`${blank}${line}\n`);
        blank = "";
      }
    }
  });
  return new Promise((resolvePromise) => {
    init.on("close", (code) => {
      if (!inNextSteps && pending) process.stdout.write(pending);
      resolvePromise(code ?? 1);
    });
  });
}
