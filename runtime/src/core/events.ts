/** Events are notifications: one that throws is logged and never breaks the flow. */
import type { EventCallbacks } from "../types.js";
import type { ResolvedConfig } from "./config/config.js";
import { EventError } from "./errors/errors.js";

export async function emit<Name extends keyof EventCallbacks>(
  config: ResolvedConfig,
  name: Name,
  message: Parameters<NonNullable<EventCallbacks[Name]>>[0],
): Promise<void> {
  const handler = config.events[name] as ((message: unknown) => unknown) | undefined;
  if (!handler) return;
  try {
    await handler(message);
  } catch (error) {
    config.logger.error(new EventError(`The ${name} event handler threw.`, error as Error));
  }
}
