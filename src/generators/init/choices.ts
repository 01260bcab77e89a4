/**
 * The values `auth-init` accepts for its choice flags. A module of its own, free
 * of imports, because `auth`'s command registration needs them on every start:
 * the answers module would bring the provider catalog into `auth secret` too.
 */
import type { Framework } from "../detect.js";

export const FRAMEWORKS: readonly Framework[] = ["sveltekit", "solid-start"];
export const STRATEGIES = ["jwt", "database"] as const;
export const ADAPTERS = ["pglite", "postgres", "sqlite", "hosted-store", "drizzle", "prisma", "kysely", "none"] as const;

export type Strategy = (typeof STRATEGIES)[number];
export type AdapterChoice = (typeof ADAPTERS)[number];

/** The adapters that put the auth tables into the app's own ORM: offered only in an app that has it. */
export const APP_ORM_ADAPTERS = ["drizzle", "prisma", "kysely"] as const satisfies readonly AdapterChoice[];
export type AppOrmAdapter = (typeof APP_ORM_ADAPTERS)[number];

export function isAppOrm(adapter: AdapterChoice): adapter is AppOrmAdapter {
  return (APP_ORM_ADAPTERS as readonly AdapterChoice[]).includes(adapter);
}
