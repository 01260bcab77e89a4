/** Recorded provider responses (under ./fixtures), read as fresh objects so tests can change them. */
import { readFileSync } from "node:fs";

export function fixture<T = Record<string, any>>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as T;
}

/** `"data.name"` -> `["data", "name"]`; a top-level key with dots in it (Slack's claim URLs) stays whole. */
export function pathKeys(value: unknown, path: string): string[] {
  return value && typeof value === "object" && path in value ? [path] : path.split(".");
}

/** A copy of `value` without the fields at `paths` (`"data.name"` reaches into `data`). */
export function without<T>(value: T, paths: readonly string[]): T {
  const copy = structuredClone(value) as Record<string, any>;
  for (const path of paths) {
    const keys = pathKeys(copy, path);
    const last = keys.pop()!;
    let target: Record<string, any> | undefined = copy;
    for (const key of keys) target = target?.[key];
    if (target) delete target[last];
  }
  return copy as T;
}
