/**
 * `auth add-provider`: the plan in memory (with a catalog entry shaped like the
 * OAuth providers the catalog will list), and the real bin's refusals. The
 * catalog lists only credentials until the OAuth providers land, so the bin's
 * editing path is exercised here through the plan, not yet through the bin.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { ProviderCatalogEntry } from "../../runtime/src/providers/catalog.js";
import { planAddProviders } from "../../src/generators/add-provider.js";
import { authBin, authInitBin, cli, removeAll, snapshotDir, tempCopy } from "./support/cli.js";

const GITHUB: ProviderCatalogEntry = {
  id: "github",
  name: "GitHub",
  importName: "GitHub",
  type: "oauth",
  env: ["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"],
  setupUrl: "https://github.com/settings/developers",
};

const CONFIG = `import { SvelteKitAuth } from '@gatehouse/runtime/sveltekit';
import { Credentials } from '@gatehouse/runtime/providers';

export const { handle, signIn, signOut } = SvelteKitAuth({
\tproviders: [
\t\tCredentials({ authorize: async () => null }),
\t]
});
`;

function plan(files: Record<string, string>) {
  return planAddProviders({ entries: [GITHUB], configPath: "src/auth.ts", read: (path) => files[path] ?? null, authBaseUrl: "http://localhost:5173/auth" });
}

describe("planAddProviders", () => {
  it("edits the config, adds empty keys to .env and .env.example, keeps the secret, and names the callback URL", () => {
    const result = plan({ "src/auth.ts": CONFIG, ".env": 'AUTH_SECRET="s"\n', ".env.example": "AUTH_SECRET=\n" });
    if (!result.ok) throw new Error(result.reason);
    const after = Object.fromEntries(result.plan.changes.map((c) => [c.path, c.after]));
    expect(after["src/auth.ts"]).toContain("import { Credentials, GitHub } from '@gatehouse/runtime/providers';");
    expect(after["src/auth.ts"]).toContain("\t\tGitHub,\n\t]");
    expect(after[".env"]).toBe('AUTH_SECRET="s"\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\n');
    expect(after[".env.example"]).toBe("AUTH_SECRET=\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\n");
    expect(result.callbackUrls).toEqual(["http://localhost:5173/auth/callback/github"]);
    expect(result.plan.nextSteps).toEqual([
      "Register the callback URL http://localhost:5173/auth/callback/github for GitHub at https://github.com/settings/developers, then set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET in .env.",
    ]);
    expect(result.added).toEqual([GITHUB]);
  });

  it("twice changes nothing; keys already filled are not asked for again", () => {
    const first = plan({ "src/auth.ts": CONFIG, ".env": "" });
    if (!first.ok) throw new Error(first.reason);
    const config = first.plan.changes.find((c) => c.path === "src/auth.ts")!.after;
    const second = plan({ "src/auth.ts": config, ".env": "AUTH_GITHUB_ID=abc\nAUTH_GITHUB_SECRET=def\n", ".env.example": "AUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\n" });
    if (!second.ok) throw new Error(second.reason);
    expect(second.plan.changes).toEqual([]);
    expect(second.present).toEqual([GITHUB]);
    expect(second.plan.nextSteps[0]).toBe("Register the callback URL http://localhost:5173/auth/callback/github for GitHub at https://github.com/settings/developers.");
  });

  it("a config it cannot edit: refused with the reason and what to add by hand", () => {
    const result = plan({ "src/auth.ts": "export const config = { providers: load() };\n" });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("computed"), byHand: expect.stringContaining('import { GitHub } from "@gatehouse/runtime/providers";') });
    expect(!result.ok && result.byHand).toContain("AUTH_GITHUB_ID, AUTH_GITHUB_SECRET");
  });
});

describe("auth add-provider (built binary)", () => {
  const dirs: string[] = [];
  afterAll(() => removeAll(dirs));
  const app = () => {
    const dir = tempCopy("sveltekit-minimal", "add-provider", dirs);
    expect(cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, {}, 60_000).code).toBe(0);
    return dir;
  };
  const auth = (args: string[], cwd: string) => cli(authBin, args, cwd, {}, 60_000);

  it("an unknown id: exit 2 with the known ones; nothing written", () => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = auth(["add-provider", "myspace"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown provider "myspace": known ones are credentials');
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("credentials: exit 2, pointing at auth-init (it needs an authorize function)", () => {
    const dir = app();
    const run = auth(["add-provider", "credentials"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("needs an `authorize` function");
  });

  it("--help documents the command with examples", () => {
    const help = auth(["add-provider", "--help"], "/");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("add-provider [options] <ids...>");
    expect(help.stdout).toContain("Examples:");
    expect(help.stdout).toContain("--dry-run");
  });
});
