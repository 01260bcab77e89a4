/** A log-friendly line for what oauth4webapi threw: the server's `error` code when it sent one. */
import * as o from "oauth4webapi";

export function describeOAuthError(error: unknown): string {
  if (error instanceof o.ResponseBodyError) {
    return `the provider answered ${error.status} ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`;
  }
  if (error instanceof o.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0];
    const code = challenge?.parameters.error;
    return `the provider answered ${error.status}${code ? ` ${code}` : ""}${challenge?.parameters.error_description ? ` (${challenge.parameters.error_description})` : ""}`;
  }
  if (error instanceof o.OperationProcessingError && error.cause instanceof Response) {
    // "not a conform response" or "not JSON": what the server actually sent is the useful part.
    const type = error.cause.headers.get("content-type");
    return `${error.message}; it answered HTTP ${error.cause.status}${type ? ` (${type})` : ""}`;
  }
  if (!(error instanceof Error)) return String(error);
  // undici says only "fetch failed"; why (refused, reset, DNS) is in its cause.
  if (error.message === "fetch failed" && error.cause instanceof Error) return `fetch failed (${error.cause.message})`;
  return error.message;
}
