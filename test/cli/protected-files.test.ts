/**
 * Files and folders the user protected: a 0444 file is its owner's statement
 * that it must not change (as root too, where permission bits stop no write),
 * a 0555 folder the same for what is in it, and an immutable file refuses
 * everyone. Every command that writes (auth-init, add-provider, auth secret,
 * --rotate) checks every file it would write first and, for one it may not
 * write, says so in one line with the command that fixes it, exits 1 and leaves
 * every file as it was. Through the real built bins, on copies of the fixtures.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { authBin, authInitBin, cli, removeAll, snapshotDir, tempCopy } from "./support/cli.js";

const dirs: string[] = [];
/** Undone before removal: a read-only folder or an immutable file would stop the cleanup. */
const undo: (() => void)[] = [];
afterAll(() => {
  for (const step of undo.splice(0)) step();
  removeAll(dirs);
});

const INIT = ["--yes", "--no-install", "--runtime", "^0.1.0"];
const SECRET = 'AUTH_SECRET="old-secret-0123456789-abcdefghijklmnopqrstuvw"\n';
const modeOf = (path: string) => statSync(path).mode & 0o777;
const posix = process.platform !== "win32";

function app(files: Record<string, string> = {}): string {
  const dir = tempCopy("sveltekit-minimal", "protected", dirs);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

/** An app auth-init has set up, as add-provider expects it. */
function setUpApp(): string {
  const dir = app();
  const run = cli(authInitBin, INIT, dir, {}, 60_000);
  expect(run.code, run.stderr).toBe(0);
  return dir;
}

/** Runs the bin and checks the refusal: exit 1, one line (no stack), nothing changed (modes included). Returns that line. */
function expectRefused(bin: string, args: string[], dir: string, modes: Record<string, number>): string {
  const before = snapshotDir(dir);
  const run = cli(bin, args, dir, {}, 60_000);
  expect(run.code, run.stderr + run.stdout).toBe(1);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toContain("nothing was changed");
  expect(run.stderr).not.toMatch(/\n\s+at |EACCES:|EPERM:/);
  expect(snapshotDir(dir)).toEqual(before);
  for (const [path, mode] of Object.entries(modes)) expect(modeOf(join(dir, path)), path).toBe(mode);
  return lines[0]!;
}

/** The command the message says to run, between backticks. */
function fixCommand(line: string): string {
  const command = /`([^`]+)`/.exec(line)?.[1];
  if (!command) throw new Error(`no command in: ${line}`);
  return command;
}

describe.skipIf(!posix)("a read-only .env (0444)", () => {
  it("auth-init: refused in one line naming the mode and the chmod; nothing written, the mode kept", () => {
    const dir = app({ ".env": SECRET });
    chmodSync(join(dir, ".env"), 0o444);
    const line = expectRefused(authInitBin, INIT, dir, { ".env": 0o444 });
    expect(line).toMatch(/^error: \.env is read-only \(mode 0444\)/);
    expect(fixCommand(line)).toBe("chmod u+w .env");
  });

  it("auth add-provider", () => {
    const dir = setUpApp();
    chmodSync(join(dir, ".env"), 0o444);
    const line = expectRefused(authBin, ["add-provider", "github"], dir, { ".env": 0o444 });
    expect(line).toMatch(/^error: \.env is read-only \(mode 0444\)/);
  });

  it("auth secret", () => {
    const dir = app({ ".env": "DATABASE_URL=postgres://x\n" });
    chmodSync(join(dir, ".env"), 0o444);
    const line = expectRefused(authBin, ["secret"], dir, { ".env": 0o444 });
    expect(line).toMatch(/^error: \.env is read-only \(mode 0444\)/);
  });

  it("auth secret --rotate", () => {
    const dir = app({ ".env": SECRET });
    chmodSync(join(dir, ".env"), 0o444);
    const line = expectRefused(authBin, ["secret", "--rotate"], dir, { ".env": 0o444 });
    expect(line).toMatch(/^error: \.env is read-only \(mode 0444\)/);
  });

  it("auth secret --env-file in another folder: the printed chmod names the file as typed from where it ran", () => {
    const dir = app();
    writeFileSync(join(dir, "src/.env.local"), SECRET);
    chmodSync(join(dir, "src/.env.local"), 0o444);
    const line = expectRefused(authBin, ["secret", "--rotate", "--env-file", "src/.env.local"], dir, { "src/.env.local": 0o444 });
    expect(fixCommand(line)).toBe("chmod u+w src/.env.local");
  });

  it("the printed command fixes it: run it, and the same command then succeeds", () => {
    const dir = app({ ".env": SECRET });
    chmodSync(join(dir, ".env"), 0o444);
    const line = expectRefused(authBin, ["secret", "--rotate"], dir, { ".env": 0o444 });
    const fix = spawnSync("sh", ["-c", fixCommand(line)], { cwd: dir, encoding: "utf8" });
    expect(fix.status, fix.stderr).toBe(0);
    const again = cli(authBin, ["secret", "--rotate"], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir, ".env"), "utf8")).toMatch(/^AUTH_SECRET_1=/m);

    // And for auth-init, whose fix is the same command.
    const other = app({ ".env": SECRET });
    chmodSync(join(other, ".env"), 0o444);
    const refused = expectRefused(authInitBin, INIT, other, { ".env": 0o444 });
    expect(spawnSync("sh", ["-c", fixCommand(refused)], { cwd: other }).status).toBe(0);
    const init = cli(authInitBin, INIT, other, {}, 60_000);
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(join(other, ".env"), "utf8")).toContain(SECRET);
  });
});

describe.skipIf(!posix)("a read-only folder (0555)", () => {
  it("auth-init, when a file would be created in it: refused, naming the folder and its chmod", () => {
    const dir = app();
    chmodSync(join(dir, "src"), 0o555);
    undo.push(() => chmodSync(join(dir, "src"), 0o755));
    const line = expectRefused(authInitBin, INIT, dir, { src: 0o555 });
    expect(line).toMatch(/^error: src is read-only \(mode 0555\)/);
    expect(fixCommand(line)).toBe("chmod u+w src");
    expect(spawnSync("sh", ["-c", fixCommand(line)], { cwd: dir }).status).toBe(0);
    expect(cli(authInitBin, INIT, dir, {}, 60_000).code).toBe(0);
  });

  it("auth secret, when .env would be created in it", () => {
    const dir = app();
    chmodSync(dir, 0o555);
    undo.push(() => chmodSync(dir, 0o755));
    const line = expectRefused(authBin, ["secret"], dir, { ".": 0o555 });
    expect(line).toMatch(/^error: \. is read-only \(mode 0555\)/);
    expect(fixCommand(line)).toBe("chmod u+w .");
  });
});

/** `chattr +i` needs root and a filesystem that keeps the flag (ext4 does, tmpfs and overlayfs may not). */
function canMakeImmutable(dir: string): boolean {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  const probe = join(dir, "probe");
  writeFileSync(probe, "");
  const ok = spawnSync("chattr", ["+i", probe]).status === 0;
  if (ok) spawnSync("chattr", ["-i", probe]);
  return ok;
}

describe("an immutable .env (chattr +i)", () => {
  const dir = app({ ".env": SECRET });
  const immutable = canMakeImmutable(join(dir, "src"));
  spawnSync("rm", ["-f", join(dir, "src/probe")]);

  it.skipIf(!immutable)("auth-init and auth secret --rotate: one line, no raw EPERM, nothing changed", () => {
    expect(spawnSync("chattr", ["+i", join(dir, ".env")]).status).toBe(0);
    undo.push(() => void spawnSync("chattr", ["-i", join(dir, ".env")]));
    const init = expectRefused(authInitBin, INIT, dir, {});
    expect(init).toMatch(/^error: \.env cannot be changed \(operation not permitted/);
    expect(init).toContain("chattr -i -a .env");
    const rotate = expectRefused(authBin, ["secret", "--rotate"], dir, {});
    expect(rotate).toMatch(/^error: \.env cannot be changed \(operation not permitted/);
  });
});
