/**
 * A secret file is owner-only from its first byte: the engine's temporary file
 * is created 0600, not created with the umask's mode and tightened afterwards
 * (between the two, anyone on the machine could read the secret). Proven by
 * taking the later chmod away: the file is 0600 all the same.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const chmods: { path: string; mode: number }[] = [];
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  // Records, and does nothing: whatever mode the file has, it had when created.
  return { ...fs, chmodSync: (path: string, mode: number) => void chmods.push({ path, mode }) };
});

const { applyPlan } = await import("../../src/engine/apply.js");
const { addEdit, emptyPlan } = await import("../../src/plan/plan.js");

let dir: string;
let umask: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "auth-apply-mode-"));
  // The loosest umask: a file created without a mode would be world-readable (0666).
  umask = process.umask(0);
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

describe("applyPlan: secret files", () => {
  it("a new .env is created 0600, with no chmod needed to get there", () => {
    const plan = emptyPlan();
    addEdit(plan, ".env", null, "AUTH_SECRET=x\n", true);
    applyPlan(dir, plan);
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
  });
});
