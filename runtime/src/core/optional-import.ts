/**
 * Modules the runtime loads only when an app uses them: nodemailer, to send mail
 * over SMTP, and node:fs, for development mail (absent on edge runtimes). Their
 * names live in this exported object rather than in literals at the import: a
 * bundler folds a literal into `import("nodemailer")`, then tries to resolve it
 * when the app is built and warns ("could not be resolved") in every app that
 * never sends mail. A property of an exported object is not folded.
 */
export const OPTIONAL_MODULES = { nodemailer: "nodemailer", fs: "node:fs/promises" };

/** Imports an optional module; rejects as `import()` does when it is not installed. */
export function importOptional(name: keyof typeof OPTIONAL_MODULES): Promise<unknown> {
  return import(/* @vite-ignore */ OPTIONAL_MODULES[name]);
}
