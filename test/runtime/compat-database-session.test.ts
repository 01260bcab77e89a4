/**
 * The `session` callback with database sessions, side by side with Auth.js
 * (`@auth/core` 0.41.3): the same adapter holds one session, the same request
 * reads it through both handlers, and a callback that records its arguments
 * must be handed the same shapes. What the client gets agrees too, but for the
 * one deliberate difference: a returned `sessionToken` never reaches it.
 */
import { Auth as AuthJsOverloaded } from "@auth/core";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Auth, type AdapterUser, type AuthConfig } from "@gatehouse/runtime";
import { GitHub } from "@gatehouse/runtime/providers";
import { beforeEach, describe, expect, it } from "vitest";
import { ORIGIN, SECRET } from "../helpers.js";

/** Auth.js's handler, typed for the plain-Response overload (our AuthConfig is structurally its own). */
const AuthJs = AuthJsOverloaded as unknown as (request: Request, config: unknown) => Promise<Response>;
const quiet = { error() {}, warn() {}, debug() {} };
const TOKEN = "session-token-of-ada";

const adapter = MemoryAdapter();
let ada: AdapterUser;

beforeEach(async () => {
  adapter.clear();
  ada = await adapter.createUser({ id: "", email: "ada@example.com", emailVerified: new Date("2024-02-03T04:05:06.789Z"), name: "Ada", image: null });
  // A column an app added, as Auth.js adapters return it: on the user, and so in the callback.
  await adapter.updateUser({ id: ada.id, role: "admin" } as Partial<AdapterUser> & { id: string });
  // Not due for extension (the default updateAge is a day): neither handler writes, both read the same row.
  await adapter.createSession({ sessionToken: TOKEN, userId: ada.id, expires: new Date(Date.now() + 29 * 24 * 3600_000) });
});

function config(session?: (params: any) => unknown): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    adapter,
    session: { strategy: "database" },
    // Never called here: a session read needs no provider, but both handlers want one configured.
    providers: [GitHub({ clientId: "client-id", clientSecret: "client-secret" })],
    ...(session ? { callbacks: { session: session as NonNullable<AuthConfig["callbacks"]>["session"] } } : {}),
  };
}

function sessionRequest(): Request {
  return new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `authjs.session-token=${TOKEN}` } });
}

/** Reads the session through one handler with a recording callback; its arguments (cloned) and the client's body. */
async function readWith(handler: (request: Request, config: AuthConfig) => Promise<Response>, returns: (params: any) => unknown) {
  const calls: unknown[] = [];
  const response = await handler(
    sessionRequest(),
    config((params) => {
      calls.push(structuredClone(params));
      return returns(params);
    }),
  );
  expect(response.status).toBe(200);
  return { calls, body: await response.json() };
}

describe("the database session callback, side by side with @auth/core", () => {
  it("both hand the callback the same arguments: the stored session with the whole user (its added column too), and that user", async () => {
    const ours = await readWith(Auth, ({ session }) => session);
    const theirs = await readWith(AuthJs, ({ session }) => session);
    expect(ours.calls).toHaveLength(1);
    expect(theirs.calls).toHaveLength(1);
    expect(ours.calls).toEqual(theirs.calls);
    expect(Object.keys(ours.calls[0] as object).sort()).toEqual(Object.keys(theirs.calls[0] as object).sort());

    const [{ session, user }] = ours.calls as any[];
    expect(user).toMatchObject({ id: ada.id, email: "ada@example.com", role: "admin" });
    expect(user.emailVerified).toBeInstanceOf(Date);
    expect(session).toMatchObject({ sessionToken: TOKEN, userId: ada.id, user });
    expect(session.expires).toBeInstanceOf(Date);
  });

  it("with the default callback both answer the same client session: name, email, image and expires only", async () => {
    const ours = await Auth(sessionRequest(), config());
    const theirs = await AuthJs(sessionRequest(), config());
    const body = await ours.json();
    expect(body).toEqual(await theirs.json());
    expect(body).toEqual({ user: { name: "Ada", email: "ada@example.com", image: null }, expires: expect.any(String) });
  });

  it("a callback's own shape reaches the client as it returned it, on both", async () => {
    const shape = ({ session, user }: any) => ({ user: { id: user.id, name: user.name, role: user.role }, expires: session.expires });
    const ours = await readWith(Auth, shape);
    const theirs = await readWith(AuthJs, shape);
    expect(ours.body).toEqual(theirs.body);
    expect(ours.body.user).toEqual({ id: ada.id, name: "Ada", role: "admin" });
  });

  it("deliberate difference: a callback that returns the stored session (Auth.js's documented pattern) leaks its sessionToken on Auth.js, not here", async () => {
    const pattern = ({ session, user }: any) => {
      session.user.id = user.id;
      return session;
    };
    const ours = await readWith(Auth, pattern);
    const theirs = await readWith(AuthJs, pattern);
    // Auth.js hands the HttpOnly cookie's secret to the page's scripts.
    expect(theirs.body.sessionToken).toBe(TOKEN);
    expect(ours.body).not.toHaveProperty("sessionToken");
    expect(JSON.stringify(ours.body)).not.toContain(TOKEN);
    // Everything else agrees.
    const { sessionToken: _token, ...rest } = theirs.body;
    expect(ours.body).toEqual(rest);
  });
});
