/**
 * Secret rotation in Auth.js's order, side by side with `@auth/core` 0.41.3: both
 * runtimes build the secret list from the same env the same way (AUTH_SECRET_3,
 * _2, _1, then AUTH_SECRET), encrypt with the first, and decrypt with any, so a
 * session made by one is read by the other across a rotation done the Auth.js way.
 */
import { Auth as AuthJsOverloaded, setEnvDefaults as authJsSetEnvDefaults } from "@auth/core";
import { decode as authJsDecode } from "@auth/core/jwt";
import AuthJsCredentials from "@auth/core/providers/credentials";
import { setEnvDefaults, type AuthConfig } from "@gatehouse/runtime";
import { decode } from "@gatehouse/runtime/jwt";
import { describe, expect, it } from "vitest";
import { CookieJar, USER, call, request, signInWithCredentials } from "../helpers.js";

const AuthJs = AuthJsOverloaded as unknown as (request: Request, config: unknown) => Promise<Response>;
const quiet = { error() {}, warn() {}, debug() {} };
const S0 = "secret-zero-secret-zero-secret-zero-00000000";
const S1 = "secret-one--secret-one--secret-one--11111111";
const S2 = "secret-two--secret-two--secret-two--22222222";
const S3 = "secret-three-secret-three-secret-three-33333";
const COOKIE = "authjs.session-token";

/** A config written for Auth.js, fresh each time (`@auth/core`'s setEnvDefaults mutates it). */
function authJsStyleConfig(): AuthConfig {
  return {
    logger: quiet,
    providers: [
      AuthJsCredentials({
        credentials: { username: {}, password: {} },
        authorize: (c) => (c.username === "ada" && c.password === "correct horse" ? { ...USER } : null),
      }) as AuthConfig["providers"][number],
    ],
  };
}

/** The same env through each runtime's own setEnvDefaults. */
function both(env: Record<string, string>): { ours: AuthConfig; authJs: AuthConfig } {
  const authJs = authJsStyleConfig();
  authJsSetEnvDefaults({ ...env }, authJs as never);
  return { ours: setEnvDefaults({ ...env }, authJsStyleConfig()), authJs };
}

async function authJsSignIn(config: AuthConfig, jar: CookieJar): Promise<void> {
  const csrf = await AuthJs(request("/auth/csrf", { jar }), config);
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  jar.store(await AuthJs(request("/auth/callback/credentials", { jar, form: { csrfToken, username: "ada", password: "correct horse" } }), config));
}

/** Which single secret decrypts the session cookie: the one that encrypted it. */
async function encryptedWith(token: string): Promise<string | undefined> {
  for (const secret of [S0, S1, S2, S3]) {
    if (await decode({ token, secret, salt: COOKIE }).catch(() => null)) return secret;
  }
  return undefined;
}

const ENVS: [string, Record<string, string>, string][] = [
  ["AUTH_SECRET only", { AUTH_SECRET: S0 }, S0],
  ["AUTH_SECRET and AUTH_SECRET_1 (one rotation, the Auth.js way)", { AUTH_SECRET: S0, AUTH_SECRET_1: S1 }, S1],
  ["AUTH_SECRET, _1 and _2", { AUTH_SECRET: S0, AUTH_SECRET_1: S1, AUTH_SECRET_2: S2 }, S2],
  ["all four", { AUTH_SECRET: S0, AUTH_SECRET_1: S1, AUTH_SECRET_2: S2, AUTH_SECRET_3: S3 }, S3],
  ["AUTH_SECRET and _2 (a gap)", { AUTH_SECRET: S0, AUTH_SECRET_2: S2 }, S2],
  ["_1 only (AUTH_SECRET retired)", { AUTH_SECRET_1: S1 }, S1],
];

describe("the secret list from the env, as @auth/core builds it", () => {
  it.each(ENVS)("%s: the same list, in the same order", (_, env) => {
    const { ours, authJs } = both({ ...env, AUTH_TRUST_HOST: "true" });
    const list = (s: AuthConfig["secret"]) => (Array.isArray(s) ? s : [s]);
    expect(list(ours.secret)).toEqual(list(authJs.secret));
  });
});

describe("which secret encrypts, and that every one decrypts, on both runtimes", () => {
  it.each(ENVS)("%s: both encrypt with the same secret; each reads the other's session", async (_, env, encrypts) => {
    const { ours, authJs } = both({ ...env, AUTH_TRUST_HOST: "true" });

    const ourJar = new CookieJar();
    await signInWithCredentials(ours, ourJar);
    const ourToken = ourJar.get(COOKIE)!;
    expect(await encryptedWith(ourToken)).toBe(encrypts);

    const authJsJar = new CookieJar();
    await authJsSignIn(authJs, authJsJar);
    const authJsToken = authJsJar.get(COOKIE)!;
    expect(await encryptedWith(authJsToken)).toBe(encrypts);

    // Each side decrypts the other's cookie with its own list.
    expect(await decode({ token: authJsToken, secret: ours.secret as string | string[], salt: COOKIE })).toMatchObject({ email: USER.email });
    expect(await authJsDecode({ token: ourToken, secret: authJs.secret as string | string[], salt: COOKIE })).toMatchObject({ email: USER.email });
    const session = await (await call(ours, "/auth/session", { jar: authJsJar })).json();
    expect(session).toMatchObject({ user: { email: USER.email } });
  });

  it("a rotation done the Auth.js way (add AUTH_SECRET_1) keeps sessions made with AUTH_SECRET, on both, and new ones use AUTH_SECRET_1", async () => {
    const before = both({ AUTH_SECRET: S0, AUTH_TRUST_HOST: "true" });
    const ourJar = new CookieJar();
    await signInWithCredentials(before.ours, ourJar);
    const authJsJar = new CookieJar();
    await authJsSignIn(before.authJs, authJsJar);

    const after = both({ AUTH_SECRET: S0, AUTH_SECRET_1: S1, AUTH_TRUST_HOST: "true" });
    // Made by Auth.js before the rotation, read by gatehouse after it, and the other way round.
    expect(await (await call(after.ours, "/auth/session", { jar: authJsJar })).json()).toMatchObject({ user: { email: USER.email } });
    const authJsRead = await AuthJs(request("/auth/session", { jar: ourJar }), after.authJs);
    expect(await authJsRead.json()).toMatchObject({ user: { email: USER.email } });
    // A new sign-in after the rotation is encrypted with the secret that was added, on both.
    const fresh = new CookieJar();
    await signInWithCredentials(after.ours, fresh);
    expect(await encryptedWith(fresh.get(COOKIE)!)).toBe(S1);
    const freshAuthJs = new CookieJar();
    await authJsSignIn(after.authJs, freshAuthJs);
    expect(await encryptedWith(freshAuthJs.get(COOKIE)!)).toBe(S1);
  });
});
