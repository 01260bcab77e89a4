import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { runDatabaseSessionTests } from "./database-sessions.js";

const adapter = MemoryAdapter();

runDatabaseSessionTests({
  name: "the memory adapter",
  setup: () => adapter,
  reset: () => adapter.clear(),
});
