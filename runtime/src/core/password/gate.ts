/**
 * At most a few password hashes at once, and a bounded line behind them. A
 * hash costs tens of megabytes and a fifth of a second of a CPU on purpose; a
 * flood of sign-ins with made-up addresses (each a full hash, to look like a
 * real one) would otherwise queue without end on the thread pool the rest of
 * the server shares (files, DNS), and every page would wait. Past the line,
 * a hash is refused at once with `PasswordHashingBusy`, which the handler
 * answers like a rate limit (429, `Retry-After`).
 */

/** Every slot and the whole line are taken: try again in `retryAfter` seconds. */
export class PasswordHashingBusy extends Error {
  override name = "PasswordHashingBusy";
  readonly retryAfter = 1;
  constructor() {
    super("Too many passwords are being checked at once; try again in a moment.");
  }
}

export class HashGate {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /** `concurrency` hashes run at once; `queue` more may wait for a slot. */
  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {}

  /** Runs `task` in a slot, after those waiting before it; throws `PasswordHashingBusy` when the line is full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.concurrency) {
      if (this.#waiting.length >= this.queue) throw new PasswordHashingBusy();
      // The slot is handed over by the task that frees it, so #running never dips and lets a newcomer jump the line.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/**
 * Hashes at once: Node runs scrypt on its thread pool of 4, which files and
 * DNS share; more than the CPUs can do at once only makes every hash slower.
 */
const HASHES_AT_ONCE = Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 2));
/** Hashes waiting for a slot: a few seconds of work. Past them, `PasswordHashingBusy` at once. */
const HASHES_WAITING = 64;

/** The gate every hash and check of `@gatehouse/runtime/password` goes through. */
export const passwordHashGate = new HashGate(HASHES_AT_ONCE, HASHES_WAITING);
