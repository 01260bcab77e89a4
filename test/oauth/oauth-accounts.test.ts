/**
 * Who an OAuth sign-in makes the user: a new user with a linked account on first
 * sign-in, the same user afterwards, a second provider linked to the signed-in
 * user, and the refusals (an email taken by an unlinked user, an account linked
 * to someone else, the signIn callback saying no) that store nothing; two first
 * sign-ins at once; and a database failing half-way, which leaves no user
 * without its account (one transaction through `createUserWithAccount`, or
 * undone without it).
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { migrate, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { OIDC } from "@gatehouse/runtime/providers";
import { openPGlite } from "../adapters/support/pglite.js";
import { captureLogger, CookieJar, fetchSession, locationOf, ORIGIN, SECRET, storesSession } from "../helpers.js";
import { returnToCallback, signInThroughProvider, startSignIn } from "./support/handler-flow.js";
import { startOidcServer, type OidcServer } from "./support/oidc-server.js";
import { authorize } from "./support/user-agent.js";

let server: OidcServer;

beforeAll(async () => {
  server = await startOidcServer({ redirectUris: ["oidc", "oidc-post"].map((id) => `${ORIGIN}/auth/callback/${id}`) });
});
afterAll(() => server?.close());

/** Adapter methods that write; `recording` notes each call to them. */
const WRITES = ["createUser", "createUserWithAccount", "linkAccount", "updateAccount", "createSession", "updateUser", "deleteUser"] as const;

/** `adapter` with a record of the writing calls the handler made (`writes`, method names in order). */
function recording<A extends Adapter>(adapter: A): { recorded: Adapter; writes: string[] } {
  const writes: string[] = [];
  const recorded: Adapter = { ...adapter };
  for (const method of WRITES) {
    const original = adapter[method] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== "function") continue;
    (recorded as Record<string, unknown>)[method] = (...args: unknown[]) => {
      writes.push(method);
      return original.apply(adapter, args);
    };
  }
  return { recorded, writes };
}

/** The memory adapter, and a recording of the writes the handler made through it. */
function recordingAdapter() {
  const adapter = MemoryAdapter();
  return { adapter, ...recording(adapter) };
}

function providers(overrides: Record<string, unknown> = {}) {
  return [
    OIDC({ id: "oidc", name: "IdP", issuer: server.issuer, clientId: server.clients.basic.client_id, clientSecret: server.clients.basic.client_secret, ...overrides }),
    OIDC({
      id: "oidc-post",
      name: "IdP (post)",
      issuer: server.issuer,
      clientId: server.clients.post.client_id,
      clientSecret: server.clients.post.client_secret,
      client: { token_endpoint_auth_method: "client_secret_post" },
    }),
  ];
}

function setup(overrides: Partial<AuthConfig> = {}, providerOverrides: Record<string, unknown> = {}) {
  const logs = captureLogger();
  const { adapter, recorded, writes } = recordingAdapter();
  const events: { name: string; message: any }[] = [];
  const record = (name: string) => (message: unknown) => void events.push({ name, message });
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: logs.logger,
    adapter: recorded,
    providers: providers(providerOverrides),
    events: { createUser: record("createUser"), linkAccount: record("linkAccount"), signIn: record("signIn") },
    ...overrides,
  };
  return { config, logs, adapter, writes, events };
}

