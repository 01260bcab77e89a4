/**
 * In CI every real component must be there: tests that would skip locally for
 * want of one must not skip silently in CI. `.ci/run` installs and starts them.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe.runIf(Boolean(process.env.CI))("CI has every real component", () => {
  it("Debian Chromium at /usr/bin/chromium", () => {
    expect(existsSync("/usr/bin/chromium")).toBe(true);
  });

  it("a PostgreSQL server in DATABASE_URL", () => {
    expect(process.env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
  });
});
