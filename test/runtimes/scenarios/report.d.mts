/** Types of report.mjs, for the test's side (the scenarios themselves are plain JavaScript: they run in every runtime). */
export type ScenarioResult = { id: string; ok: true; checks: number } | { id: string; ok: false; error: string } | { id: string; skipped: string };
export interface RuntimeEvent {
  runtime: string;
  nodeBuiltins: boolean;
}
export type ReportEvent = ScenarioResult | RuntimeEvent | { done: true };
export declare const REPORT_MARK: string;
export declare function reportLine(event: ReportEvent): string;
export declare function runtimeEvent(): RuntimeEvent;
