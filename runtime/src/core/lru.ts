/**
 * A bounded map that keeps what was used recently, in two generations (the
 * scheme of quick-lru): reads and writes go to the young map; once it holds
 * half the bound it becomes the old one, and the old one is dropped. Reading an
 * old entry moves it back to the young map. A hit on a young entry is a single
 * lookup: a strict LRU re-inserts on every hit, which on the session read's
 * cache (keyed by long tokens) cost more than the rest of the lookup.
 *
 * Holds at most `max` entries. An entry read or written within the last
 * `max / 2` writes is never dropped; the others go in bulk, oldest generation first.
 */
export class LruCache<K, V> {
  readonly #half: number;
  #young = new Map<K, V>();
  #old = new Map<K, V>();

  constructor(max: number) {
    this.#half = Math.max(1, Math.floor(max / 2));
  }

  get(key: K): V | undefined {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.#putYoung(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    this.#old.delete(key);
    this.#putYoung(key, value);
  }

  delete(key: K): void {
    this.#young.delete(key);
    this.#old.delete(key);
  }

  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** A key is in one generation at most: the caller took it out of the old one. */
  #putYoung(key: K, value: V): void {
    if (this.#young.size >= this.#half && !this.#young.has(key)) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }
}
