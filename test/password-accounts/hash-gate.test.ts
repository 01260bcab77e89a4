/**
 * Issue 19, item 5: password hashing is bounded. Every sign-in with a made-up
 * address costs a full hash; a flood of them queued without end on the thread
 * pool and slowed every request of the server. A few hashes run at once, a
 * bounded line waits, and past it a hash is refused at once: the handler
 * answers 429 with Retry-After, stores nothing, and the line drains.
 */
import { describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { hashPassword, passwordMatches, PasswordHashingBusy } from "@gatehouse/runtime/password";
import { Credentials } from "@gatehouse/runtime/providers";
import { HashGate, passwordHashGate } from "../../runtime/src/core/password/gate.js";
import { call, captureLogger, CookieJar, csrfToken, SECRET } from "../helpers.js";
import { passwordProvider, signIn, signUp } from "./support/flow.js";
import { usePasswordWorld } from "./support/world.js";

const world = usePasswordWorld();

/** A promise and the function that settles it. */
function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe("HashGate", () => {
  it("runs at most `concurrency` tasks at once, in arrival order, and refuses at once past the line", async () => {
    const gate = new HashGate(2, 3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const holds = Array.from({ length: 5 }, () => deferred());
    const tasks = holds.map((hold, i) =>
      gate.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await hold.promise;
        running--;
        return i;
      }),
    );
    await expect(gate.run(async () => "sixth")).rejects.toBeInstanceOf(PasswordHashingBusy);
    expect(started).toEqual([0, 1]);
    for (const hold of holds) hold.release();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    // Drained: room again.
    expect(await gate.run(async () => "later")).toBe("later");
  });

  it("a task that fails frees its slot for the next", async () => {
    const gate = new HashGate(1, 1);
    const failing = gate.run(async () => {
      throw new Error("boom");
    });
    const next = gate.run(async () => "next");
    await expect(failing).rejects.toThrow("boom");
    expect(await next).toBe("next");
    expect(await gate.run(async () => "again")).toBe("again");
  });
});

describe("@gatehouse/runtime/password goes through the gate", () => {
  it("a burst of checks beyond the slots and the line: the rest are refused with PasswordHashingBusy, none run past the bound", async () => {
    // Cheap parameters (2^4) so the burst costs nothing; the gate does not look at them.
    const stored = "$scrypt$ln=4,r=8,p=1$c2FsdHNhbHRzYWx0$" + Buffer.alloc(32, 1).toString("base64").replace(/=+$/, "");
    const burst = 200;
    const results = await Promise.allSettled(Array.from({ length: burst }, () => passwordMatches("password", stored)));
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused.length).toBe(burst - passwordHashGate.concurrency - passwordHashGate.queue);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(PasswordHashingBusy);
    expect(results.filter((r) => r.status === "fulfilled").every((r) => (r as PromiseFulfilledResult<boolean>).value === false)).toBe(true);
  });
});

describe("through the handler, while every slot and the line are taken", () => {
  /** Takes the real gate's slots and line with held tasks; `release` lets them go. */
  async function fillGate() {
    const hold = deferred();
    const holders = Array.from({ length: passwordHashGate.concurrency + passwordHashGate.queue }, () => passwordHashGate.run(() => hold.promise));
    return { release: async () => (hold.release(), await Promise.all(holders)) };
  }

  it("password sign-in and sign-up answer 429 with Retry-After: 1, sign nobody in and store nothing; afterwards they work", async () => {
    const adapter = MemoryAdapter();
    const logs = captureLogger();
    const config: AuthConfig = { secret: SECRET, trustHost: true, adapter, logger: logs.logger, providers: [passwordProvider(world.mail)] };
    const gate = await fillGate();
    try {
      const jar = new CookieJar();
      const signedIn = await signIn(config, jar, "nobody@example.com", "a long password 1");
      expect(signedIn.status).toBe(429);
      expect(signedIn.headers.get("retry-after")).toBe("1");
      expect(jar.get("authjs.session-token")).toBeUndefined();

      const signedUp = await signUp(config, jar, "new@example.com", "a long password 1");
      expect(signedUp.status).toBe(429);
      expect(await adapter.getUserByEmail("new@example.com")).toBeNull();
      expect(world.mail.messages).toHaveLength(0);
      expect(logs.errors).toEqual([]);
    } finally {
      await gate.release();
    }
    expect((await signUp(config, new CookieJar(), "new@example.com", "a long password 1")).status).toBe(302);
    expect(await adapter.getUserByEmail("new@example.com")).not.toBeNull();
  });

  it("an app's own authorize that checks with passwordMatches: 429, not a 500", async () => {
    const stored = await hashPassword("right password");
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: async (c) => ((await passwordMatches(String(c.password), stored)) ? { id: "1", email: "a@example.com" } : null) })],
    };
    const gate = await fillGate();
    try {
      const jar = new CookieJar();
      const token = await csrfToken(config, jar);
      const response = await call(config, "/auth/callback/credentials", { jar, form: { email: "a@example.com", password: "right password", csrfToken: token } });
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(jar.get("authjs.session-token")).toBeUndefined();
    } finally {
      await gate.release();
    }
  });
});
