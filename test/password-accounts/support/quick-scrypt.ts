/**
 * A stand-in for the runtime's scrypt module, for suites about what the
 * handler does with a password (who may sign in, which rows change, which
 * cookies are set), not about what a hash costs. The real cost (32 MiB,
 * p = 3 per hash) made these suites spend most of their time hashing; here a
 * key is scrypt at N = 16, r = 1, p = 1 whatever the stored parameters say,
 * so a hash still matches only its own password and salt, and the PHC string
 * still carries today's parameters (`passwordNeedsRehash` is unchanged).
 *
 * The real scrypt keeps its own tests: `test/runtime/password.test.ts`
 * (RFC 7914 vectors, both engines, the stored format) and
 * `test/password-accounts/hash-gate.test.ts` (concurrency at the real cost).
 *
 * Use it as a suite's first statement, before any import that reaches the runtime:
 *   vi.mock("../../runtime/src/core/password/scrypt.js", () => import("../password-accounts/support/quick-scrypt.js"));
 */
import { scrypt } from "node:crypto";
import type { ScryptParams } from "../../../runtime/src/core/password/phc.js";

export const defaultEngine = "node";

export function deriveKey(password: Uint8Array, salt: Uint8Array, _params: ScryptParams, length: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, { N: 16, r: 1, p: 1 }, (error, key) => (error ? reject(error) : resolve(new Uint8Array(key)))),
  );
}
