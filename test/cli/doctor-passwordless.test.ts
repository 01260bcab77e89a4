/**
 * `auth doctor`'s checks for the passwordless providers, as the pure function
 * the command calls: email's env keys, passkeys' WebAuthn switch, and the
 * database both need.
 */
import { describe, expect, it } from "vitest";
import type { DatabaseLookup } from "../../src/generators/app-database.js";
import { diagnose, type DoctorInput } from "../../src/generators/doctor.js";

const PGLITE: DatabaseLookup = { found: true, target: { kind: "pglite", dir: ".pglite" } };
const NO_DATABASE: DatabaseLookup = { found: false, reason: "the app has no database driver (pg, @electric-sql/pglite or better-sqlite3) in package.json" };

function findings(config: string, env: Record<string, string> = {}, database: DatabaseLookup = PGLITE, packageJson?: string) {
  const input: DoctorInput = {
    detection: { hasPackageJson: true, frameworks: [{ id: "sveltekit", major: 2 }], packageManager: "npm", typescript: true, existingAuth: [] },
    env: { AUTH_SECRET: "x".repeat(43), ...env },
    envFileExists: true,
    gitignore: ".env\n",
    authConfig: { path: "src/auth.ts", text: config },
    installedRuntime: "0.1.0",
    cliVersion: "0.1.0",
    database,
    ...(packageJson === undefined ? {} : { packageJson }),
  };
  return diagnose(input).filter((f) => f.level !== "ok" || f.message.startsWith("provider"));
}

const config = (imports: string, rest = "") => `import { ${imports} } from '@gatehouse/runtime/providers';\nexport const config = { adapter, providers: [${imports}]${rest} };\n`;

describe("auth doctor: email and passkey", () => {
  it("email: AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM empty are a problem, set they are ok", () => {
    expect(findings(config("Nodemailer"))).toContainEqual({ level: "error", message: "Email link: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM not set", fix: "set AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM in .env" });
    const set = findings(config("Nodemailer"), { AUTH_EMAIL_SERVER: "smtp://127.0.0.1:2525", AUTH_EMAIL_FROM: "app@example.com" });
    expect(set).toContainEqual({ level: "ok", message: "provider email: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM set" });
    expect(set.filter((f) => f.level !== "ok")).toEqual([expect.objectContaining({ message: expect.stringContaining("no public origin") })]);
  });

  it("passkey: no env keys; without `enableWebAuthn: true` in the config, a problem with its fix", () => {
    expect(findings(config("Passkey", ", experimental: { enableWebAuthn: true }")).filter((f) => f.level === "error")).toEqual([]);
    expect(findings(config("Passkey", ", experimental: { enableWebAuthn: true }"))).toContainEqual({ level: "ok", message: "provider passkey" });
    expect(findings(config("Passkey"))).toContainEqual({
      level: "error",
      message: "src/auth.ts lists Passkey but does not turn on `experimental: { enableWebAuthn: true }`: the runtime refuses the config",
      fix: "run `npx auth add-provider passkey` (it adds the switch), or add it to the config by hand",
    });
    expect(findings(config("Passkey", ", experimental: { enableWebAuthn: false }")).some((f) => f.message.includes("does not turn on"))).toBe(true);
  });

  it("the packages they need: one not in package.json is a problem naming it and the install; listed ones are fine", () => {
    const pkg = (dependencies: Record<string, string>) => JSON.stringify({ name: "app", dependencies: { "@gatehouse/runtime": "^0.1.0", ...dependencies } });
    const both = config("Nodemailer, Passkey", ", experimental: { enableWebAuthn: true }");
    const env = { AUTH_EMAIL_SERVER: "smtp://127.0.0.1:2525", AUTH_EMAIL_FROM: "app@example.com" };
    expect(findings(both, env, PGLITE, pkg({}))).toContainEqual({
      level: "error",
      message: "nodemailer and @simplewebauthn/server not in package.json (email sends its sign-in links with it; passkeys are verified with it): sign-in with it fails",
      fix: "install it: npm install nodemailer @simplewebauthn/server",
    });
    expect(findings(both, env, PGLITE, pkg({ nodemailer: "^8.0.11" }))).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^@simplewebauthn\/server not in package.json \(passkeys/) }));
    const listed = findings(both, env, PGLITE, pkg({ nodemailer: "^8.0.11", "@simplewebauthn/server": "^14.0.3" }));
    expect(listed.filter((f) => f.message.includes("not in package.json"))).toEqual([]);
  });

  it("either one in an app without a database: a problem naming the provider and the fix; OAuth alone is fine", () => {
    const passkey = findings(config("Passkey", ", experimental: { enableWebAuthn: true }"), {}, NO_DATABASE);
    expect(passkey).toContainEqual({
      level: "error",
      message: "passkey needs a database (Passkey keeps the passkeys there), and the app has none: the runtime refuses the config",
      fix: "set one up with `npx auth-init --adapter pglite --yes` (it keeps your config), then add its `adapter` to the config",
    });
    expect(findings(config("GitHub"), { AUTH_GITHUB_ID: "a", AUTH_GITHUB_SECRET: "b" }, NO_DATABASE).filter((f) => f.level === "error")).toEqual([]);
  });
});
