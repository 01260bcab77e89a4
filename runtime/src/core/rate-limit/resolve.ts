/**
 * `rateLimit` validated once with the config. A wrong value is a configuration
 * error naming the option: a limit that silently does nothing is worse than none.
 */
import { InvalidConfig } from "../errors/errors.js";
import { HTTP_TOKEN } from "../http/cookies.js";
import { ownClientAddress } from "./client-address.js";
import { MemoryRateLimitStore } from "./memory-store.js";
import type { RateLimitOptions, RateLimitStore } from "./types.js";

const DEFAULT_WINDOW = 15 * 60;
const DEFAULT_IP_LIMIT = 30;
const DEFAULT_IDENTIFIER_LIMIT = 5;
const DEFAULT_IDENTIFIER_FIELDS = ["email", "username"];

export interface ResolvedRateLimit {
  window: number;
  ip: number | false;
  identifier: number | false;
  identifierFields: readonly string[];
  store: RateLimitStore;
  clientAddress?: RateLimitOptions["clientAddress"];
  /** Set once the "no client address" warning was logged: once per config is enough. */
  warnedNoAddress: boolean;
}

export function resolveRateLimit(options: RateLimitOptions | undefined): ResolvedRateLimit | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== "object") {
    throw new InvalidConfig(`rateLimit is ${JSON.stringify(options)}; it must be an object (\`{}\` for the defaults) or left out.`);
  }
  const ip = limit(options.ip, "rateLimit.ip", DEFAULT_IP_LIMIT);
  const identifier = limit(options.identifier, "rateLimit.identifier", DEFAULT_IDENTIFIER_LIMIT);
  if (ip === false && identifier === false) {
    throw new InvalidConfig("rateLimit.ip and rateLimit.identifier are both false: nothing would be limited. Leave rateLimit out to turn it off.");
  }
  const { store, clientAddress } = options;
  if (store !== undefined && (typeof store !== "object" || store === null || typeof store.hit !== "function" || typeof store.reset !== "function")) {
    throw new InvalidConfig("rateLimit.store must be a rate limit store: an object with hit(key, windowSeconds) and reset(key).");
  }
  if (clientAddress !== undefined && typeof clientAddress !== "function") {
    throw new InvalidConfig("rateLimit.clientAddress must be a function of the request that returns the client's address.");
  }
  const header = options.clientAddressHeader;
  if (header !== undefined && (typeof header !== "string" || !HTTP_TOKEN.test(header))) {
    throw new InvalidConfig(
      `rateLimit.clientAddressHeader (AUTH_CLIENT_ADDRESS_HEADER) is ${JSON.stringify(header)}; it must be the name of the header your proxy sets, e.g. "x-forwarded-for".`,
    );
  }
  return {
    window: positiveInteger(options.window, "rateLimit.window", DEFAULT_WINDOW, "seconds"),
    ip,
    identifier,
    identifierFields: fields(options.identifierFields),
    // Created here, once per config: a store per request would count nothing.
    store: store ?? MemoryRateLimitStore(),
    clientAddress: ownClientAddress(options),
    warnedNoAddress: false,
  };
}

function limit(value: unknown, name: string, fallback: number): number | false {
  return value === false ? false : positiveInteger(value, name, fallback, "attempts, or false");
}

function positiveInteger(value: unknown, name: string, fallback: number, unit: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidConfig(`${name} is ${typeof value === "number" ? String(value) : JSON.stringify(value) ?? String(value)}; it must be a positive whole number of ${unit}.`);
  }
  return value;
}

function fields(value: unknown): readonly string[] {
  if (value === undefined) return DEFAULT_IDENTIFIER_FIELDS;
  if (!Array.isArray(value) || value.length === 0 || !value.every((field) => typeof field === "string" && field !== "")) {
    throw new InvalidConfig(`rateLimit.identifierFields is ${JSON.stringify(value)}; it must be a non-empty list of form field names.`);
  }
  return [...value];
}
