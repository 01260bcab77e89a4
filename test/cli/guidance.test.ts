/**
 * What a user reads where they could get lost. Here: `npm run demo` (scripts/demo.mjs)
 * prints one address to open, the one that works, and not auth-init's "start the
 * app and open http://localhost:5173/..." nor Vite's own 127.0.0.1 banner.
 *
 * The demo runs for real (auth-init packs this checkout, writes the app, then the
 * app's Vite dev server answers), in a copy of sv's minimal app whose
 * node_modules is this checkout's (what `npm install` would bring, in no time):
 * `npm` on PATH is the real one except `npm install`, which must not touch the
 * checkout's node_modules through that link. The checkout has no
 * @sveltejs/adapter-node, which `vite dev` does not need: the copy's vite.config.ts leaves it out.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, removeAll, root, tempCopy } from "./support/cli.js";

const dirs: string[] = [];
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.splice(0)) await stop();
  removeAll(dirs);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const realNpm = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim();

describe.skipIf(process.platform === "win32" || !realNpm)("npm run demo", () => {
  it("prints one address to open, http://localhost:PORT/signup, and the app answers there", async () => {
    const app = tempCopy("sveltekit-minimal", "demo", dirs);
    writeFileSync(join(app, "vite.config.ts"), "import { sveltekit } from '@sveltejs/kit/vite';\nimport { defineConfig } from 'vite';\n\nexport default defineConfig({ plugins: [sveltekit()] });\n");
    symlinkSync(join(root, "node_modules"), join(app, "node_modules"), "dir");
    const bin = tempCopy(null, "demo-bin", dirs);
    writeFileSync(join(bin, "npm"), `#!/bin/sh\n[ "$1" = install ] && exit 0\nexec '${realNpm}' "$@"\n`);
    chmodSync(join(bin, "npm"), 0o755);

    const port = await freePort();
    const env = childEnv({ PORT: String(port), DEMO_DIR: app, AUTH_EMAIL_SERVER: undefined, AUTH_EMAIL_FROM: undefined, DATABASE_URL: undefined, NO_COLOR: "1" });
    env.PATH = `${bin}:${env.PATH}`;
    const demo = spawn(process.execPath, [join(root, "scripts/demo.mjs")], { cwd: root, env, detached: true });
    let output = "";
    demo.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    demo.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const exited = new Promise<void>((resolve) => demo.on("close", () => resolve()));
    stops.push(async () => {
      try {
        process.kill(-demo.pid!, "SIGTERM");
      } catch {
        return;
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      try {
        process.kill(-demo.pid!, "SIGKILL");
      } catch {
        // Gone already.
      }
    });

    let status = 0;
    const deadline = Date.now() + 150_000;
    while (status !== 200 && Date.now() < deadline && demo.exitCode === null) {
      status = await fetch(`http://127.0.0.1:${port}/signup`).then((response) => response.status, () => 0);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status, output).toBe(200);
    // Whatever Vite would print once it is up has been printed by now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(output).toContain("created src/auth.ts");
    expect(output.match(/https?:\/\/[^\s)]+/g), output).toEqual([`http://localhost:${port}/signup`]);
  }, 200_000);
});
