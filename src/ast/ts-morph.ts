/**
 * ts-morph, loaded at its first use rather than when a module that uses it
 * loads: loading it takes 0.5-1 s, and `detect` (which every command that reads
 * an app runs) needs it only to read a SvelteKit app's config files, so
 * `auth doctor` and `auth migrate` in a SolidStart app or an empty folder never
 * pay for it. ts-morph is CommonJS, so `require` loads it synchronously (detect
 * is synchronous); it is the same instance the modules that `import` it get.
 */
import { createRequire } from "node:module";

type TsMorph = typeof import("ts-morph");

let loaded: TsMorph | undefined;

export function tsMorph(): TsMorph {
  return (loaded ??= createRequire(import.meta.url)("ts-morph") as TsMorph);
}
