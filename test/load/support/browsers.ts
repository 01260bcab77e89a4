/** Small helpers for the many browsers of a load test. */
import type { CookieJar } from "../../helpers.js";

export const SESSION_COOKIE = "authjs.session-token";

/** `items` repeated `times` times, round-robin (a, b, c, a, b, c, ...): each person's browsers spread through the burst. */
export function interleave<T>(items: T[], times: number): T[] {
  return Array.from({ length: times }, () => items).flat();
}

/** The database session token a browser holds; throws when it holds none. */
export function sessionTokenOf(jar: CookieJar): string {
  const token = jar.get(SESSION_COOKIE);
  if (!token) throw new Error(`the browser holds no ${SESSION_COOKIE} cookie`);
  return token;
}
