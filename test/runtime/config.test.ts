/**
 * Config resolution: configuration errors (500, generic to the browser, detailed in
 * `logger.error`), `setEnvDefaults`, no mutation of the user's objects, and no state
 * shared between two configs in one process.
 */
import { describe, expect, it } from "vitest";
import { Auth, setEnvDefaults, type AuthConfig } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";
import {
  CookieJar,
  OLD_SECRET,
  ORIGIN,
  SECRET,
  USER,
  call,
  captureLogger,
  credentialsConfig,
  csrfToken,
  isCleared,
  request,
  setCookies,
  signInWithCredentials,
} from "../helpers.js";


const NEW_SECRET = "new-secret-new-secret-new-secret-0123456789zz";

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value)) return value;
  seen.add(value);
  for (const key of Reflect.ownKeys(value as object)) {
    const descriptor = Object.getOwnPropertyDescriptor(value as object, key);
    if (descriptor && "value" in descriptor) deepFreeze(descriptor.value, seen);
  }
  return Object.freeze(value);
}

/** A structural copy that keeps functions and symbols by reference, to compare before/after. */
function snapshot(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snapshot);
  if (value && typeof value === "object") {
    const out: Record<string | symbol, unknown> = {};
    for (const key of Reflect.ownKeys(value)) out[key] = snapshot((value as Record<string | symbol, unknown>)[key]);
    return out;
  }
  return value;
}

function sessionCookiesSet(response: Response): string[] {
  return setCookies(response)
    .filter((c) => c.name.includes("session-token") && c.value !== "")
    .map((c) => c.name);
}

/** Everything a small browser session does: csrf, sign in, read, update, sign out. */
async function fullFlow(config: AuthConfig, origin = ORIGIN) {
  const jar = new CookieJar();
  const csrfRes = await call(config, "/auth/csrf", { jar, origin });
  const { csrfToken: token } = (await csrfRes.json()) as { csrfToken: string };
  const signIn = await call(config, "/auth/callback/credentials", {
    jar,
    origin,
    form: { username: "ada", password: "correct horse", csrfToken: token },
  });
  const session = await call(config, "/auth/session", { jar, origin });
  const update = await call(config, "/auth/session", { jar, origin, json: { csrfToken: token, data: { theme: "dark" } } });
  const signOut = await call(config, "/auth/signout", { jar, origin, form: { csrfToken: token } });
  return { jar, token, csrfRes, signIn, session, update, signOut };
}

async function expectConfigurationJson(response: Response) {
  expect(response.status).toBe(500);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: string; message: string };
  expect(body.error).toBe("Configuration");
  expect(body.message.length).toBeGreaterThan(10);
  return body;
}

async function expectConfigurationPage(response: Response) {
  expect(response.status).toBe(500);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html).toContain("There is a problem with the server configuration");
  return html;
}

