/**
 * `auth add-provider <id...>`: flags and help; the flow is loaded when it runs.
 */
import type { Command } from "commander";

export interface AddProviderOptions {
  cwd: string;
  /** Absent: the app's src/auth.ts (auth.js in a JavaScript app, under SvelteKit's `files.src`). */
  config?: string;
  dryRun?: boolean;
}

const EXAMPLES = `
Examples:
  $ npx @gatehouse/cli add-provider github
  $ npx @gatehouse/cli add-provider github google --dry-run
  $ npx @gatehouse/cli add-provider github --config src/lib/server/auth.ts
  $ npx @gatehouse/cli add-provider email passkey

Adds the import and the provider to your config's providers array (also when you
edited the config by hand, when it is a function returning the config, or when the
array lives in another module of the app), and empty env keys to .env and
.env.example. Adding a provider twice changes nothing. Prints the callback URL to
register at the provider (with what to know about it there), the env keys still
empty, and the button to add to the sign-in page auth-init wrote.

email (links by mail: AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM) and passkey need the
config to have an adapter (they store sign-in tokens and passkeys): without one
nothing is changed (exit 1) and it says how to add one. passkey also turns on
experimental: { enableWebAuthn: true } in the config.

Exit codes: 0 done, 1 the config could not be edited (with what to add by hand)
or has no adapter for email/passkey, 2 usage (an unknown provider id).`;

export function registerAddProvider(program: Command): void {
  program
    .command("add-provider <ids...>")
    .description("add sign-in providers to the app's auth config")
    .option("--config <path>", "the auth config module, relative to --cwd (default: src/auth.ts, or auth.js in a JavaScript app)")
    .option("--dry-run", "print the changes with diffs; write nothing")
    .option("--cwd <dir>", "the app's directory", ".")
    .addHelpText("after", EXAMPLES)
    .action(async function (this: Command, ids: string[], options: AddProviderOptions) {
      const { runAddProvider } = await import("./add-provider-flow.js");
      await runAddProvider(ids, options, this);
    });
}
