/**
 * What differs between frameworks in an `auth-init` plan: which new files come
 * from which template, the edits of existing files, where the auth routes live.
 */
import type { EditResult } from "../../ast/source.js";
import type { ProjectSnapshot } from "../../engine/project.js";
import type { Framework } from "../detect.js";
import type { SourceLayout } from "../source-layout.js";
import type { TemplateData } from "../templates.js";
import type { RateLimitStoreName } from "../../ast/rate-limit-store.js";

export interface NewFile {
  /** Relative to the app. */
  path: string;
  /** Relative to `templates/`. */
  template: string;
}

/** An edit of a file that may exist: the new text, or why it was left alone (or, when it does not parse, where). */
export type FileEdit = { path: string } & EditResult;

export interface FrameworkLayout {
  id: Framework;
  /** Shown to people: "SvelteKit". */
  name: string;
  /** The auth routes' prefix, for callback URLs. */
  authPath: string;
  /** The dev server's origin, for next steps. */
  devOrigin: string;
  /** Files `detect`/the plan must read (beyond the common ones). */
  paths: readonly string[];
  /** The sign-in page auth-init writes, with a form per provider. */
  signInPage: string;
  /** One line of that page's code: the form for an OAuth or email provider added later (`auth add-provider`). */
  signInButton(provider: { id: string; name: string; type?: string }): string;
  /** The module whose `signIn` runs a passkey sign-in in the browser. */
  clientModule: string;
  /**
   * Where a file the templates name (`src/lib/server/db.ts`) goes in this app:
   * its source folders, its language (`.js` for `.ts` in a JavaScript app).
   */
  place(path: string): string;
  /** The config module: `src/auth.ts`, placed. */
  authConfig: string;
  /** Template values only this framework sets (env access, module paths). */
  data: TemplateData;
  newFiles(data: InitTemplateData, project: ProjectSnapshot): NewFile[];
  edits(project: ProjectSnapshot, data: InitTemplateData): FileEdit[];
  /** Packages the pages auth-init writes import (name -> version range), added when package.json lacks them. */
  dependencies?(): Record<string, string>;
  /** package.json scripts to add when the app lacks them. */
  scripts(project: ProjectSnapshot): Record<string, string>;
  /** Steps only this framework needs: `setup` comes before starting the dev server, `production` after. */
  nextSteps?(project: ProjectSnapshot, run: (script: string) => string): { setup: string[]; production: string[] };
}

/** What a layout may depend on beyond the answers (SolidStart 1 and 2 differ in config file and dev port). */
export interface LayoutContext {
  /** The framework's major version, from its range in package.json when it says. */
  major?: number;
  /** The Node.js running auth-init ("20.19.0"), for what the framework needs of it. */
  nodeVersion?: string;
  /** The app; absent when only listing the paths a plan may read. */
  project?: ProjectSnapshot;
  /** Where the app keeps its source, and in which language (SvelteKit reads it from its config). */
  source?: SourceLayout;
}

/** The rate limit stores a generated db module may export. */
export type { RateLimitStoreName };

/** The values every template sees. */
export interface InitTemplateData extends TemplateData {
  credentials: boolean;
  hasAdapter: boolean;
  pglite: boolean;
  postgres: boolean;
  sqlite: boolean;
  hostedStore: boolean;
  /** The runtime's migrations folder of the adapter: postgres, sqlite or hosted-store. */
  migrationsDir: string;
  strategy: string;
  providerImports: string;
  /** At least one OAuth/OIDC provider: refused OAuth sign-ins come back to the app's sign-in page. */
  oauth: boolean;
  oauthProviders: { id: string; name: string; importName: string }[];
  /** The email provider (a sign-in link by mail): a form with an email field. */
  email: boolean;
  /** Mail goes out through nodemailer (email links, or the Password provider's confirmation and reset links). */
  sendsMail: boolean;
  /** The passkey provider: `experimental.enableWebAuthn`, a button on the sign-in page, "Add a passkey" on the protected page. */
  passkey: boolean;
  /** Refused sign-ins come back to the app's sign-in page (`pages.signIn`) with `?error=`, which it shows. */
  signInPageErrors: boolean;
  /** Error types with a message of their own on the sign-in page (OAuth's, email's); otherwise one message for all. */
  errorMessages: boolean;
  /**
   * Two or more of password, email link and passkey: each form, with its own
   * Email field, gets a heading saying which way it signs in.
   */
  methodHeadings: boolean;
  /** The sign-in page has a form with fields (password, email link, passkey), not only provider buttons. */
  signInFields: boolean;
  /** Where the sign-in page puts an "or": before the email link form, the passkey form, the provider buttons. */
  separators: { email: boolean; passkey: boolean; oauth: boolean };
  /** The `/account` page (a database holds the account); sign-in lands there. */
  accountPage: boolean;
  /** Where a sign-in without a destination lands: `/account`, or `/` without an account page. */
  home: string;
  /**
   * Passwords or email links: the config limits their attempts per email
   * address and per client address (`rateLimit: { ip: 100 }`); behind a proxy,
   * `AUTH_CLIENT_ADDRESS_HEADER` names the header that holds the visitor's.
   */
  rateLimit: boolean;
  /**
   * The rate limit store the db module exports as `rateLimitStore` (its database
   * several processes may share), which `rateLimit` counts in; "" for process memory.
   */
  rateLimitStore: RateLimitStoreName | "";
  /** The comment above the db module's `rateLimitStore`, one line each. */
  rateLimitStoreComment: readonly string[];
  /** The comment above `rateLimit`, one line each: the one `auth add-provider email` writes. */
  rateLimitComment: readonly string[];
  /** The providers the config lists bare (the runtime reads their env itself): all but credentials, in order. */
  bareProviders: { importName: string }[];
  minPasswordLength: number;
  pgliteDir: string;
  sqlitePath: string;
  /** `--adapter drizzle`: the app's Drizzle schema holds the auth tables, and `auth-db` puts the adapter on its connection. */
  drizzle: boolean;
  /** `--adapter prisma`: the app's Prisma schema holds the auth models, and `auth-db` puts the adapter on its Prisma Client. */
  prisma: boolean;
  /** `--adapter kysely`: the app's migrations folder holds the runtime's Kysely migrations, and `auth-db` puts the adapter on its Kysely instance. */
  kysely: boolean;
  /** The module under `src/lib/server/` that exports `adapter` and `closeDatabase`: `db`, or `auth-db` beside the app's own database module (Drizzle, Prisma, Kysely). */
  dbModuleName: string;
}
