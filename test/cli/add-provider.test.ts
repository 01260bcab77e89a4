/**
 * `auth add-provider`: the plan in memory, and the real bin on apps auth-init
 * set up (copies of the fixtures): the config edited through the AST, env
 * placeholders, the callback URLs and the catalog's notes printed, re-runs that
 * change nothing, and refusals.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findProvider, providerCatalog, type ProviderCatalogEntry } from "../../runtime/src/providers/catalog.js";
import { planAddProviders } from "../../src/generators/add-provider.js";
import { authBin, authInitBin, cli, removeAll, snapshotDir, tempCopy } from "./support/cli.js";

const GITHUB: ProviderCatalogEntry = findProvider("github")!;

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

  it("keys left empty by a first run are still asked for (the key on the next line is not read as a value)", () => {
    const first = plan({ "src/auth.ts": CONFIG, ".env": "" });
    if (!first.ok) throw new Error(first.reason);
    const config = first.plan.changes.find((c) => c.path === "src/auth.ts")!.after;
    const second = plan({ "src/auth.ts": config, ".env": "AUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\n" });
    if (!second.ok) throw new Error(second.reason);
    expect(second.plan.env).toEqual([{ key: "AUTH_GITHUB_ID", filled: false }, { key: "AUTH_GITHUB_SECRET", filled: false }]);
    expect(second.plan.nextSteps[0]).toContain("then set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET in .env.");
  });

  it("a config it cannot edit: refused with the reason and what to add by hand", () => {
    const result = plan({ "src/auth.ts": "export const config = { providers: load() };\n" });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("computed"), byHand: expect.stringContaining('import { GitHub } from "@gatehouse/runtime/providers";') });
    expect(!result.ok && "byHand" in result && result.byHand).toContain("AUTH_GITHUB_ID, AUTH_GITHUB_SECRET");
  });
});

describe("auth add-provider (built binary)", () => {
  const dirs: string[] = [];
  afterAll(() => removeAll(dirs));
  /** A copy of a fixture app that auth-init set up (password, PGlite; no install). */
  const app = (fixture = "sveltekit-minimal") => {
    const dir = tempCopy(fixture, "add-provider", dirs);
    expect(cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0"], dir, {}, 60_000).code).toBe(0);
    return dir;
  };
  const auth = (args: string[], cwd: string) => cli(authBin, args, cwd, {}, 60_000);
  const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

  it("github google: import and entries added through the AST, empty keys in .env and .env.example, the callback URLs printed", () => {
    const dir = app();
    const env = read(dir, ".env");
    const run = auth(["add-provider", "github", "google"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const config = read(dir, "src/auth.ts");
    expect(config).toContain("import { Password, GitHub, Google } from '@gatehouse/runtime/providers';");
    expect(config).toMatch(/\t\tPassword\(\{ developmentMail: dev \}\),\n\t\tGitHub,\n\t\tGoogle,\n\t\]/);
    // The secret (and the mail keys auth-init wrote) stay byte for byte; the new keys are empty placeholders.
    expect(read(dir, ".env")).toBe(`${env}AUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_GOOGLE_ID=\nAUTH_GOOGLE_SECRET=\n`);
    expect(read(dir, ".env.example")).toMatch(/^AUTH_SECRET=\n(# [^\n]*\n)?AUTH_EMAIL_SERVER=\n(# [^\n]*\n)?AUTH_EMAIL_FROM=\nAUTH_GITHUB_ID=\nAUTH_GITHUB_SECRET=\nAUTH_GOOGLE_ID=\nAUTH_GOOGLE_SECRET=\n$/);
    expect(run.stdout).toContain("updated src/auth.ts");
    expect(run.stdout).toContain(
      "Register the callback URL http://localhost:5173/auth/callback/github for GitHub at https://github.com/settings/developers, then set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET in .env.",
    );
    expect(run.stdout).toContain(
      "Register the callback URL http://localhost:5173/auth/callback/google for Google at https://console.cloud.google.com/apis/credentials, then set AUTH_GOOGLE_ID and AUTH_GOOGLE_SECRET in .env.",
    );
    // auth-init's sign-in page lists the providers it knew: what to add for these.
    expect(run.stdout).toContain('Add a GitHub button to src/routes/signin/+page.svelte: <SignIn provider="github" class="auth-secondary">{#snippet submitButton()}Sign in with GitHub{/snippet}</SignIn>');
  });

  it("a second run changes nothing, says so, and still names the callback URLs and the keys left empty", () => {
    const dir = app();
    expect(auth(["add-provider", "github", "google"], dir).code).toBe(0);
    const before = snapshotDir(dir);
    const again = auth(["add-provider", "google", "github"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("GitHub is already in src/auth.ts.");
    expect(again.stdout).toContain("Google is already in src/auth.ts.");
    expect(again.stdout).not.toContain("updated");
    expect(again.stdout).toContain("http://localhost:5173/auth/callback/github for GitHub at https://github.com/settings/developers, then set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET in .env.");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("keycloak in a SolidStart 2 app: the callback under /api/auth, the issuer key, the catalog's note, and what an empty issuer does", () => {
    const dir = app("solid-start-v2");
    const run = auth(["add-provider", "keycloak"], dir);
    expect(run.code).toBe(0);
    expect(read(dir, "src/auth.ts")).toContain('import { Password, Keycloak } from "@gatehouse/runtime/providers";');
    expect(read(dir, "src/auth.ts")).toMatch(/\n    Keycloak,\n  \],/);
    expect(read(dir, ".env")).toMatch(/\nAUTH_KEYCLOAK_ID=\nAUTH_KEYCLOAK_SECRET=\nAUTH_KEYCLOAK_ISSUER=\n$/);
    const keycloak = findProvider("keycloak")!;
    expect(run.stdout).toContain(
      `Register the callback URL http://localhost:5173/api/auth/callback/keycloak for Keycloak, then set AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER in .env. ${keycloak.callbackNote}`,
    );
    expect(run.stdout).not.toContain("every auth route");
    expect(run.stdout).toContain('Add a Keycloak button to src/routes/signin.tsx: <form method="post" action="/api/auth/signin/keycloak" class="auth-secondary">');
  });

  it("apple: prints the catalog's note (https on a real domain), since the callback URL printed cannot work as it is", () => {
    const dir = app();
    const run = auth(["add-provider", "apple"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(findProvider("apple")!.callbackNote!);
  });

  it("--dry-run prints the config diff and the next steps, and writes nothing", () => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = auth(["add-provider", "github", "--dry-run"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("edit src/auth.ts");
    expect(run.stdout).toContain("+\t\tGitHub,");
    expect(run.stdout).toContain("AUTH_GITHUB_ID=");
    expect(run.stdout).toContain("http://localhost:5173/auth/callback/github");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("an unknown id: exit 2 with the known ones; nothing written, not even the known ids given with it", () => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = auth(["add-provider", "github", "myspace"], dir);
    expect(run.code).toBe(2);
    // Only the ids add-provider takes: the Password provider is set up by auth-init.
    const accepted = providerCatalog.filter((p) => p.type !== "credentials").map((p) => p.id);
    expect(run.stderr).toContain(`unknown provider "myspace": add-provider takes ${accepted.join(", ")}\n`);
    expect(run.stderr).not.toMatch(/\bpassword\b|\bcredentials\b/);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("a mistyped id: exit 2 with the closest id it takes (did you mean github?); nothing written", () => {
    const dir = app();
    const before = snapshotDir(dir);
    const run = auth(["add-provider", "gihub"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: unknown provider "gihub" \(did you mean github\?\): add-provider takes email, passkey, apple, /);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    // Two typos, two guesses; a word far from every id gets none.
    expect(auth(["add-provider", "gogle", "gitlba"], dir).stderr).toContain('unknown providers "gogle", "gitlba" (did you mean google, gitlab?)');
    expect(auth(["add-provider", "x"], dir).stderr).not.toContain("did you mean");
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("password (or credentials, its older id): exit 2, pointing at auth-init; nothing written", () => {
    const dir = tempCopy("sveltekit-minimal", "add-provider", dirs);
    expect(cli(authInitBin, ["--yes", "--no-install", "--runtime", "^0.1.0", "--providers", "github", "--adapter", "none", "--strategy", "jwt"], dir, {}, 60_000).code).toBe(0);
    const before = snapshotDir(dir);
    for (const id of ["password", "credentials"]) {
      const run = auth(["add-provider", id], dir);
      expect(run.code, id).toBe(2);
      expect(run.stderr, id).toMatch(/^error: .*auth-init/);
    }
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("--help documents the command with examples", () => {
    const help = auth(["add-provider", "--help"], "/");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("add-provider [options] <ids...>");
    expect(help.stdout).toContain("Examples:");
    expect(help.stdout).toContain("--dry-run");
  });
});
