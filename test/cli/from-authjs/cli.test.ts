/**
 * `auth-init --from authjs` as a user runs it, on copies of two Auth.js apps
 * (test/cli/fixtures/authjs-sveltekit and authjs-solid-start, shaped as the
 * Auth.js docs set them up): what it changes, what it keeps and says so, what it
 * refuses (with nothing changed), and a second run that has nothing to do.
 * `--no-install --runtime 0.1.0`: the end-to-end test installs, builds and
 * signs in (test/e2e/from-authjs.test.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { authInitBin, cli, hasScript, onTerminal, removeAll, snapshotDir, tempCopy } from "../support/cli.js";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

const MOVE = ["--from", "authjs", "--no-install", "--runtime", "0.1.0"];

/** The env of an Auth.js app: the move must leave it byte for byte (the fixture's .gitignore keeps .env files out of git). */
const ENV = `AUTH_SECRET="an-auth-js-secret-of-more-than-32-characters"\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nDATABASE_URL=postgres://localhost/app\n`;

function authjsApp(fixture: "authjs-sveltekit" | "authjs-solid-start"): string {
  const dir = tempCopy(fixture, "from-authjs", cleanup);
  writeFileSync(join(dir, ".env"), ENV);
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const packageJson = (dir: string) => JSON.parse(read(dir, "package.json")) as { dependencies: Record<string, string> };

describe("auth-init --from authjs in a SvelteKit app on @auth/sveltekit", () => {
  it("moves every import to gatehouse, keeps config, adapter, env and what gatehouse lacks, and says what it kept", () => {
    const dir = authjsApp("authjs-sveltekit");
    const before = snapshotDir(dir);
    const result = cli(authInitBin, [...MOVE, "--yes"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    expect(read(dir, "src/auth.ts")).toBe(
      before["src/auth.ts"]!
        .replace(`from "@auth/sveltekit"\n`, `from "@gatehouse/runtime/sveltekit"\n`)
        .replace(`import GitHub from "@auth/sveltekit/providers/github"`, `import { GitHub, Credentials } from "@gatehouse/runtime/providers"`)
        .replace(`import Credentials from "@auth/sveltekit/providers/credentials"\n`, "")
        .replace(`"@auth/sveltekit/providers/notion"`, `"@auth/core/providers/notion"`),
    );
    expect(read(dir, "src/app.d.ts")).toBe(before["src/app.d.ts"]!.replaceAll(`"@auth/sveltekit"`, `"@gatehouse/runtime/sveltekit"`));
    expect(read(dir, "src/routes/+page.svelte")).toBe(
      before["src/routes/+page.svelte"]!.replace(`from "@auth/sveltekit/client"`, `from "@gatehouse/runtime/sveltekit/client"`),
    );
    // What does not import Auth.js is not touched; env, adapter and every other file stay byte for byte.
    const after = snapshotDir(dir);
    const changed = Object.keys(after).filter((path) => after[path] !== before[path]).sort();
    expect(changed).toEqual(["package.json", "src/app.d.ts", "src/auth.ts", "src/routes/+page.svelte"]);

    // @auth/sveltekit stays for the SignIn component it kept; @auth/core is added for Notion.
    expect(packageJson(dir).dependencies).toEqual({
      "@auth/core": "^0.41.3",
      "@auth/pg-adapter": "1.11.3",
      "@auth/sveltekit": "1.11.3",
      "@gatehouse/runtime": "0.1.0",
      pg: "^8.16.3",
    });
    expect(result.stdout).toContain("updated src/auth.ts");
    expect(result.stdout).toMatch(/kept src\/auth\.ts:3: @auth\/sveltekit\/providers\/notion stays: gatehouse has no notion provider/);
    expect(result.stdout).toMatch(/kept src\/routes\/\+page\.svelte:3: @auth\/sveltekit\/components stays: gatehouse's SignIn and SignOut components/);
    expect(result.stdout).toContain("Install: `npm install`");
    // No AUTH_URL, ORIGIN or AUTH_TRUST_HOST in .env: where Auth.js trusted the host with NODE_ENV unset, gatehouse does not.
    expect(result.stdout).toContain("set AUTH_URL to its public URL");

    // A second run has nothing left to do.
    const again = cli(authInitBin, [...MOVE, "--yes"], dir);
    expect([again.code, again.stdout.trim()]).toEqual([0, "Nothing to change: the app already runs on gatehouse."]);
  });

  it("drops @auth/sveltekit and @auth/core once nothing imports them", () => {
    const dir = authjsApp("authjs-sveltekit");
    const page = read(dir, "src/routes/+page.svelte").replace(`  import { SignIn } from "@auth/sveltekit/components"\n`, "").replace(`  <SignIn provider="notion" />\n`, "");
    writeFileSync(join(dir, "src/routes/+page.svelte"), page);
    writeFileSync(join(dir, "src/auth.ts"), read(dir, "src/auth.ts").replace(`import Notion from "@auth/sveltekit/providers/notion"\n`, "").replace("    Notion,\n", ""));
    const pkg = packageJson(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, dependencies: { ...pkg.dependencies, "@auth/core": "0.41.3" } }, null, "\t") + "\n");

    writeFileSync(join(dir, ".env"), `${ENV}ORIGIN=https://app.example.com\n`);

    const result = cli(authInitBin, [...MOVE, "--yes"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("kept");
    expect(result.stdout).not.toContain("set AUTH_URL");
    expect(packageJson(dir).dependencies).toEqual({ "@auth/pg-adapter": "1.11.3", "@gatehouse/runtime": "0.1.0", pg: "^8.16.3" });
    expect(result.stdout).toContain("(it removes @auth/sveltekit and @auth/core)");
  });

  it("--dry-run shows every diff and writes nothing", () => {
    const dir = authjsApp("authjs-sveltekit");
    const before = snapshotDir(dir);
    const result = cli(authInitBin, [...MOVE, "--dry-run"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("edit src/auth.ts");
    expect(result.stdout).toContain(`-import GitHub from "@auth/sveltekit/providers/github"`);
    expect(result.stdout).toContain(`+import { GitHub, Credentials } from "@gatehouse/runtime/providers"`);
    expect(result.stdout).toContain("7 Auth.js imports move to gatehouse.");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("refuses a source file that does not parse, saying where, and changes nothing", () => {
    const dir = authjsApp("authjs-sveltekit");
    writeFileSync(join(dir, "src/hooks.server.ts"), `export { handle } from "./auth"\nimport { SvelteKitAuth } from "@auth/sveltekit"\nexport function broken( {\n`);
    const before = snapshotDir(dir);
    const result = cli(authInitBin, [...MOVE, "--yes"], dir);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("error: src/hooks.server.ts:4:1: does not parse as TypeScript ('}' expected): fix it, then run the command again; nothing was changed");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("without a terminal and without --yes it asks for --yes and changes nothing", () => {
    const dir = authjsApp("authjs-sveltekit");
    const before = snapshotDir(dir);
    const result = cli(authInitBin, MOVE, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pass --yes (or --dry-run to see the changes)");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it.skipIf(!hasScript)("on a terminal it shows the diff first and writes nothing when the answer is no", async () => {
    const dir = authjsApp("authjs-sveltekit");
    const before = snapshotDir(dir);
    const result = await onTerminal(authInitBin, MOVE, dir, [{ when: "Move the app to gatehouse", keys: "n\r" }]);
    expect(result.output).toContain("+import { GitHub, Credentials } from");
    expect(result.output.indexOf("+import { GitHub, Credentials } from")).toBeLessThan(result.output.indexOf("Move the app to gatehouse"));
    expect(result.output).toContain("error: the app was not moved: nothing was changed");
    expect(result.code).toBe(1);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("refuses the flags of a new setup, and apps that are not Auth.js apps", () => {
    const dir = authjsApp("authjs-sveltekit");
    const before = snapshotDir(dir);
    const withFlags = cli(authInitBin, [...MOVE, "--yes", "--adapter", "pglite", "--providers", "github"], dir);
    expect([withFlags.code, withFlags.stderr.trim()]).toEqual([
      2,
      "error: --from authjs keeps the app's providers, adapter and sessions as they are: drop --providers, --adapter",
    ]);
    expect(snapshotDir(dir)).toEqual(before);

    const plain = tempCopy("sveltekit-minimal", "from-authjs-plain", cleanup);
    const notAuthjs = cli(authInitBin, [...MOVE, "--yes"], plain);
    expect(notAuthjs.code).toBe(2);
    expect(notAuthjs.stderr).toContain("package.json lists neither @auth/sveltekit nor @auth/solid-start");

    const unknown = cli(authInitBin, ["--from", "nextauth", "--yes"], dir);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain(`Allowed choices are authjs`);
  });
});

describe("auth-init --from authjs in a SolidStart app on @auth/solid-start", () => {
  it("moves the handler route, the config, getSession and the client; drops @auth/solid-start and @auth/core", () => {
    const dir = authjsApp("authjs-solid-start");
    const before = snapshotDir(dir);
    const result = cli(authInitBin, [...MOVE, "--yes"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(read(dir, "src/routes/api/auth/[...solidauth].ts")).toBe(
      before["src/routes/api/auth/[...solidauth].ts"]!.replace(`"@auth/solid-start"`, `"@gatehouse/runtime/solid-start"`),
    );
    expect(read(dir, "src/server/auth.ts")).toBe(
      before["src/server/auth.ts"]!
        .replace(`import GitHub from "@auth/solid-start/providers/github";`, `import { GitHub } from "@gatehouse/runtime/providers";`)
        .replace(`from "@auth/solid-start";`, `from "@gatehouse/runtime/solid-start";`),
    );
    expect(read(dir, "src/routes/about.tsx")).toBe(
      before["src/routes/about.tsx"]!
        .replace(`from "@auth/solid-start";`, `from "@gatehouse/runtime/solid-start";`)
        .replace(`from "@auth/solid-start/client";`, `from "@gatehouse/runtime/solid-start/client";`),
    );
    expect(packageJson(dir).dependencies).toEqual({
      "@gatehouse/runtime": "0.1.0",
      "@solidjs/router": "0.15.4",
      "@solidjs/start": "1.3.2",
      "solid-js": "1.9.19",
      vinxi: "0.5.11",
    });
    expect(result.stdout).not.toContain("kept");
  });
});
