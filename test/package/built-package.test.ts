/**
 * The package as users get it: the built `@gatehouse/runtime` (dist + exports
 * map) imported by a plain Node script, and the web-standards-only rule of core.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dist = join(root, "runtime/dist");

function node(args: string[], input?: string): string {
  // stderr is piped (not shown): the example logs its refused sign-in there, on purpose.
  return execFileSync(process.execPath, args, { cwd: root, encoding: "utf8", input, timeout: 60_000, stdio: "pipe" });
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".js"))
    .map((entry) => join(entry.parentPath, entry.name));
}

beforeAll(() => {
  // Build what the exports map points at, so the test never runs a stale dist.
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "runtime/tsconfig.build.json"], {
    cwd: root,
    timeout: 120_000,
  });
}, 130_000);

describe("built @gatehouse/runtime", () => {
  it("points no file at a source map (its sources are not shipped: Vite would warn for each module in an app's dev server)", () => {
    const mapped = jsFiles(dist).filter((file) => readFileSync(file, "utf8").includes("sourceMappingURL"));
    expect(mapped.map((file) => file.slice(dist.length + 1))).toEqual([]);
  });

  it("the example script signs in, reads, updates and signs out", () => {
    const output = node(["runtime/examples/credentials-flow.mjs"]);
    expect(output).toMatch(/wrong password -> 302 http:\/\/localhost:3000\/auth\/signin\?error=CredentialsSignin&code=credentials/);
    expect(output).toMatch(/sign in -> 302 http:\/\/localhost:3000\/dashboard/);
    expect(output).toMatch(/session: \{"user":\{"name":"Ada Lovelace","email":"ada@example.com","id":"1"\},"expires":"[^"]+"\}/);
    expect(output).toMatch(/update -> 200 \{"user":\{"name":"Countess of Lovelace"/);
    expect(output).toMatch(/sign out -> 302 http:\/\/localhost:3000\//);
    expect(output).toMatch(/session after sign-out: null/);
  });

  it("every entry of the exports map resolves and exports what the docs name", () => {
    const script = `
      const core = await import("@gatehouse/runtime");
      const jwt = await import("@gatehouse/runtime/jwt");
      const providers = await import("@gatehouse/runtime/providers");
      const catalog = await import("@gatehouse/runtime/providers/catalog");
      console.log(JSON.stringify({
        core: ["Auth", "setEnvDefaults", "createActionURL", "isAuthAction", "skipCSRFCheck", "raw", "AuthError", "CredentialsSignin", "MissingCSRF", "UntrustedHost"].filter((n) => !(n in core)),
        jwt: ["encode", "decode", "getToken"].filter((n) => !(n in jwt)),
        providers: typeof providers.Credentials,
        catalog: Array.isArray(catalog.providerCatalog),
        defaultExport: "default" in core || "default" in providers,
      }));`;
    const result = JSON.parse(node(["--input-type=module", "-e", script]));
    expect(result).toEqual({ core: [], jwt: [], providers: "function", catalog: true, defaultExport: false });
  });

  it("the framework entries resolve: SolidStart imports in plain Node, SvelteKit's (which import $app/*) point at built files", () => {
    const script = `
      import { existsSync } from "node:fs";
      import { fileURLToPath } from "node:url";
      const solid = await import("@gatehouse/runtime/solid-start");
      const solidClient = await import("@gatehouse/runtime/solid-start/client");
      const files = ["@gatehouse/runtime/sveltekit", "@gatehouse/runtime/sveltekit/client", "@gatehouse/runtime/sveltekit/components"]
        .map((id) => fileURLToPath(import.meta.resolve(id)));
      console.log(JSON.stringify({
        solid: ["SolidAuth", "FrameworkAAuth", "getSession", "authMiddleware", "CredentialsSignin"].filter((n) => !(n in solid)),
        client: [typeof solidClient.signIn, typeof solidClient.signOut],
        svelteKitFiles: files.filter((f) => !existsSync(f)),
        components: ["SignIn.svelte", "SignOut.svelte"].filter((f) => !existsSync(new URL(f, "file://" + files[2]))),
      }));`;
    const result = JSON.parse(node(["--input-type=module", "-e", script]));
    expect(result).toEqual({ solid: [], client: ["function", "function"], svelteKitFiles: [], components: [] });
  });

  it("core, pages, providers and jwt import no node: modules (they run on edge runtimes)", () => {
    const offenders = jsFiles(dist).filter((file) => /from\s+["']node:|require\(["']node:|import\(["']node:/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
