/**
 * `auth doctor`: checks an app's auth setup and prints each problem with its fix.
 */
import type { Command } from "commander";

export interface DoctorOptions {
  cwd: string;
}

const EXAMPLES = `
Examples:
  $ npx @gatehouse/cli doctor
  $ npx @gatehouse/cli doctor --cwd apps/web

Checks: AUTH_SECRET present and long enough, .env git-ignored, env keys of the
configured providers (AUTH_EMAIL_SERVER and AUTH_EMAIL_FROM for email links), a
database for email and passkey, enableWebAuthn for passkey, the public origin
(AUTH_URL / ORIGIN / AUTH_TRUST_HOST), the database reachable and migrated, the
installed runtime's version, and that other users of the machine cannot read the
env files, the PGlite folder or the SQLite file (each with its chmod; not on Windows).
Exit codes: 0 no problems (warnings allowed), 1 at least one problem, 2 usage.`;

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description("check the app's auth setup and print each problem with its fix")
    .option("--cwd <dir>", "the app's directory", ".")
    .addHelpText("after", EXAMPLES)
    .action(async function (this: Command, options: DoctorOptions) {
      const { runDoctor } = await import("./database-flows.js");
      await runDoctor(options, this);
    });
}
