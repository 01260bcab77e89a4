/** Types of index.mjs, for the test's side. */
import type { ScenarioResult } from "./report.mjs";

/** What the scenarios get from the test: only loopback addresses. */
export interface MatrixContext {
  oidc: { issuer: string; clientId: string; clientSecret: string };
  /** `POST <agentUrl>/authorize` with `{ authorizationUrl, login }` answers `{ callbackUrl }` (the test's stand-in for the person's browser at the provider). */
  agentUrl: string;
  /** A fresh database on a PostgreSQL server; without it the PostgreSQL scenario reports itself skipped. */
  databaseUrl?: string;
  only?: string[];
  except?: string[];
}

export interface Scenario {
  id: string;
  title: string;
  /** The context field the scenario cannot run without. */
  needs?: "databaseUrl";
  /** The one runtime the scenario is about (`RuntimeId` of support/runtimes.ts). */
  only?: string;
}

export declare const scenarios: readonly Scenario[];
export declare function runScenarios(context: MatrixContext, report: (result: ScenarioResult) => void): Promise<void>;