describe("first and later sign-ins (database sessions)", () => {
  it("the first sign-in creates the user and links the account with its tokens; the next finds them and refreshes the tokens", async () => {
    const { config, adapter, writes, events } = setup();
    const jar = new CookieJar();
    const first = await signInThroughProvider(config, jar, "oidc", { login: "ada" });
    expect(locationOf(first.callback).href).toBe(`${ORIGIN}/`);
    // The user and its account in one adapter call: one transaction in a database.
    expect(writes).toEqual(["createUserWithAccount", "createSession"]);

    const user = await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "ada" });
    // The provider says email_verified: true, so the new user's address is proven.
    expect(user).toMatchObject({ email: "ada@example.test", name: expect.any(String), emailVerified: expect.any(Date) });
    const account = await adapter.getAccount("ada", "oidc");
    expect(account).toMatchObject({ userId: user!.id, type: "oidc", provider: "oidc", providerAccountId: "ada", token_type: "bearer" });
    expect(account!.access_token).toEqual(expect.any(String));
    expect(account!.refresh_token).toEqual(expect.any(String));
    expect(account!.id_token!.split(".")).toHaveLength(3);
    expect(account!.scope).toContain("openid");
    const now = Math.floor(Date.now() / 1000);
    expect(account!.expires_at).toBeGreaterThan(now);
    expect(account!.expires_at).toBeLessThan(now + 3600);

    expect(events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn"]);
    expect(events[2]!.message).toMatchObject({ isNewUser: true, user: { id: user!.id }, account: { provider: "oidc" } });
    expect((await fetchSession(config, jar)).body.user.email).toBe("ada@example.test");

    writes.length = 0;
    events.length = 0;
    const second = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "ada" });
    expect(second.callback.status).toBe(302);
    expect(writes).toEqual(["updateAccount", "createSession"]);
    expect(events.map((e) => e.name)).toEqual(["signIn"]);
    expect(events[0]!.message.isNewUser).toBe(false);
    const updated = await adapter.getAccount("ada", "oidc");
    expect(updated!.access_token).not.toBe(account!.access_token);
    expect(updated!.userId).toBe(user!.id);
  });

  it("pages.newUser receives a new user once, with the callback URL", async () => {
    const { config } = setup({ pages: { newUser: "/welcome" } });
    const first = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "newbie" }, { callbackUrl: "/dashboard" });
    const location = locationOf(first.callback);
    expect(location.pathname).toBe("/welcome");
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`);
    const again = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "newbie" }, { callbackUrl: "/dashboard" });
    expect(locationOf(again.callback).href).toBe(`${ORIGIN}/dashboard`);
  });
});

describe("JWT sessions with an adapter", () => {
  it("the token's subject is the adapter's user id; the jwt callback sees signUp, then signIn", async () => {
    const triggers: unknown[] = [];
    const { config, adapter } = setup({
      session: { strategy: "jwt" },
      callbacks: {
        jwt: ({ token, trigger, account }) => {
          if (trigger) triggers.push([trigger, account?.provider]);
          return token;
        },
        session: ({ session, token }: any) => ({ ...session, user: { ...session.user, id: token.sub } }),
      },
    });
    const jar = new CookieJar();
    await signInThroughProvider(config, jar, "oidc", { login: "jay" });
    const user = await adapter.getUserByEmail("jay@example.test");
    expect((await fetchSession(config, jar)).body.user.id).toBe(user!.id);
    await signInThroughProvider(config, new CookieJar(), "oidc", { login: "jay" });
    expect(triggers).toEqual([
      ["signUp", "oidc"],
      ["signIn", "oidc"],
    ]);
  });

  it("without an adapter, the user is the provider's profile; its subject is the same at every sign-in with that account, and nothing is stored", async () => {
    const logs = captureLogger();
    const seen: { sub: unknown; providerAccountId: unknown }[] = [];
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: logs.logger,
      providers: providers(),
      callbacks: { jwt: ({ token, account }) => (account && seen.push({ sub: token.sub, providerAccountId: account.providerAccountId }), token) },
    };
    const jar = new CookieJar();
    await signInThroughProvider(config, jar, "oidc", { login: "solo" });
    await signInThroughProvider(config, new CookieJar(), "oidc", { login: "solo" });
    // UUID-shaped, as Auth.js's, but the same for the same account every time; the provider's own id stays on the account.
    expect(seen[0]!.sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seen[1]!.sub).toBe(seen[0]!.sub);
    expect(seen[0]!.providerAccountId).toBe("solo");
    expect((await fetchSession(config, jar)).body.user.email).toBe("solo@example.test");
  });

  it("attack: without an adapter, two people of two providers with the same provider id get different subjects (an app keying data on sub keeps them apart)", async () => {
    const subs: Record<string, unknown> = {};
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: captureLogger().logger,
      providers: providers(),
      callbacks: { jwt: ({ token, account }) => (account && (subs[account.provider] = token.sub), token) },
    };
    // "mallory" at one provider and "mallory" at the other are, as far as the app knows, two people.
    await signInThroughProvider(config, new CookieJar(), "oidc", { login: "mallory" });
    await signInThroughProvider(config, new CookieJar(), "oidc-post", { login: "mallory" });
    expect(subs.oidc).toEqual(expect.any(String));
    expect(subs["oidc-post"]).toEqual(expect.any(String));
    expect(subs.oidc).not.toBe(subs["oidc-post"]);
  });
});

describe("linking accounts", () => {
  it("an existing user who proved the same email but has no link is refused with OAuthAccountNotLinked; nothing is stored", async () => {
    const { config, adapter, writes, logs } = setup();
    const existing = await adapter.createUser({ id: "", email: "eve@example.test", emailVerified: new Date() });
    writes.length = 0;
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login: "eve" });
    const location = locationOf(callback);
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(writes).toEqual([]);
    expect(await adapter.getAccount("eve", "oidc")).toBeNull();
    expect((await adapter.getUserByEmail("eve@example.test"))!.id).toBe(existing.id);
    expect((await fetchSession(config, jar)).body).toBeNull();
    expect(logs.errors.some((e) => e.name === "OAuthAccountNotLinked")).toBe(true);
  });

  it("allowDangerousEmailAccountLinking links the account to that user instead, when the provider vouches for the address", async () => {
    const { config, adapter, writes, events } = setup({}, { allowDangerousEmailAccountLinking: true });
    const existing = await adapter.createUser({ id: "", email: "fay@example.test", emailVerified: new Date() });
    writes.length = 0;
    await signInThroughProvider(config, new CookieJar(), "oidc", { login: "fay" });
    expect(writes).toEqual(["linkAccount", "createSession"]);
    expect((await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "fay" }))!.id).toBe(existing.id);
    expect(events.map((e) => e.name)).toEqual(["linkAccount", "signIn"]);
  });

  it("a signed-in user who signs in with another provider gets it linked to the same user", async () => {
    const { config, adapter, writes } = setup();
    const jar = new CookieJar();
    await signInThroughProvider(config, jar, "oidc", { login: "gus" });
    const user = await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "gus" });
    writes.length = 0;
    await signInThroughProvider(config, jar, "oidc-post", { login: "gus-elsewhere" });
    expect(writes).toEqual(["linkAccount", "createSession"]);
    expect((await adapter.getUserByAccount({ provider: "oidc-post", providerAccountId: "gus-elsewhere" }))!.id).toBe(user!.id);
    expect(await adapter.getUserByEmail("gus-elsewhere@example.test")).toBeNull();
  });

  it("an account linked to one user cannot be taken over by another signed-in user", async () => {
    const { config, adapter, writes } = setup();
    await signInThroughProvider(config, new CookieJar(), "oidc", { login: "hal" });
    const hal = await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "hal" });
    const ivy = new CookieJar();
    await signInThroughProvider(config, ivy, "oidc-post", { login: "ivy" });
    writes.length = 0;
    const { callback } = await signInThroughProvider(config, ivy, "oidc", { login: "hal" });
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(writes).toEqual([]);
    expect((await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "hal" }))!.id).toBe(hal!.id);
    expect((await fetchSession(config, ivy)).body.user.email).toBe("ivy@example.test");
  });
});

describe("the signIn callback decides before anything is stored", () => {
  it("false: AccessDenied on the error page, no user, no account, no session", async () => {
    const { config, writes, adapter } = setup({ callbacks: { signIn: ({ profile }) => profile?.email !== "mal@example.test" } });
    const jar = new CookieJar();
    const { callback } = await signInThroughProvider(config, jar, "oidc", { login: "mal" });
    const location = locationOf(callback);
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("AccessDenied");
    expect(writes).toEqual([]);
    expect(await adapter.getUserByEmail("mal@example.test")).toBeNull();
    expect((await fetchSession(config, jar)).body).toBeNull();
  });

  it("a string: redirected there, nothing stored", async () => {
    const { config, writes } = setup({ callbacks: { signIn: () => "/waitlist" } });
    const { callback } = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "nia" });
    expect(locationOf(callback).href).toBe(`${ORIGIN}/waitlist`);
    expect(writes).toEqual([]);
  });

  it("receives the provider's profile, the account with its tokens, and the profile's user", async () => {
    const seen: any[] = [];
    const { config } = setup({ callbacks: { signIn: (params) => (seen.push(params), true) } });
    await signInThroughProvider(config, new CookieJar(), "oidc", { login: "otto" });
    expect(seen[0].profile).toMatchObject({ sub: "otto", email: "otto@example.test" });
    expect(seen[0].account).toMatchObject({ provider: "oidc", providerAccountId: "otto", type: "oidc", access_token: expect.any(String) });
    expect(seen[0].user).toMatchObject({ email: "otto@example.test" });
  });
});

describe("a profile() that fails", () => {
  it("throwing: OAuthCallbackError on the sign-in page, OAuthProfileParseError logged, nothing stored", async () => {
    const { config, writes, logs } = setup({}, { profile: () => { throw new Error("profile bug"); } });
    const { callback } = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "pat" });
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(writes).toEqual([]);
    expect(logs.errors.some((e) => e.name === "OAuthProfileParseError")).toBe(true);
  });

  it("returning no id: the same, with a message that says so", async () => {
    const { config, writes, logs } = setup({}, { profile: () => ({ name: "no id" }) });
    const { callback } = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "quin" });
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthCallbackError");
    expect(writes).toEqual([]);
    expect(logs.errors.map((e) => e.message).join("\n")).toContain("returned no `id`");
  });
});

describe("two first sign-ins of the same new person at once", () => {
  it("end in one user with one account, and both are signed in as that user", async () => {
    const { config, adapter, events, writes } = setup();
    // Neither request looks the address up before both have found no linked account: both plan to
    // create the user, so one of them loses the race in createUserWithAccount and must recover.
    let planned = 0;
    let release!: () => void;
    const bothPlanned = new Promise<void>((resolve) => (release = resolve));
    (config.adapter as Adapter).getUserByEmail = async (email) => {
      if (++planned === 2) release();
      await bothPlanned;
      return adapter.getUserByEmail(email);
    };
    // Both browsers go through the provider; the callbacks then arrive together.
    const pending = await Promise.all(
      [new CookieJar(), new CookieJar()].map(async (jar) => {
        const { authorizationUrl } = await startSignIn(config, jar, "oidc");
        return { jar, result: await authorize(authorizationUrl, { login: "twin" }) };
      }),
    );
    const callbacks = await Promise.all(pending.map(({ jar, result }) => returnToCallback(config, jar, result)));
    for (const callback of callbacks) expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
    const user = await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "twin" });
    expect(user?.email).toBe("twin@example.test");
    for (const { jar } of pending) expect((await fetchSession(config, jar)).body.user.email).toBe("twin@example.test");
    // Both tried; one created the user and its account, the other found them.
    expect(writes.filter((w) => w === "createUserWithAccount")).toHaveLength(2);
    expect(events.filter((e) => e.name === "createUser")).toHaveLength(1);
    expect(events.filter((e) => e.name === "signIn").map((e) => e.message.isNewUser).sort()).toEqual([false, true]);
  });
});

describe("a refusal does not wait out a race that cannot happen", () => {
  /** The number of getUserByAccount calls the handler makes through `config`'s adapter. */
  function countAccountLookups(config: AuthConfig): { count: () => number } {
    const adapter = config.adapter as Adapter;
    const original = adapter.getUserByAccount!.bind(adapter);
    let calls = 0;
    adapter.getUserByAccount = (key) => {
      calls++;
      return original(key);
    };
    return { count: () => calls };
  }

  it("with createUserWithAccount (user and account stored together): one more look, at once, then OAuthAccountNotLinked", async () => {
    const { config, adapter } = setup();
    await adapter.createUser({ id: "", email: "ida@example.test", emailVerified: new Date() });
    const lookups = countAccountLookups(config);
    const { callback } = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "ida" });
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    // The first look, then the one re-look: no half-second of retries before the answer.
    expect(lookups.count()).toBe(2);
  });

  it("without it (Auth.js adapters): the looks over about half a second, since a concurrent sign-in links after it creates", async () => {
    const { config, adapter } = setup();
    delete (config.adapter as Adapter).createUserWithAccount;
    await adapter.createUser({ id: "", email: "ivy@example.test", emailVerified: new Date() });
    const lookups = countAccountLookups(config);
    const { callback } = await signInThroughProvider(config, new CookieJar(), "oidc", { login: "ivy" });
    expect(locationOf(callback).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(lookups.count()).toBe(5);
  });

  it("a concurrent first sign-in that stored the user and account between this one's two lookups: found at the re-look, both signed in as one user", async () => {
    const { config, adapter, events } = setup();
    const [late, early] = await Promise.all(
      [new CookieJar(), new CookieJar()].map(async (jar) => {
        const { authorizationUrl } = await startSignIn(config, jar, "oidc");
        return { jar, result: await authorize(authorizationUrl, { login: "tess" }) };
      }),
    );
    // The late browser has found no linked account; before it looks the address up, the early
    // browser's whole first sign-in runs and stores the user with the account.
    let earlyCallback: Response | undefined;
    let lookups = 0;
    (config.adapter as Adapter).getUserByEmail = async (email) => {
      if (++lookups === 1) earlyCallback = await returnToCallback(config, early!.jar, early!.result);
      return adapter.getUserByEmail(email);
    };
    const lateCallback = await returnToCallback(config, late!.jar, late!.result);
    for (const callback of [earlyCallback!, lateCallback]) expect(locationOf(callback).href).toBe(`${ORIGIN}/`);
    for (const { jar } of [late!, early!]) expect((await fetchSession(config, jar)).body.user.email).toBe("tess@example.test");
    expect(lookups).toBe(2);
    expect(events.filter((e) => e.name === "createUser")).toHaveLength(1);
    expect(events.filter((e) => e.name === "signIn").map((e) => e.message.isNewUser)).toEqual([true, false]);
  });
});

describe("a database that fails half-way", () => {
  it("createUserWithAccount failing stores nothing and fires no event; the next sign-in starts clean", async () => {
    const { config, adapter, logs, events } = setup();
    const createUserWithAccount = adapter.createUserWithAccount;
    let failures = 1;
    (config.adapter as { createUserWithAccount: unknown }).createUserWithAccount = (...args: Parameters<typeof createUserWithAccount>) => {
      if (failures-- > 0) throw new Error("connection reset");
      return createUserWithAccount.apply(adapter, args);
    };
    const jar = new CookieJar();
    const first = await signInThroughProvider(config, jar, "oidc", { login: "sam" });
    expect(locationOf(first.callback).searchParams.get("error")).toBe("Configuration");
    expect(await adapter.getUserByEmail("sam@example.test")).toBeNull();
    expect(events).toEqual([]);
    expect(logs.errors.some((e) => e.name === "AdapterError" && e.message.includes("createUserWithAccount"))).toBe(true);
    expect((await fetchSession(config, jar)).body).toBeNull();

    const second = await signInThroughProvider(config, jar, "oidc", { login: "sam" });
    expect(locationOf(second.callback).href).toBe(`${ORIGIN}/`);
    expect((await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "sam" }))!.email).toBe("sam@example.test");
  });

  describe("with an adapter that lacks createUserWithAccount (as Auth.js adapters do)", () => {
    function setupWithoutExtension() {
      const result = setup();
      delete (result.config.adapter as Adapter).createUserWithAccount;
      return result;
    }

    it("the first sign-in creates the user, then links the account, with events in that order", async () => {
      const { config, adapter, writes, events } = setupWithoutExtension();
      await signInThroughProvider(config, new CookieJar(), "oidc", { login: "una" });
      expect(writes).toEqual(["createUser", "linkAccount", "createSession"]);
      expect((await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "una" }))!.email).toBe("una@example.test");
      expect(events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn"]);
    });

    it("linkAccount failing after createUser removes the new user, so the next sign-in starts clean", async () => {
      const { config, adapter, logs, writes } = setupWithoutExtension();
      const linkAccount = adapter.linkAccount;
      let failures = 1;
      (config.adapter as { linkAccount: unknown }).linkAccount = (account: never) => {
        if (failures-- > 0) throw new Error("connection reset");
        return linkAccount.call(adapter, account);
      };
      const jar = new CookieJar();
      const first = await signInThroughProvider(config, jar, "oidc", { login: "rex" });
      expect(locationOf(first.callback).searchParams.get("error")).toBe("Configuration");
      expect(writes).toEqual(["createUser", "deleteUser"]);
      expect(await adapter.getUserByEmail("rex@example.test")).toBeNull();
      expect(logs.errors.some((e) => e.name === "AdapterError" && e.message.includes("linkAccount"))).toBe(true);
      expect((await fetchSession(config, jar)).body).toBeNull();

      const second = await signInThroughProvider(config, jar, "oidc", { login: "rex" });
      expect(locationOf(second.callback).href).toBe(`${ORIGIN}/`);
      expect((await adapter.getUserByAccount({ provider: "oidc", providerAccountId: "rex" }))!.email).toBe("rex@example.test");
    });
  });

  describe("on PostgreSQL (PGlite)", () => {
    let db: PGlite;
    let postgres: Adapter;

    beforeAll(async () => {
      db = await openPGlite();
      const client = fromPGlite(db);
      await migrate(client);
      postgres = PostgresAdapter(client);
      // The database refuses one provider account, after the user was inserted in the same transaction:
      // what a lost connection or a full disk does at that moment.
      await db.exec(`
        CREATE FUNCTION refuse_account() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW."providerAccountId" = 'refused' THEN RAISE EXCEPTION 'account refused by the test'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_account BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION refuse_account();
      `);
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it("an account insert the database refuses leaves no user row; the user sees the error and can sign in later", async () => {
      const { recorded, writes } = recording(postgres);
      const { config, logs, events } = setup({ adapter: recorded });
      const jar = new CookieJar();
      const { callback } = await signInThroughProvider(config, jar, "oidc", { login: "refused" });
      expect(locationOf(callback).pathname).toBe("/auth/error");
      expect(locationOf(callback).searchParams.get("error")).toBe("Configuration");
      expect(storesSession(callback)).toBe(false);
      // Rolled back by the transaction, not deleted afterwards.
      expect(writes).toEqual(["createUserWithAccount"]);
      expect((await db.query("SELECT 1 FROM users WHERE email = 'refused@example.test'")).rows).toEqual([]);
      expect((await db.query(`SELECT 1 FROM accounts WHERE "providerAccountId" = 'refused'`)).rows).toEqual([]);
      expect(events).toEqual([]);
      expect(logs.errors.some((e) => e.name === "AdapterError" && e.message.includes("createUserWithAccount"))).toBe(true);

      // The address is not held by a user without the account: once the database accepts it, the same
      // person signs in (not OAuthAccountNotLinked).
      await db.exec("DROP TRIGGER refuse_account ON accounts");
      const again = await signInThroughProvider(config, jar, "oidc", { login: "refused" });
      expect(locationOf(again.callback).href).toBe(`${ORIGIN}/`);
      const rows = await db.query(`SELECT u.email FROM users u JOIN accounts a ON a."userId" = u.id WHERE a."providerAccountId" = 'refused'`);
      expect(rows.rows).toEqual([{ email: "refused@example.test" }]);
    });
  });
});
