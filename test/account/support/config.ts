/** What the account tests share: the people, the account page, and a config on a given adapter and strategy. */
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { captureLogger, ORIGIN, SECRET } from "../../helpers.js";

export const ADA = "ada@example.test";
export const MALLORY = "mallory@example.test";
export const PASSWORD = "correct horse battery";
/** Where the account page's forms come back to. */
export const ACCOUNT_PAGE = `${ORIGIN}/account`;

/** A config on `adapter` with `strategy` sessions, logging nowhere; `rest` adds the providers and the rest. */
export function accountConfig(adapter: Adapter, strategy: "jwt" | "database", rest: Omit<AuthConfig, "adapter" | "session">): AuthConfig {
  return { secret: SECRET, trustHost: true, logger: captureLogger().logger, adapter, session: { strategy }, ...rest };
}
