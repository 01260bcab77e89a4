/** A database session on the memory adapter. */
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { databaseSessionFlow } from "./database-session.mjs";

export async function memorySession(t) {
  await databaseSessionFlow(t, MemoryAdapter(), "grace@example.com");
}
