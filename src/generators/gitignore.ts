/**
 * Whether a `.gitignore` keeps a file out of git — enough of the gitignore rules
 * to answer for a file that sits next to the `.gitignore` (no nested paths).
 */

/** True when `gitignore` content ignores `fileName` (a bare name in the same directory; `directory` when it is a folder). */
export function isIgnored(gitignore: string, fileName: string, directory = false): boolean {
  let ignored = false;
  for (const raw of gitignore.split(/\r?\n|\r/)) {
    let pattern = raw.replace(/(?<!\\)\s+$/, "");
    if (pattern === "" || pattern.startsWith("#")) continue;
    const negated = pattern.startsWith("!");
    if (negated) pattern = pattern.slice(1);
    pattern = pattern.replace(/^\\(?=[#!])/, "");
    // A trailing slash only matches directories.
    if (pattern.endsWith("/")) {
      if (!directory) continue;
      pattern = pattern.slice(0, -1);
    }
    pattern = pattern.replace(/^(\/|\*\*\/)/, "");
    // Any other slash anchors the pattern in a subdirectory, where our file is not.
    if (pattern.includes("/")) continue;
    if (globToRegExp(pattern).test(fileName)) ignored = !negated;
  }
  return ignored;
}

function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "\\" && i + 1 < glob.length) source += escape(glob[++i]!);
    else if (char === "[" && glob.indexOf("]", i + 2) !== -1) {
      const end = glob.indexOf("]", i + 2);
      source += `[${glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
      i = end;
    } else source += escape(char);
  }
  return new RegExp(`^${source}$`);
}

function escape(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * `gitignore` with a line for each entry it does not ignore yet (a folder entry
 * ends with `/`), under a comment saying why; unchanged when all are ignored.
 */
export function ensureIgnored(gitignore: string, entries: readonly string[], comment: string): string {
  const missing = entries.filter((entry) => {
    const directory = entry.endsWith("/");
    return !isIgnored(gitignore, entry.replace(/^\/|\/$/g, ""), directory);
  });
  if (missing.length === 0) return gitignore;
  const eol = gitignore.includes("\r\n") ? "\r\n" : "\n";
  const separator = gitignore === "" ? "" : gitignore.endsWith(eol) ? eol : eol + eol;
  return `${gitignore}${separator}# ${comment}${eol}${missing.join(eol)}${eol}`;
}
