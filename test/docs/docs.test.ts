/**
 * The user guide stays a guide: README.md is short (what gatehouse is, the quick
 * start, the commands, links) and the reference lives in docs/, the contributors'
 * material in CONTRIBUTING.md. Every relative link and anchor between these pages
 * resolves, and docs/cli.md has a table row for every flag the built CLI's --help
 * lists, so the reference cannot fall behind the CLI.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOCS = join(ROOT, "docs");
const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  "SECURITY.md",
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

const read = (page: string): string => readFileSync(join(ROOT, page), "utf8");

/** The text outside fenced code blocks, where links and headings count. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
}

/** A heading's anchor as GitHub makes it: lowercase, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** Every anchor of a page, repeated headings numbered as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a page: `[text](target)` and images, outside code blocks. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What a link points at that does not exist, or null. */
function brokenLink(page: string, target: string): string | null {
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
  if (!existsSync(file)) return `${page}: ${target}: no file ${relative(ROOT, file)}`;
  if (anchor === undefined) return null;
  if (!file.endsWith(".md")) return `${page}: ${target}: an anchor into a file that is not markdown`;
  return anchors(readFileSync(file, "utf8")).has(anchor) ? null : `${page}: ${target}: no heading #${anchor} in ${relative(ROOT, file)}`;
}

/** The `## ` sections of a page by heading. */
function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of prose(markdown).split(/^(?=## )/m).slice(1)) out.set(part.slice(3, part.indexOf("\n")).trim(), part);
  return out;
}

/** The flags a section's tables list: every `--flag` in a row's first cell. */
function tableFlags(section: string): Set<string> {
  const firstCells = [...section.matchAll(/^\| *([^|]+?) *\|/gm)].map((match) => match[1]!);
  return new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`(?:-\w, )?(--[\w-]+)/g)].map((match) => match[1]!)));
}

function help(bin: string, args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, "bin", bin), ...args, "--help"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
}

/** The long options the help's Options: block lists, each at the start of its line. */
function helpFlags(text: string): string[] {
  const from = text.slice(text.indexOf("Options:"));
  const options = from.slice(0, from.search(/\n\n(?=\S)|$/));
  return [...options.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]!);
}

describe("README.md is a short user guide", () => {
  const readme = read("README.md");

  it("is under 200 lines", () => {
    expect(readme.split("\n").length).toBeLessThan(200);
  });

  it("keeps the quick start: exactly `npm install && npm run demo` and `npm test`", () => {
    const quickStart = sections(readme).get("Quick start") ?? "";
    const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("## Quick start")))?.[1] ?? "";
    expect(quickStart).not.toBe("");
    const commands = block
      .split("\n")
      .map((line) => line.replace(/#.*$/, "").trim())
      .filter(Boolean);
    expect(commands).toEqual(["npm install && npm run demo", "npm test"]);
  });

  it("links to every docs page, SECURITY.md and CONTRIBUTING.md", () => {
    const targets = new Set(links(readme).map((target) => target.split("#")[0]));
    for (const page of PAGES.filter((page) => page !== "README.md")) expect(targets, page).toContain(page);
  });

  it("says nothing of test or benchmark internals: they live in CONTRIBUTING.md", () => {
    expect(readme).not.toMatch(/vitest/i);
    expect(readme).not.toMatch(/npm run bench/);
    expect(readme).not.toMatch(/^#+ .*(tests?|bench)/im);
    expect(readme).not.toMatch(/\btest\/[\w.-]/);
    const contributing = read("CONTRIBUTING.md");
    for (const topic of ["vitest", "npm run bench", "## Layout", "## Tests and benchmarks", "## Generated files"]) expect(contributing).toContain(topic);
  });
});

describe("links between the pages", () => {
  it("every relative link and anchor resolves", () => {
    const broken = PAGES.flatMap((page) => links(read(page)).map((target) => brokenLink(page, target))).filter((problem) => problem !== null);
    expect(broken).toEqual([]);
  });

  it("a link checker that sees breakage (a missing file, a missing anchor)", () => {
    expect(brokenLink("README.md", "docs/nowhere.md")).toMatch(/no file docs\/nowhere.md/);
    expect(brokenLink("README.md", "docs/cli.md#nowhere")).toMatch(/no heading #nowhere/);
    expect(brokenLink("docs/cli.md", "#auth-secret")).toBeNull();
    expect(slug("Passkeys (WebAuthn, experimental)")).toBe("passkeys-webauthn-experimental");
    expect(slug("The user's account")).toBe("the-users-account");
  });
});

describe("docs/cli.md lists every flag of every command", () => {
  const cli = new Map<string, string>();
  beforeAll(() => {
    for (const [heading, text] of sections(read("docs/cli.md"))) cli.set(heading, text);
  });
  const top = help("auth.js", []);
  // Each command's section in docs/cli.md, by the name --help lists it under.
  const commandSections = [...top.matchAll(/^ {2}([a-z-]+) (?:\[options\]|\[command\])/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== "help")
    .map((name) => ({ name, heading: name === "init" ? "auth-init" : `auth ${name}` }));

  it("has a section for each command the CLI lists", () => {
    expect(commandSections.map((command) => command.name)).toEqual(expect.arrayContaining(["init", "secret", "add-provider", "migrate", "doctor"]));
    for (const { heading } of commandSections) expect([...cli.keys()], heading).toContain(heading);
  });

  it("the flags every command shares (--version, --help)", () => {
    const flags = helpFlags(top);
    expect(flags).toEqual(expect.arrayContaining(["--version", "--help"]));
    expect([...tableFlags(cli.get("What every command shares") ?? "")]).toEqual(expect.arrayContaining(flags));
  });

  it("each command's flags, in a table of its section", () => {
    const missing: string[] = [];
    for (const { name, heading } of commandSections) {
      const documented = tableFlags(cli.get(heading) ?? "");
      const flags = helpFlags(help("auth.js", [name]));
      expect(flags.length, name).toBeGreaterThan(1);
      missing.push(...flags.filter((flag) => !documented.has(flag)).map((flag) => `${name} ${flag}`));
    }
    // The auth-init bin is init under another name: the same flags.
    missing.push(...helpFlags(help("auth-init.js", [])).filter((flag) => !tableFlags(cli.get("auth-init") ?? "").has(flag)).map((flag) => `auth-init ${flag}`));
    expect(missing).toEqual([]);
  });
});
