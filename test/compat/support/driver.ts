/**
 * Runs one scripted browser flow through two handlers (ours and `@auth/core`
 * 0.41.3) and reduces every answer to what a migrating app depends on, so a test
 * can compare the two step by step. Each handler gets its own config (from the
 * same factory: fresh adapter, fresh spies) and its own cookie jar, and every
 * request carries the cookies of the answers before it, as a browser's would.
 */
import { Auth as AuthJsOverloaded } from "@auth/core";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { CookieJar, ORIGIN, parseSetCookie, request, type RequestOptions } from "../../helpers.js";

export type Handler = (request: Request, config: AuthConfig) => Promise<Response>;

/** Auth.js's handler, typed for the plain-Response overload (our AuthConfig is structurally its own). */
export const authJsHandler = AuthJsOverloaded as unknown as Handler;
export const ourHandler: Handler = (req, config) => Auth(req, config as Omit<AuthConfig, "raw">);

/** What a step can build its request from: the answers so far in this handler's run. */
export interface FlowState {
  /** The last `csrfToken` a JSON body carried. */
  csrfToken: string | undefined;
  /** The previous step's Location, absolute. */
  location: URL | undefined;
  /** Whatever the config factory's spies captured (e.g. a mailed link). */
  captured: Record<string, string>;
}

export interface Step {
  name: string;
  /** A path on ORIGIN (query included), or an absolute URL on it. */
  path: string | ((state: FlowState) => string | Promise<string>);
  form?: (state: FlowState) => Record<string, string>;
  json?: (state: FlowState) => unknown;
}

/** One answer, reduced to what is compared. */
export interface Observed {
  step: string;
  status: number;
  statusClass: string;
  /** `origin + pathname` of the Location, or null. */
  location: string | null;
  /** The Location's query: values of the parameters that matter, `*` for the others (random per run). */
  query: Record<string, string>;
  cookies: ObservedCookie[];
  /** JSON bodies with per-run values (CSRF token, dates) replaced by their kind; `html` for pages. */
  body: unknown;
}

export interface ObservedCookie {
  name: string;
  /** "set" or "cleared". */
  op: "set" | "cleared";
  path: string | undefined;
  httpOnly: boolean;
  secure: boolean;
  sameSite: string | undefined;
  /** "max-age", "expires", both, or "session" (neither): how long the browser keeps it. */
  lifetime: string;
}

/** Query parameters whose values are the contract; the others are random per run (state, nonce, PKCE). */
const COMPARED_PARAMS = new Set([
  "error",
  "code",
  "callbackUrl",
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "code_challenge_method",
  "provider",
  "type",
]);

export interface FlowRun {
  observed: Observed[];
  jar: CookieJar;
  config: AuthConfig;
  responses: Response[];
}

/** Runs `steps` through `handler` with a fresh config from `makeConfig`. */
export async function runFlow(
  handler: Handler,
  makeConfig: (captured: Record<string, string>) => AuthConfig,
  steps: Step[],
  origin = ORIGIN,
): Promise<FlowRun> {
  const state: FlowState = { csrfToken: undefined, location: undefined, captured: {} };
  const config = makeConfig(state.captured);
  const jar = new CookieJar();
  const observed: Observed[] = [];
  const responses: Response[] = [];
  for (const step of steps) {
    const target = typeof step.path === "string" ? step.path : await step.path(state);
    const path = target.startsWith("http") ? pathOf(target) : target;
    const options: RequestOptions = { jar, origin };
    if (step.form) options.form = step.form(state);
    if (step.json) options.json = step.json(state);
    const response = await handler(request(path, options), config);
    jar.store(response);
    responses.push(response);
    const seen = await observe(step.name, response);
    observed.push(seen);
    const raw = seen.body as { csrfToken?: unknown } | null;
    if (raw && typeof raw === "object" && "csrfToken" in raw) state.csrfToken = (await response.clone().json()).csrfToken;
    const location = response.headers.get("location");
    state.location = location ? new URL(location, origin) : undefined;
  }
  return { observed, jar, config, responses };
}

/** Both runs of the same flow. */
export async function runSideBySide(
  makeConfig: (captured: Record<string, string>) => AuthConfig,
  steps: Step[],
  origin = ORIGIN,
): Promise<{ ours: FlowRun; theirs: FlowRun }> {
  const ours = await runFlow(ourHandler, makeConfig, steps, origin);
  const theirs = await runFlow(authJsHandler, makeConfig, steps, origin);
  return { ours, theirs };
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function observe(step: string, response: Response): Promise<Observed> {
  const location = response.headers.get("location");
  const url = location ? new URL(location, ORIGIN) : undefined;
  const query: Record<string, string> = {};
  for (const [key, value] of url?.searchParams ?? []) query[key] = COMPARED_PARAMS.has(key) ? value : "*";
  return {
    step,
    status: response.status,
    statusClass: `${Math.floor(response.status / 100)}xx`,
    location: url ? `${url.origin}${url.pathname}` : null,
    query,
    cookies: response.headers
      .getSetCookie()
      .map(observeCookie)
      .sort((a, b) => a.name.localeCompare(b.name)),
    body: await observeBody(response.clone()),
  };
}

function observeCookie(header: string): ObservedCookie {
  const { name, value, attributes } = parseSetCookie(header);
  const maxAge = attributes["max-age"];
  const expires = attributes.expires;
  const cleared = value === "" && (maxAge === "0" || String(expires).includes("1970") || (expires !== undefined && Date.parse(String(expires)) <= Date.now()));
  return {
    name,
    op: cleared ? "cleared" : "set",
    path: typeof attributes.path === "string" ? attributes.path : undefined,
    httpOnly: attributes.httponly === true,
    secure: attributes.secure === true,
    sameSite: typeof attributes.samesite === "string" ? attributes.samesite.toLowerCase() : undefined,
    lifetime: [maxAge !== undefined && "max-age", expires !== undefined && "expires"].filter(Boolean).join("+") || "session",
  };
}

async function observeBody(response: Response): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) return normalize(await response.json());
  if (type.includes("html")) return "html";
  const text = await response.text();
  return text === "" ? null : "text";
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Replaces values that differ per run by their kind, keeps everything else. */
export function normalize(value: unknown, key?: string): unknown {
  if (key === "csrfToken" && typeof value === "string") return "<csrf token>";
  if (typeof value === "string" && ISO_DATE.test(value)) return "<date>";
  if (Array.isArray(value)) return value.map((item) => normalize(item));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]));
  }
  return value;
}
