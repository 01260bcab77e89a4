/**
 * Adding dependencies and scripts to an app's package.json, as text: a package the
 * app already lists keeps the version the app chose; the file keeps its indentation
 * and final newline. New keys are inserted in alphabetical order, as package
 * managers write them.
 */

export interface PackageJsonAdditions {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  /** Added only under names the app does not use yet. */
  scripts?: Record<string, string>;
}

type Json = Record<string, unknown>;

export function addToPackageJson(text: string, additions: PackageJsonAdditions): string {
  const pkg = parse(text);
  const listed = { ...asRecord(pkg.dependencies), ...asRecord(pkg.devDependencies) };
  let changed = false;
  for (const field of ["dependencies", "devDependencies"] as const) {
    const wanted = Object.entries(additions[field] ?? {}).filter(([name]) => !(name in listed));
    if (wanted.length === 0) continue;
    pkg[field] = sorted({ ...asRecord(pkg[field]), ...Object.fromEntries(wanted) });
    changed = true;
  }
  const scripts = Object.entries(additions.scripts ?? {}).filter(([name]) => !(name in asRecord(pkg.scripts)));
  if (scripts.length > 0) {
    pkg.scripts = { ...asRecord(pkg.scripts), ...Object.fromEntries(scripts) };
    changed = true;
  }
  return changed ? serialize(pkg, text) : text;
}

/** Drops packages from `dependencies` and `devDependencies`; the rest of the file as it was. */
export function removeFromPackageJson(text: string, names: readonly string[]): string {
  const pkg = parse(text);
  let changed = false;
  for (const field of ["dependencies", "devDependencies"] as const) {
    const record = asRecord(pkg[field]);
    const kept = Object.entries(record).filter(([name]) => !names.includes(name));
    if (kept.length === Object.keys(record).length) continue;
    pkg[field] = Object.fromEntries(kept);
    changed = true;
  }
  return changed ? serialize(pkg, text) : text;
}

/** The object as JSON in the original text's indentation, line endings and final newline. */
function serialize(pkg: Json, original: string): string {
  const indent = /^([ \t]+)"/m.exec(original)?.[1] ?? "  ";
  const eol = original.includes("\r\n") ? "\r\n" : "\n";
  const json = JSON.stringify(pkg, null, indent).replace(/\n/g, eol);
  return original.endsWith("\n") ? json + eol : json;
}

/** The versions an app's package.json asks for (dependencies and devDependencies). */
export function listedDependencies(text: string): Record<string, string> {
  const pkg = parse(text);
  return { ...asRecord(pkg.dependencies), ...asRecord(pkg.devDependencies) } as Record<string, string>;
}

/** The name of the app's script whose command (trimmed) matches `command`; undefined when none does or package.json does not parse. */
export function scriptRunning(text: string | null | undefined, command: RegExp): string | undefined {
  let scripts: Json;
  try {
    scripts = asRecord(parse(text ?? "").scripts);
  } catch {
    return undefined;
  }
  return Object.entries(scripts).find(([, body]) => typeof body === "string" && command.test(body.trim()))?.[0];
}

function parse(text: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("package.json is not valid JSON; fix it and run the command again.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("package.json does not hold an object.");
  return value as Json;
}

function asRecord(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function sorted(record: Json): Json {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
