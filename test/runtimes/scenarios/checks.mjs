/**
 * The scenarios' assertions, without a test framework: they run inside Bun, Deno
 * and workerd too. Each throws an Error that says what was checked, what was
 * expected and what came; each counts, so a scenario that checked nothing fails.
 */
export class Checks {
  /** How many checks passed. */
  count = 0;

  /** `condition` holds. */
  ok(condition, what) {
    if (!condition) throw new Error(`${what}: not so`);
    this.count += 1;
  }

  /** Equal as JSON (objects compared by value, key order included). */
  equal(actual, expected, what) {
    const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
    if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
    this.count += 1;
  }

  /** A string that matches `pattern`. */
  match(actual, pattern, what) {
    if (typeof actual !== "string" || !pattern.test(actual)) throw new Error(`${what}: expected to match ${pattern}, got ${JSON.stringify(actual)}`);
    this.count += 1;
  }

  /** A cookie set with the attributes every auth cookie has: HttpOnly, SameSite=Lax, Path=/, no Domain. */
  authCookie(cookie, name, { secure = false } = {}) {
    if (!cookie) throw new Error(`cookie ${name}: not set`);
    this.equal(
      { name: cookie.name, httponly: cookie.attributes.httponly, samesite: cookie.attributes.samesite, path: cookie.attributes.path, domain: cookie.attributes.domain, secure: cookie.attributes.secure },
      { name, httponly: true, samesite: "Lax", path: "/", secure: secure || undefined },
      `cookie ${name}'s attributes`,
    );
  }

  /** A redirect to `expected` (an absolute URL). */
  redirect(response, expected, what) {
    this.equal({ status: response.status, location: response.headers.get("location") }, { status: 302, location: expected }, what);
  }
}
