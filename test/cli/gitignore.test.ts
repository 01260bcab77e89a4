import { describe, expect, it } from "vitest";
import { isIgnored } from "../../src/generators/gitignore.js";

describe("isIgnored", () => {
  it.each([
    [".env", true],
    ["/.env", true],
    ["**/.env", true],
    [".env*", true],
    ["*.env", true],
    [".env  ", true],
    ["*", true],
    [".e?v", true],
    [".[e]nv", true],
    ["# .env", false],
    [".env/", false],
    ["config/.env", false],
    [".env.local", false],
    [".env.*", false],
    ["", false],
    [".env\n!.env", false],
    [".env*\n!.env.example", true],
  ])("%j ignores .env: %s", (gitignore, expected) => {
    expect(isIgnored(gitignore, ".env")).toBe(expected);
  });

  it("handles CRLF files", () => {
    expect(isIgnored("node_modules\r\n.env\r\n", ".env")).toBe(true);
  });
});
