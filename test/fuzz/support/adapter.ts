/**
 * The memory adapter as the fuzzed handler sees it: every write recorded in a
 * ledger of net effects, and optionally one deliberate fault (a method that
 * throws an error whose message is a sentinel).
 */
import type { Adapter } from "@gatehouse/runtime";
import type { MemoryAdapterInstance } from "@gatehouse/runtime/adapters/memory";
import { ADAPTER_WRITES } from "../../helpers.js";
import { ADAPTER_FAULT } from "./sentinels.js";

/** Methods whose `null`/`undefined` answer means nothing was there, so nothing changed. */
const CHANGES_ONLY_WHEN_FOUND = new Set(["deleteUser", "unlinkAccount", "updateAccount", "updateSession", "deleteSession", "useVerificationToken"]);

/**
 * What the writes of one request did, net: a verification token created and
 * taken back in the same request (a link whose mail could not be sent) cancels out.
 */
export class WriteLedger {
  private readonly effects: string[] = [];
  private readonly tokens = new Map<string, number>();
  /** Every address written: users' emails and sign-in links' identifiers. */
  readonly addresses: string[] = [];

  /** Forgets everything: the next request starts a new account. */
  reset(): void {
    this.effects.length = 0;
    this.tokens.clear();
    this.addresses.length = 0;
  }

  record(method: string, args: unknown[], result: unknown): void {
    if (!ADAPTER_WRITES.has(method)) return;
    const written = args[0] as { email?: unknown; identifier?: unknown } | undefined;
    for (const address of [written?.email, method === "createVerificationToken" ? written?.identifier : undefined]) {
      if (typeof address === "string") this.addresses.push(address);
    }
    if (CHANGES_ONLY_WHEN_FOUND.has(method) && (result === null || result === undefined)) return;
    if (method === "createVerificationToken" || method === "useVerificationToken") {
      const { identifier, token } = args[0] as { identifier: string; token: string };
      const key = JSON.stringify([identifier, token]);
      this.tokens.set(key, (this.tokens.get(key) ?? 0) + (method === "createVerificationToken" ? 1 : -1));
      return;
    }
    // Reading a session past its expiry removes it (the spec's transition table), whatever the answer.
    if (method === "deleteSession" && new Date((result as { expires: Date }).expires).valueOf() <= Date.now()) {
      this.effects.push("deleteSession(expired)");
      return;
    }
    this.effects.push(method);
  }

  /** The writes that changed the store, e.g. `["createSession"]`; empty when the store is as before. */
  net(): string[] {
    const tokens = [...this.tokens].filter(([, count]) => count !== 0).map(([key, count]) => `verificationToken ${key} ${count > 0 ? "created" : "used"}`);
    return [...this.effects, ...tokens];
  }
}

export interface FaultSpec {
  /** The method that fails; `undefined`: whichever method the request calls. */
  method: string | undefined;
  /** The call (0-based) of `method` (or of any method) that throws. */
  onCall: number;
  /** Every call from `onCall` on throws, not just that one. */
  sticky: boolean;
}

export interface FaultState {
  spec?: FaultSpec;
  fired: boolean;
  /** Adapter calls the request made (for coverage counts). */
  calls: number;
}

/** `memory` behind a proxy that records writes in `ledger` and throws the planned fault. */
export function observedAdapter(memory: MemoryAdapterInstance, ledger: WriteLedger, fault: FaultState): Adapter {
  const calls = new Map<string, number>();
  return new Proxy(memory, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return async (...args: unknown[]) => {
        fault.calls++;
        const counter = fault.spec?.method === undefined ? "*" : property;
        const index = calls.get(counter) ?? 0;
        calls.set(counter, index + 1);
        const { spec } = fault;
        if (spec && (spec.method ?? property) === property && (index === spec.onCall || (spec.sticky && index > spec.onCall))) {
          fault.fired = true;
          throw new Error(ADAPTER_FAULT);
        }
        const result = await (value as (...a: unknown[]) => unknown).apply(target, args);
        ledger.record(property, args, result);
        return result;
      };
    },
  });
}

/** Methods the flows call, to aim a fault at. */
export const FAULTABLE_METHODS = [
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "createUser",
  "createUserWithAccount",
  "updateUser",
  "linkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
] as const;