describe("secrets", () => {
  const shortSecret = "s".repeat(31);
  const cases: [string, Partial<AuthConfig>][] = [
    ["missing", { secret: undefined }],
    ["empty", { secret: "" }],
    ["of 31 characters", { secret: shortSecret }],
    ["of 31 characters inside an array", { secret: [SECRET, shortSecret] }],
  ];

  it.each(cases)("secret %s: /auth/session is a 500 Configuration JSON", async (_, overrides) => {
    const logs = captureLogger();
    const config = credentialsConfig({ ...overrides, logger: logs.logger });
    const res = await call(config, "/auth/session");
    const body = await expectConfigurationJson(res);
    expect(body.message).not.toContain(shortSecret);
    expect(setCookies(res)).toEqual([]);
  });

  it.each(cases)("secret %s: /auth/signin is the HTML error page with the Configuration text", async (_, overrides) => {
    const logs = captureLogger();
    const config = credentialsConfig({ ...overrides, logger: logs.logger });
    const res = await call(config, "/auth/signin");
    const html = await expectConfigurationPage(res);
    expect(html).not.toContain(shortSecret);
    expect(setCookies(res)).toEqual([]);
  });

  it.each(cases)("secret %s: logger.error receives a MissingSecret that says how to fix it", async (_, overrides) => {
    const logs = captureLogger();
    const config = credentialsConfig({ ...overrides, logger: logs.logger });
    await call(config, "/auth/session");
    expect(logs.errors).toHaveLength(1);
    const error = logs.errors[0]!;
    expect(error.name).toBe("MissingSecret");
    expect((error as { type?: string }).type).toBe("MissingSecret");
    expect(error.message).toContain("AUTH_SECRET");
    expect(error.message).toContain("32");
    // The secret itself never reaches the log.
    expect(error.message).not.toContain(shortSecret);
  });

  it("a bad secret is never used to sign anyone in", async () => {
    const logs = captureLogger();
    const config = credentialsConfig({ secret: "short", logger: logs.logger });
    const res = await call(config, "/auth/callback/credentials", {
      form: { username: "ada", password: "correct horse", csrfToken: "x" },
    });
    expect(res.status).toBe(500);
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it("a 32-character secret is accepted", async () => {
    const config = credentialsConfig({ secret: "x".repeat(32) });
    const jar = new CookieJar();
    const res = await signInWithCredentials(config, jar);
    expect(res.status).toBe(302);
    expect(sessionCookiesSet(res)).toEqual(["authjs.session-token"]);
  });
});

describe("untrusted host", () => {
  it("without trustHost and without url: 500 and UntrustedHost logged", async () => {
    const logs = captureLogger();
    const config = credentialsConfig({ trustHost: undefined, logger: logs.logger });
    const res = await call(config, "/auth/session");
    await expectConfigurationJson(res);
    expect(logs.errors.map((e) => e.name)).toEqual(["UntrustedHost"]);
    expect(logs.errors[0]!.message).toMatch(/trustHost|AUTH_TRUST_HOST/);
    expect(logs.errors[0]!.message).toContain("AUTH_URL");

    const page = await call(config, "/auth/signin");
    await expectConfigurationPage(page);
  });

  it("trustHost: false is untrusted too", async () => {
    const logs = captureLogger();
    const res = await call(credentialsConfig({ trustHost: false, logger: logs.logger }), "/auth/csrf");
    await expectConfigurationJson(res);
    expect(logs.errors[0]!.name).toBe("UntrustedHost");
    expect(setCookies(res)).toEqual([]);
  });

  it("a configured url makes the host trusted", async () => {
    const logs = captureLogger();
    const res = await call(credentialsConfig({ trustHost: undefined, url: ORIGIN, logger: logs.logger }), "/auth/session");
    expect(res.status).toBe(200);
    expect(logs.errors).toEqual([]);
  });
});

describe("invalid options are Configuration errors naming the option", () => {
  const cases: [string, () => AuthConfig, RegExp][] = [
    ["session.maxAge: -1", () => credentialsConfig({ session: { maxAge: -1 } }), /session\.maxAge/],
    ["session.strategy: \"nope\"", () => credentialsConfig({ session: { strategy: "nope" as never } }), /session\.strategy/],
    ["pages.signIn: \"javascript:alert(1)\"", () => credentialsConfig({ pages: { signIn: "javascript:alert(1)" } }), /pages\.signIn/],
    ["basePath: 5", () => credentialsConfig({ basePath: 5 as never }), /basePath/],
    [
      "duplicate provider ids",
      () => {
        const base = credentialsConfig();
        return { ...base, providers: [...base.providers, ...credentialsConfig().providers] };
      },
      /"credentials"[\s\S]*\bid\b|\bid\b[\s\S]*"credentials"/,
    ],
    [
      "a credentials provider object without authorize",
      () => ({ ...credentialsConfig(), providers: [{ id: "credentials", name: "Credentials", type: "credentials" } as never] }),
      /authorize/,
    ],
    [
      "Credentials() without authorize",
      () => ({ ...credentialsConfig(), providers: [Credentials({} as never)] }),
      /authorize/,
    ],
    [
      "session.strategy \"database\" without adapter",
      () => credentialsConfig({ session: { strategy: "database" } }),
      /adapter/,
    ],
  ];

  it.each(cases)("%s: 500 on /auth/session and /auth/signin, the option named in logger.error", async (_, make, names) => {
    const logs = captureLogger();
    const config = { ...make(), logger: logs.logger };
    await expectConfigurationJson(await call(config, "/auth/session"));
    await expectConfigurationPage(await call(config, "/auth/signin"));
    expect(logs.errors.length).toBeGreaterThanOrEqual(1);
    expect(logs.errors[0]!.message).toMatch(names);
  });

  it.each(cases)("%s: a sign-in POST stores nothing", async (_, make) => {
    const logs = captureLogger();
    const config = { ...make(), logger: logs.logger };
    const res = await call(config, "/auth/callback/credentials", {
      form: { username: "ada", password: "correct horse", csrfToken: "x" },
    });
    expect(res.status).toBe(500);
    expect(setCookies(res)).toEqual([]);
  });

  it("database strategy without adapter is logged as MissingAdapter", async () => {
    const logs = captureLogger();
    await call(credentialsConfig({ session: { strategy: "database" }, logger: logs.logger }), "/auth/session");
    expect(logs.errors[0]!.name).toBe("MissingAdapter");
  });

  it("every request answers the error; the log says what is wrong once per config, not on every request", async () => {
    const logs = captureLogger();
    const config = credentialsConfig({ session: { maxAge: -1 }, logger: logs.logger });
    for (let i = 0; i < 3; i++) expect((await call(config, "/auth/session")).status).toBe(500);
    expect((await call(config, "/auth/signin")).status).toBe(500);
    expect(logs.errors).toHaveLength(1);
    expect(logs.errors[0]!.message).toMatch(/session\.maxAge/);
  });
});

describe("setEnvDefaults", () => {
  const base = (): AuthConfig => {
    const { secret: _s, trustHost: _t, ...rest } = credentialsConfig();
    return rest;
  };

  it("reads AUTH_SECRET, AUTH_URL, AUTH_TRUST_HOST, AUTH_REDIRECT_PROXY_URL and AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS", () => {
    const out = setEnvDefaults(
      {
        AUTH_SECRET: SECRET,
        AUTH_URL: "https://app.example.com",
        AUTH_TRUST_HOST: "true",
        AUTH_REDIRECT_PROXY_URL: "https://proxy.example.com/auth",
        AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS: " https://app.example.com, https://*.preview.example.com ,",
      },
      base(),
    );
    expect(out.secret).toBe(SECRET);
    expect(String(out.url)).toBe("https://app.example.com");
    expect(out.trustHost).toBe(true);
    expect(out.redirectProxyUrl).toBe("https://proxy.example.com/auth");
    expect(out.redirectProxyAllowedOrigins).toEqual(["https://app.example.com", "https://*.preview.example.com"]);
  });

  it.each([
    ["true", true],
    ["1", true],
    ["false", false],
    ["0", false],
  ])("AUTH_TRUST_HOST=%s gives trustHost %s", (value, expected) => {
    expect(setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: value }, base()).trustHost).toBe(expected);
  });

  it("AUTH_SECRET_1..3 make a rotation array in Auth.js's order: AUTH_SECRET_3 first (it encrypts), AUTH_SECRET last", () => {
    const env = {
      AUTH_SECRET: OLD_SECRET,
      AUTH_SECRET_1: "one-".repeat(10),
      AUTH_SECRET_2: "two-".repeat(10),
      AUTH_SECRET_3: NEW_SECRET,
    };
    expect(setEnvDefaults(env, base()).secret).toEqual([NEW_SECRET, "two-".repeat(10), "one-".repeat(10), OLD_SECRET]);
    expect(setEnvDefaults({ AUTH_SECRET: OLD_SECRET, AUTH_SECRET_1: NEW_SECRET }, base()).secret).toEqual([NEW_SECRET, OLD_SECRET]);
  });

  it("a short rotation secret is a configuration error naming its variable", async () => {
    const logs = captureLogger();
    const config = setEnvDefaults({ AUTH_SECRET: OLD_SECRET, AUTH_SECRET_1: "short", AUTH_TRUST_HOST: "true" }, { ...base(), logger: logs.logger });
    expect((await call(config, "/auth/session")).status).toBe(500);
    expect(logs.errors[0]!.message).toMatch(/^secret\[0\] \(AUTH_SECRET_1\) is 5 characters long/);
  });

  it("the rotation array from the env decodes a session made with the older secret", async () => {
    const quietBase = () => ({ ...base(), logger: captureLogger().logger });
    const oldConfig = setEnvDefaults({ AUTH_SECRET: OLD_SECRET, AUTH_TRUST_HOST: "true" }, quietBase());
    const jar = new CookieJar();
    await signInWithCredentials(oldConfig, jar);
    const rotated = setEnvDefaults({ AUTH_SECRET: OLD_SECRET, AUTH_SECRET_1: NEW_SECRET, AUTH_TRUST_HOST: "true" }, quietBase());
    const res = await call(rotated, "/auth/session", { jar });
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe(USER.name);

    const newOnly = setEnvDefaults({ AUTH_SECRET: NEW_SECRET, AUTH_TRUST_HOST: "true" }, quietBase());
    // `jar` may now hold a session re-issued under NEW; a fresh OLD session does not decode under NEW only.
    const oldJar = new CookieJar();
    await signInWithCredentials(oldConfig, oldJar);
    const rejected = await call(newOnly, "/auth/session", { jar: oldJar });
    expect(await rejected.json()).toBeNull();
  });

  it("values in the config win over the env", () => {
    const config: AuthConfig = {
      ...base(),
      secret: SECRET,
      url: "https://config.example.com",
      trustHost: false,
      redirectProxyUrl: "https://config-proxy.example.com/auth",
    };
    const out = setEnvDefaults(
      {
        AUTH_SECRET: NEW_SECRET,
        AUTH_SECRET_1: OLD_SECRET,
        AUTH_URL: "https://env.example.com",
        AUTH_TRUST_HOST: "true",
        AUTH_REDIRECT_PROXY_URL: "https://env-proxy.example.com/auth",
      },
      config,
    );
    expect(out.secret).toBe(SECRET);
    expect(String(out.url)).toBe("https://config.example.com");
    expect(out.trustHost).toBe(false);
    expect(out.redirectProxyUrl).toBe("https://config-proxy.example.com/auth");
  });

  it("an empty env leaves the config as it is (and a missing secret is still reported)", async () => {
    const logs = captureLogger();
    const out = setEnvDefaults({}, { ...base(), trustHost: true, logger: logs.logger });
    expect(out.secret).toBeUndefined();
    expect((await call(out, "/auth/session")).status).toBe(500);
    expect(logs.errors[0]!.name).toBe("MissingSecret");
  });

  it("returns a new object, the same one for the same (env, config) pair", () => {
    const config = base();
    const env = { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "1" };
    const first = setEnvDefaults(env, config);
    expect(first).not.toBe(config);
    expect(setEnvDefaults(env, config)).toBe(first);
    expect(setEnvDefaults({ ...env }, config)).not.toBe(first);
    expect(setEnvDefaults(env, base())).not.toBe(first);
  });

  it("never mutates the input config: a deep-frozen config works, and is unchanged", async () => {
    const config = deepFreeze(base());
    const before = snapshot(config);
    const env = deepFreeze({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", AUTH_URL: ORIGIN });
    const out = setEnvDefaults(env, config);
    expect(config.secret).toBeUndefined();
    expect(config.trustHost).toBeUndefined();
    const flow = await fullFlow(out);
    expect(flow.signIn.status).toBe(302);
    expect(sessionCookiesSet(flow.signIn)).toEqual(["authjs.session-token"]);
    expect(((await flow.session.json()) as { user: { name: string } }).user.name).toBe(USER.name);
    expect(snapshot(config)).toStrictEqual(before);
    expect(Object.keys(config).sort()).toEqual(["logger", "providers"]);
  });
});

describe("resolution is done once per config object", () => {
  it("a provider factory runs once per config object, however many requests", async () => {
    let calls = 0;
    const factory = () => {
      calls++;
      return { id: "github", name: "GitHub", type: "oauth" as const, issuer: "https://github.com/login/oauth" };
    };
    const config = credentialsConfig({ providers: [factory] });
    for (let i = 0; i < 5; i++) expect((await call(config, "/auth/providers")).status).toBe(200);
    await Promise.all(Array.from({ length: 10 }, () => call(config, "/auth/session")));
    expect(calls).toBe(1);

    // Another config object (even an equal copy) is resolved on its own.
    const copy = { ...config };
    const body = (await (await call(copy, "/auth/providers")).json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["github"]);
    expect(calls).toBe(2);
  });

  it("setEnvDefaults output is resolved once too (same object for the same env)", async () => {
    let calls = 0;
    const config: AuthConfig = {
      logger: captureLogger().logger,
      providers: [
        () => {
          calls++;
          return { id: "github", name: "GitHub", type: "oauth" as const, issuer: "https://github.com/login/oauth" };
        },
      ],
    };
    const env = { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" };
    for (let i = 0; i < 4; i++) expect((await call(setEnvDefaults(env, config), "/auth/providers")).status).toBe(200);
    expect(calls).toBe(1);
  });
});

describe("Auth never mutates the user's config", () => {
  it("a deep-frozen config works for every action", async () => {
    const logs = captureLogger();
    const config = deepFreeze(
      credentialsConfig({
        logger: logs.logger,
        pages: {},
        session: { maxAge: 3600 },
        cookies: { callbackUrl: { options: { sameSite: "strict" } } },
        callbacks: { jwt: ({ token }) => token, session: ({ session }) => session },
        theme: { colorScheme: "dark" },
      }),
    );
    const flow = await fullFlow(config);
    expect(flow.csrfRes.status).toBe(200);
    expect(flow.signIn.status).toBe(302);
    expect(((await flow.session.json()) as { user: { email: string } }).user.email).toBe(USER.email);
    expect(flow.update.status).toBe(200);
    expect(flow.signOut.status).toBe(302);
    for (const path of ["/auth/providers", "/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]) {
      expect((await call(config, path)).status).toBeLessThan(500);
    }
    expect(logs.errors).toEqual([]);
  });

  it("the config is structurally the same after many requests (http and https)", async () => {
    const config = credentialsConfig({
      cookies: { sessionToken: { name: "my-session", options: { sameSite: "strict" } } },
      pages: { error: "/oops" },
      session: { maxAge: 7200 },
      theme: { brandColor: "#123456" },
    });
    const before = snapshot(config);
    await fullFlow(config);
    await fullFlow(config, "https://secure.example.com");
    await call(config, "/auth/providers");
    await call(config, "/auth/nope");
    expect(snapshot(config)).toStrictEqual(before);
    // The Credentials provider object keeps its own shape too (options not merged into it).
    expect(Object.keys(config.providers[0] as object).sort()).toEqual(["authorize", "credentials", "id", "name", "options", "type"]);
  });
});

describe("debug", () => {
  it("warns debug-enabled and logs no secret, CSRF token or session token", async () => {
    const logs = captureLogger();
    const config = credentialsConfig({ debug: true, logger: logs.logger });
    const flow = await fullFlow(config);
    // A rejected request and a tampered cookie go through the log too.
    await call(config, "/auth/nope");
    await Auth(request("/auth/session", { headers: { cookie: "authjs.session-token=garbage.x.y.z.w" } }), config);

    expect(logs.warnings).toContain("debug-enabled");
    expect(logs.debug.length).toBeGreaterThan(0);

    const csrfCookie = flow.jar.get("authjs.csrf-token")!;
    const signInSession = setCookies(flow.signIn).find((c) => c.name === "authjs.session-token")!.value;
    const updatedSession = setCookies(flow.update).find((c) => c.name === "authjs.session-token")!.value;
    const forbidden = [SECRET, flow.token, csrfCookie, csrfCookie.split("|")[1]!, signInSession, updatedSession];
    for (const value of forbidden) expect(value.length).toBeGreaterThan(20);

    const output = [
      ...logs.debug.map((d) => `${d.message} ${JSON.stringify(d.metadata) ?? ""}`),
      ...logs.errors.map((e) => `${e.message} ${e.stack ?? ""}`),
      ...logs.warnings,
    ].join("\n");
    for (const value of forbidden) expect(output).not.toContain(value);
  });

  it("without debug no debug message is emitted", async () => {
    const logs = captureLogger();
    await fullFlow(credentialsConfig({ logger: logs.logger }));
    expect(logs.debug).toEqual([]);
    expect(logs.warnings).not.toContain("debug-enabled");
  });
});

describe("two configs in one process share nothing", () => {
  const A_SECRET = "config-a-secret-config-a-secret-config-a-0001";
  const B_SECRET = "config-b-secret-config-b-secret-config-b-0002";

  function configFor(label: "A" | "B"): AuthConfig {
    return {
      secret: label === "A" ? A_SECRET : B_SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      basePath: label === "A" ? "/auth" : "/api/auth",
      providers: [
        Credentials({
          authorize: (c) => (c.password === "pw" ? { id: `${label}-${String(c.username)}`, name: `${label} ${String(c.username)}` } : null),
        }),
      ],
    };
  }

  async function signIn(config: AuthConfig, basePath: string, user: string) {
    const jar = new CookieJar();
    const token = await csrfToken(config, jar, basePath);
    const res = await call(config, `${basePath}/callback/credentials`, { jar, form: { username: user, password: "pw", csrfToken: token } });
    const session = await call(config, `${basePath}/session`, { jar });
    return { jar, res, session: (await session.json()) as { user: { name: string } } | null };
  }

  it("interleaved concurrent requests: each cookie decodes only with its own config", async () => {
    const a = configFor("A");
    const b = configFor("B");
    const runs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? signIn(a, "/auth", `u${i}`).then((r) => ({ ...r, label: "A", i })) : signIn(b, "/api/auth", `u${i}`).then((r) => ({ ...r, label: "B", i })),
      ),
    );
    for (const run of runs) {
      expect(run.res.status).toBe(302);
      expect(run.session?.user.name).toBe(`${run.label} u${run.i}`);
    }

    // Cross-feed: every A session sent to B and every B session sent to A, concurrently.
    const crossed = await Promise.all(
      runs.map(async (run) => {
        const other = run.label === "A" ? b : a;
        const otherBase = run.label === "A" ? "/api/auth" : "/auth";
        const res = await Auth(request(`${otherBase}/session`, { headers: { cookie: run.jar.header() } }), other);
        return { res, body: await res.json() };
      }),
    );
    for (const { res, body } of crossed) {
      expect(res.status).toBe(200);
      expect(body).toBeNull();
      const cleared = setCookies(res).find((c) => c.name === "authjs.session-token");
      expect(cleared && isCleared(cleared)).toBe(true);
    }

    // And each still works with its own config afterwards.
    const own = await Promise.all(
      runs.map(async (run) => {
        const res = await call(run.label === "A" ? a : b, `${run.label === "A" ? "/auth" : "/api/auth"}/session`, { jar: run.jar });
        return ((await res.json()) as { user: { name: string } } | null)?.user.name;
      }),
    );
    expect(own).toEqual(runs.map((r) => `${r.label} u${r.i}`));
  });

  it("a CSRF token from config A is not accepted by config B", async () => {
    const a = configFor("A");
    const b = configFor("B");
    const jar = new CookieJar();
    const token = await csrfToken(a, jar, "/auth");
    const res = await call(b, "/api/auth/callback/credentials", { jar, form: { username: "x", password: "pw", csrfToken: token } });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF");
    expect(sessionCookiesSet(res)).toEqual([]);
  });

  it("each config keeps its own basePath", async () => {
    const a = configFor("A");
    const b = configFor("B");
    const [ra, rb, ra2, rb2] = await Promise.all([
      call(a, "/api/auth/session"),
      call(b, "/auth/session"),
      call(a, "/auth/session"),
      call(b, "/api/auth/session"),
    ]);
    expect(ra.status).toBe(400);
    expect(rb.status).toBe(400);
    expect(ra2.status).toBe(200);
    expect(rb2.status).toBe(200);
  });
});
