/**
 * Maps a request path and method to an action. Anything outside the table is a
 * client error (400) with a message that says what exists.
 */
import type { AuthAction } from "../../types.js";
import { UnknownAction } from "../errors/errors.js";

type Method = "GET" | "POST";

const ROUTES: Record<AuthAction, readonly Method[]> = {
  account: ["GET"],
  callback: ["GET", "POST"],
  "change-password": ["POST"],
  csrf: ["GET"],
  "delete-account": ["POST"],
  error: ["GET"],
  "forgot-password": ["GET", "POST"],
  providers: ["GET"],
  "remove-passkey": ["POST"],
  "rename-passkey": ["POST"],
  "reset-password": ["GET", "POST"],
  "revoke-other-sessions": ["POST"],
  "revoke-session": ["POST"],
  session: ["GET", "POST"],
  signin: ["GET", "POST"],
  signout: ["GET", "POST"],
  signup: ["GET", "POST"],
  "unlink-account": ["POST"],
  "update-profile": ["POST"],
  "verify-request": ["GET"],
  "webauthn-options": ["GET"],
};

/** Whether `value` is an action the handler answers (`signin`, `session`, ...), as Auth.js's `isAuthAction`. */
export function isAuthAction(value: unknown): value is AuthAction {
  return typeof value === "string" && Object.hasOwn(ROUTES, value);
}

/** Whether `pathname` names an action under `basePath`: framework glue passes only these to the handler. */
export function isAuthPath(pathname: string, basePath: string): boolean {
  if (!pathname.startsWith(`${basePath}/`)) return false;
  const end = pathname.indexOf("/", basePath.length + 1);
  const action = pathname.slice(basePath.length + 1, end === -1 ? undefined : end);
  return Object.hasOwn(ROUTES, action);
}

/** Actions that answer JSON rather than a page or a redirect, also when they fail. */
export const JSON_ACTIONS: ReadonlySet<string> = new Set<AuthAction>(["account", "session", "csrf", "providers", "webauthn-options"]);

/** Actions whose path may name a provider: `signin/<id>`, `callback/<id>`, `webauthn-options/<id>`. */
const WITH_PROVIDER = new Set<AuthAction>(["signin", "callback", "webauthn-options"]);

const SLASH = 0x2f;

export interface Route {
  action: AuthAction;
  method: Method;
  providerId?: string;
}

export function route(pathname: string, method: string, basePath: string): Route {
  // Cut with indexOf, not split and destructuring: this runs on every request.
  const start = basePath.length + 1;
  if (!pathname.startsWith(basePath) || pathname.charCodeAt(start - 1) !== SLASH) {
    throw new UnknownAction(`${pathname} is outside the auth base path ${basePath || "/"}.`);
  }
  // One trailing slash is harmless; any other empty segment is not a known path.
  const end = pathname.length > start + 1 && pathname.charCodeAt(pathname.length - 1) === SLASH ? pathname.length - 1 : pathname.length;
  const slash = pathname.indexOf("/", start);
  const action = pathname.slice(start, slash === -1 || slash > end ? end : slash);
  if (!Object.hasOwn(ROUTES, action)) {
    throw new UnknownAction(`Unknown action ${JSON.stringify(action)}. Actions: ${Object.keys(ROUTES).join(", ")}.`);
  }
  const known = action as AuthAction;
  const providerId = slash === -1 || slash >= end ? undefined : pathname.slice(slash + 1, end);
  if (providerId !== undefined && (providerId === "" || providerId.includes("/") || !WITH_PROVIDER.has(known))) {
    throw new UnknownAction(`${pathname} is not an auth path.`);
  }
  const methods = ROUTES[known];
  // HEAD is GET without a body (servers drop it): link checkers and frameworks send it.
  const asMethod = method === "HEAD" ? "GET" : method;
  if (!methods.includes(asMethod as Method)) {
    throw new UnknownAction(`${known} does not take ${method}; it takes ${methods.join(" or ")}.`);
  }
  return { action: known, method: asMethod as Method, providerId };
}
