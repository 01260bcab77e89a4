/**
 * `auth init` / `auth-init`: registered now so the command and its help exist;
 * the real setup flow lands in a later release (tracked pending work).
 */
import type { Command } from "commander";

export function registerInit(program: Command): void {
  program
    .command("init [dir]")
    .description("set up auth in a SvelteKit or SolidStart app (not yet available in this version)")
    // Accept any flag from the docs so the user gets the message below, not "unknown option".
    .allowUnknownOption()
    .action(function (this: Command) {
      this.error("error: auth-init is not yet available in this version of gatehouse");
    });
}
