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
  return error instanceof Error ? error.message : String(error);
}
