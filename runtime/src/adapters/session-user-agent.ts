/**
 * The `User-Agent` a session keeps (`createSession`) for the user's list of
 * sessions: at most 512 characters, none for an empty one. One rule for the
 * handler, which passes it, and the adapters, which store it.
 */
export const MAX_USER_AGENT_LENGTH = 512;

export function storedUserAgent(value: string | null | undefined): string | null {
  return typeof value === "string" && value !== "" ? value.slice(0, MAX_USER_AGENT_LENGTH) : null;
}
