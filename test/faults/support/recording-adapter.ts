/**
 * The memory adapter with a record of every call that changes the store, so a
 * test can say "this failed sign-in wrote nothing" about any flow.
 */
import type { Adapter } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { recordAdapterCalls } from "../../helpers.js";

export interface RecordingAdapter {
  adapter: Adapter;
  /** Names of the write methods called, in order. */
  writes: string[];
}

export function recordingAdapter(): RecordingAdapter {
  const { adapter, writes } = recordAdapterCalls(MemoryAdapter());
  return { adapter, writes };
}
