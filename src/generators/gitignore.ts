/**
 * Whether a `.gitignore` keeps a file out of git — enough of the gitignore rules
 * to answer for a file that sits next to the `.gitignore` (no nested paths).
 */

/** True when `gitignore` content ignores `fileName` (a bare name in the same directory). */
export function isIgnored(gitignore: string, fileName: string): boolean {
  let ignored = false;
  for (const raw of gitignore.split(/\r?\n|\r/)) {
    let pattern = raw.replace(/(?<!\\)\s+$/, "");
    if (pattern === "" || pattern.startsWith("#")) continue;
    const negated = pattern.startsWith("!");
    if (negated) pattern = pattern.slice(1);
    pattern = pattern.replace(/^\\(?=[#!])/, "");
    // A trailing slash only matches directories; our file is not one.
    if (pattern.endsWith("/")) continue;
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
