/**
 * Calling the adapter: which methods each part of the config needs (checked when
 * the config is resolved), and one wrapper that turns a failing call into an
 * `AdapterError` naming the method, with the driver's error as the cause.
 */
import type { Adapter } from "../adapters/types.js";
import { AdapterError, MissingAdapterMethods } from "./errors/errors.js";
import type { ResolvedProvider } from "./config/providers.js";
import { forgetSessionVersion } from "./session/version-cache.js";

type Method = keyof Adapter;

const FOR_DATABASE_SESSIONS: Method[] = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"];
const FOR_PROVIDER_TYPE: Record<ResolvedProvider["type"], Method[]> = {
  credentials: [],
  oauth: ["getUserByAccount", "getUserByEmail", "createUser", "linkAccount"],
  oidc: ["getUserByAccount", "getUserByEmail", "createUser", "linkAccount"],
  email: ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser", "getUserByAccount", "linkAccount"],
  webauthn: [
    "getUser",
    "getUserByEmail",
    "createUser",
    "linkAccount",
    "getAuthenticator",
    "createAuthenticator",
    "listAuthenticatorsByUserId",
    "updateAuthenticatorCounter",
  ],
};

/** Password accounts: their users, hashes and links, and the hand-over of a claimed address to its prover. */
const FOR_PASSWORDS: Method[] = [
  "getUser",
  "getUserByEmail",
  "createUserWithPassword",
  "getUserPassword",
  "setUserPassword",
  "updateUser",
  "deleteUser",
  "adoptUnprovenUser",
  "createVerificationToken",
  "useVerificationToken",
];

/** Throws `MissingAdapterMethods` naming every method the configured flows need but the adapter lacks. */
export function checkAdapterMethods(adapter: Adapter, strategy: "jwt" | "database", providers: ResolvedProvider[]): void {
  const needed = new Map<Method, string>();
  const need = (methods: Method[], why: string) => methods.forEach((m) => needed.has(m) || needed.set(m, why));
  if (strategy === "database") {
    need(FOR_DATABASE_SESSIONS, 'session.strategy "database"');
    // A credentials user must exist in the adapter for its database session to find it.
    if (providers.some((p) => p.type === "credentials")) need(["getUser"], "credentials with database sessions");
  }
  for (const provider of providers) need(FOR_PROVIDER_TYPE[provider.type], `the ${provider.type} provider "${provider.id}"`);
  for (const provider of providers) if (provider.password) need(FOR_PASSWORDS, `the Password provider "${provider.id}"`);
  const missing = [...needed].filter(([method]) => typeof adapter[method] !== "function");
  if (missing.length > 0) {
    throw new MissingAdapterMethods(
      `The adapter lacks ${missing.map(([method, why]) => `${method} (for ${why})`).join(", ")}. Implement them, or use an adapter that has them.`,
    );
  }
}

/**
 * The calls that can move a user's session version (their first argument is the
 * user's id): after each, this process reads the version afresh (version-cache.ts).
 */
const MOVES_SESSION_VERSION = new Set<Method>(["revokeUserSessions", "setUserPassword", "deleteUser", "adoptUnprovenUser"]);

/**
 * Calls `adapter[method]`; a throw becomes an `AdapterError` that names the method.
 * A call that can move a session version forgets the one kept, also when it throws
 * (the write may have landed before the error).
 */
export async function callAdapter<M extends Method>(
  adapter: Adapter,
  method: M,
  ...args: Parameters<NonNullable<Adapter[M]>>
): Promise<Awaited<ReturnType<NonNullable<Adapter[M]>>>> {
  const fn = adapter[method] as ((...a: unknown[]) => unknown) | undefined;
  if (typeof fn !== "function") throw new MissingAdapterMethods(`The adapter lacks ${method}.`);
  try {
    return (await fn.apply(adapter, args)) as Awaited<ReturnType<NonNullable<Adapter[M]>>>;
  } catch (error) {
    throw new AdapterError(`The adapter's ${method} failed.`, error as Error);
  } finally {
    if (MOVES_SESSION_VERSION.has(method) && typeof args[0] === "string") forgetSessionVersion(adapter, args[0]);
  }
}
