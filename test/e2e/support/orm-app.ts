/**
 * What the e2e tests of apps whose auth tables are their ORM's (Drizzle,
 * Prisma, Kysely) check alike: the commands auth-init printed for the tables; started before the tables exist, a session read and a
 * sign-up fail without a session or a mail, and the server's log says what is
 * missing and what to run; once they exist, a person signs up, confirms, signs
 * out and in again, and the server logs no error but the wrong password.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { EMAIL, signUpOutAndIn } from "./account-flow.js";
import type { AppMail } from "./passwordless-flow.js";
import { run, WITHOUT_TEST_DATABASE, type RunningServer } from "./processes.js";

/** The commands in backticks on auth-init's next step about the ORM's tables (`about`: "in your Drizzle schema"). */
export function printedCommands(initOutput: string, about: string): string[] {
  const step = initOutput.split("\n").find((line) => line.includes(about));
  if (!step) throw new Error(`auth-init printed no next step ${about}:\n${initOutput}`);
  return [...step.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** Runs one printed command (words split on spaces, as a shell would) in the app, against the app's own database. */
export function runPrinted(dir: string, command: string): Promise<string> {
  const [program, ...args] = command.split(/\s+/);
  return run(program!, args, { cwd: dir, env: WITHOUT_TEST_DATABASE });
}

/** `fix` is the command(s) as the log gives them after "Run ": e.g. "`npm run db:generate` then `npm run db:migrate`". */
export async function expectRefusedBeforeTables(server: RunningServer, mail: AppMail, fix: string): Promise<void> {
  const session = await fetch(`${server.origin}/auth/session`, { headers: { cookie: "authjs.session-token=x" } });
  expect(session.status, server.output()).toBe(500);
  expect(session.headers.get("set-cookie") ?? "").not.toMatch(/session-token=[^;]/);
  const form = new URLSearchParams({ callbackUrl: "/account", name: "", email: EMAIL, password: "correct horse battery staple" });
  const signUp = await fetch(`${server.origin}/auth/signup`, { method: "POST", body: form, headers: { origin: server.origin }, redirect: "manual" });
  expect(signUp.status, server.output()).toBe(302);
  expect(signUp.headers.get("location")).toBe(`${server.origin}/auth/error?error=Configuration`);
  expect(signUp.headers.get("set-cookie") ?? "").not.toMatch(/session-token=[^;]/);
  const log = server.output();
  expect(log).toContain("the auth database lacks table users");
  expect(log).toContain(`Run ${fix}`);
  // The sign-up's first query is the rate limit's count, on the same connection: it fails as the adapter's would.
  // (The server's log reaches this process a moment after the response.)
  await expect.poll(() => server.output(), { timeout: 10_000 }).toMatch(/The rate limit store's hit failed\.\n\[auth\]\[cause\]: Error: (Postgres|Sqlite)RateLimitStore: could not open the database: the auth database lacks table users/);
  expect(mail.server.messages).toEqual([]);
}

/** The account flow in Chromium on the built app (its account page is the home); a failure carries the server's log. */
export async function expectSignUpOutAndIn(page: Page, shot: Parameters<typeof signUpOutAndIn>[1], server: RunningServer, mail: AppMail): Promise<void> {
  const account = { origin: server.origin, returnParam: "redirectTo", userLine: "p", home: "/account" } as const;
  await signUpOutAndIn(page, shot, account, mail.server).catch((error: Error) => {
    throw new Error(`${error.message}\nThe app's server printed:\n${server.output()}`, { cause: error });
  });
  // The wrong password is a warning (credentials-signin-refused), not an error: nothing went wrong.
  const errors = server.output().split("\n").filter((line) => line.startsWith("[auth][error]"));
  expect(errors).toEqual([]);
}
