/**
 * SECURITY.md names, for every threat, the test that proves our defence: a
 * backticked test file and then the quoted names of its tests
 * (`test/x.test.ts` — "one test"; "another"); the other pages name test files
 * the same way. A renamed or deleted test would leave a citation that proves
 * nothing, so each cited file must exist and each cited name must be found in it. How SECURITY.md shortens a name: `...` leaves
 * words out, `${...}` and `%s` stand where the test's name is filled in, `\|`
 * is a `|` inside a table cell and `\"` a `"` inside a name; lines may wrap.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** SECURITY.md first; the user's and contributor's pages cite tests the same way. */
const PAGES = ["SECURITY.md", "README.md", "CONTRIBUTING.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** Every run of whitespace (a wrapped line, an indent) as one space. */
const oneLine = (text: string): string => text.replace(/\s+/g, " ");

interface Citation {
  /** The cited path, as written (it may hold a `*`). */
  path: string;
  /** The cited test names, unescaped; none when only the file is named. */
  names: string[];
}

const PATH = "`test\\/[^`\\s]+\\.ts`";
const NAME = '"(?:[^"\\\\]|\\\\.)*"';
/**
 * One citation: a path (or several, each holding the names: `a`, `b` — "name"),
 * then, after an optional "(describe ...)", a dash or a comma and the quoted names.
 */
const CITED = new RegExp(`((?:${PATH}(?:, | and | or ))*${PATH})(?:(?: \\([^)]*\\))?(?: —|,) (${NAME}(?:[;,] ${NAME})*))?`, "g");

/** The citations of a markdown text: each backticked `test/...ts` path, with the quoted names that follow it. */
function citations(markdown: string): Citation[] {
  const found: Citation[] = [];
  for (const [, paths, quoted] of oneLine(markdown).matchAll(CITED)) {
    const names = [...(quoted ?? "").matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(([, name]) => name!.replace(/\\(["|])/g, "$1"));
    for (const [, path] of paths!.matchAll(/`([^`]+)`/g)) found.push({ path: path!, names });
  }
  return found;
}

/** The parts of a cited name that must be found word for word: what `...` and the placeholders leave. */
function fragments(name: string): string[] {
  return name
    .split(/\.\.\.|…|\$\{[^}]*\}|%[sdijo#]/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** The files a cited path names: itself, or those its `*` matches in its folder. */
function filesOf(path: string): string[] {
  if (!path.includes("*")) return existsSync(join(ROOT, path)) ? [path] : [];
  const folder = dirname(path);
  const pattern = new RegExp(`^${path.slice(folder.length + 1).replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
  return readdirSync(join(ROOT, folder))
    .filter((name) => pattern.test(name))
    .map((name) => `${folder}/${name}`);
}

/** The cited names (and files) that the test sources do not hold, each as "path: name". */
function unfound(markdown: string): string[] {
  const missing: string[] = [];
  for (const { path, names } of citations(markdown)) {
    const sources = filesOf(path).map((file) => oneLine(readFileSync(join(ROOT, file), "utf8")));
    if (sources.length === 0) missing.push(`${path}: no such file`);
    for (const name of names) {
      const parts = fragments(name);
      if (!sources.some((source) => parts.every((part) => source.includes(part)))) missing.push(`${path}: "${name}"`);
    }
  }
  return missing;
}

describe("the tests the pages cite", () => {
  it("reads a citation's file and names: a table cell's escapes, a describe in parentheses, a wrapped line", () => {
    const markdown = [
      '| x | `test/a.test.ts` — "one \\| two"; "checks [\\"none\\"] ...',
      '  refused" | `test/b.test.ts` (describe "outer") — "inner"; `test/c.test.ts` |',
      '(`test/d.test.ts`, "by comma"; `test/e.test.ts`, `test/f.test.ts` — "in both")',
    ].join("\n");
    expect(citations(markdown)).toEqual([
      { path: "test/a.test.ts", names: ["one | two", 'checks ["none"] ... refused'] },
      { path: "test/b.test.ts", names: ["inner"] },
      { path: "test/c.test.ts", names: [] },
      { path: "test/d.test.ts", names: ["by comma"] },
      { path: "test/e.test.ts", names: ["in both"] },
      { path: "test/f.test.ts", names: ["in both"] },
    ]);
    expect(fragments("1b. ... the link hands her the account, one row in ${users.table}")).toEqual(["1b.", "the link hands her the account, one row in"]);
  });

  it("finds SECURITY.md citing tests (the parser reads the real page)", () => {
    const all = citations(readFileSync(join(ROOT, "SECURITY.md"), "utf8"));
    expect(all.length).toBeGreaterThan(100);
    expect(all.flatMap(({ names }) => names).length).toBeGreaterThan(300);
  });

  it.each(PAGES)("%s: every cited test file exists and holds every test name cited from it", (page) => {
    expect(unfound(readFileSync(join(ROOT, page), "utf8"))).toEqual([]);
  });

  it("a name that no longer exists is found out", () => {
    expect(unfound('`test/docs/docs.test.ts` — "a test by a name nobody gave it"; "links to every docs page, SECURITY.md and CONTRIBUTING.md"')).toEqual([
      'test/docs/docs.test.ts: "a test by a name nobody gave it"',
    ]);
    expect(unfound("`test/docs/no-such.test.ts`")).toEqual(["test/docs/no-such.test.ts: no such file"]);
  });
});
