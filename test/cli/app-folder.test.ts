/**
 * `--cwd` (and init's `[dir]`) naming a file instead of the app's folder: every
 * command says so in one line, exit 2 (how it was typed), and changes nothing,
 * instead of failing on `<file>/.env` with the system's ENOTDIR.
 */
import { afterAll, describe, expect, it } from "vitest";
import { authBin, authInitBin, cli, removeAll, snapshotDir, tempCopy } from "./support/cli.js";

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe("--cwd naming a file", () => {
  const app = tempCopy("sveltekit-minimal", "gatehouse-cwd-file-", dirs);
  const before = snapshotDir(app);

  it.each([
    ["doctor", authBin, ["doctor", "--cwd", "package.json"]],
    ["migrate", authBin, ["migrate", "--cwd", "package.json"]],
    ["add-provider", authBin, ["add-provider", "github", "--cwd", "package.json"]],
    ["secret", authBin, ["secret", "--cwd", "package.json"]],
    ["secret --rotate", authBin, ["secret", "--rotate", "--yes", "--cwd", "package.json"]],
    ["init --cwd", authInitBin, ["--yes", "--cwd", "package.json"]],
    ["init [dir]", authInitBin, ["package.json", "--yes"]],
  ])("%s: one line naming it, exit 2, nothing changed", (_name, bin, args) => {
    const result = cli(bin, args, app);
    expect(result.stderr.trim()).toBe("error: package.json is a file, not a folder: pass the app's folder instead; nothing was changed");
    expect(result.code).toBe(2);
    expect(snapshotDir(app)).toEqual(before);
  });
});
