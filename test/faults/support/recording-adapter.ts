/**
 * The memory adapter with a record of every call that changes the store, so a
 * test can say "this failed sign-in wrote nothing" about any flow.
 */
import type { Adapter } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { ADAPTER_WRITES } from "../../helpers.js";

export interface RecordingAdapter {
  adapter: Adapter;
  /** Names of the write methods called, in order. */
  writes: string[];
}

export function recordingAdapter(): RecordingAdapter {
  const inner = MemoryAdapter() as unknown as Record<string, unknown>;
  const writes: string[] = [];
  const adapter: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(inner)) {
    if (typeof method !== "function") continue;
    adapter[name] = (...args: unknown[]) => {
      if (ADAPTER_WRITES.has(name)) writes.push(name);
      return (method as (...a: unknown[]) => unknown).apply(inner, args);
    };
  }
  return { adapter: adapter as Adapter, writes };
}
