/**
 * The details of the proven-address rule, through the handler: what sets
 * `emailVerified` (only proof), a linked user proving its address later, a
 * provider's `verifiedEmail` that disagrees with `profile()` or throws, a
 * password claim on PostgreSQL (its row goes when Ada proves the address), a
 * `jwt` callback that rebuilds the token, two proofs at once, and an adapter
 * without `adoptUnprovenUser`, which refuses rather than hand over a claimed user.
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Adapter, AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { migrate, PostgresAdapter } from "@gatehouse/runtime/adapters/postgres";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { Credentials, OIDC } from "@gatehouse/runtime/providers";
import { openPGlite } from "../adapters/support/pglite.js";
import { followLink, mailedLink } from "../email/support/flow.js";
import { startMailServer, type MailServer } from "../email/support/smtp.js";
import { CookieJar, locationOf, recordAdapterCalls, signInWithCredentials, storesSession } from "../helpers.js";
import type { OidcServer } from "../oauth/support/oidc-server.js";
import { ADA, sessionEmail, signInWithEmailLink, signInWithIdp, startTakeoverIdp, takeoverApp } from "./support/world.js";

let idp: OidcServer;
let mail: MailServer;

beforeAll(async () => {
  [idp, mail] = await Promise.all([startTakeoverIdp(), startMailServer()]);
});
afterAll(async () => {
  await Promise.all([idp?.close(), mail?.close()]);
});
beforeEach(() => {
  mail.messages.length = 0;
});

/** The app with the IdP entry `oidc` replaced by one with `extra` options. */
function withOidc(adapter: Adapter, extra: Record<string, unknown>) {
  const app = takeoverApp(idp, mail, adapter);
  const oidc = OIDC({ id: "oidc", name: "oidc", issuer: idp.issuer, clientId: idp.clients.basic.client_id, clientSecret: idp.clients.basic.client_secret, ...extra });
  const providers = [oidc, ...(app.config.providers ?? []).slice(1)];
  return { ...app, config: { ...app.config, providers } };
}

describe("what sets emailVerified", () => {
  it("a provider that vouches for the address: the new user is proven; one that does not: unproven", async () => {
    const proven = MemoryAdapter();
    await signInWithIdp(takeoverApp(idp, mail, proven).config, "ada");
    expect((await proven.getUserByAccount({ provider: "oidc", providerAccountId: "ada" }))!.emailVerified).toBeInstanceOf(Date);
    const claimed = MemoryAdapter();
    await signInWithIdp(takeoverApp(idp, mail, claimed).config, "mallory");
    expect((await claimed.getUserByAccount({ provider: "oidc", providerAccountId: "mallory" }))!.emailVerified).toBeNull();
  });

  it("a profile() that returns emailVerified itself does not make an unverified address proven", async () => {
    const adapter = MemoryAdapter();
    const { config } = withOidc(adapter, {
      profile: (claims: Record<string, unknown>) => ({ id: claims.sub, email: claims.email, name: "Mallory", emailVerified: new Date() }),
    });
    await signInWithIdp(config, "mallory");
    expect((await adapter.getUserByEmail(ADA))!.emailVerified).toBeNull();
  });

  it("verifiedEmail vouching for another address than profile() returned: unproven", async () => {
    const adapter = MemoryAdapter();
    const { config } = withOidc(adapter, { verifiedEmail: () => "someone-else@example.test" });
    await signInWithIdp(config, "ada");
    expect((await adapter.getUserByEmail(ADA))!.emailVerified).toBeNull();
  });

  it("verifiedEmail vouching in other letter case: proven (addresses are compared lowercased)", async () => {
    const adapter = MemoryAdapter();
    const { config } = withOidc(adapter, { verifiedEmail: (claims: Record<string, unknown>) => String(claims.email).toUpperCase() });
    await signInWithIdp(config, "ada");
    expect((await adapter.getUserByEmail(ADA))!.emailVerified).toBeInstanceOf(Date);
  });

  it("a verifiedEmail that throws fails the sign-in like a throwing profile(): nothing stored", async () => {
    const adapter = MemoryAdapter();
    const app = withOidc(adapter, {
      verifiedEmail: () => {
        throw new Error("boom");
      },
    });
    const ada = await signInWithIdp(app.config, "ada");
    expect(ada.location.searchParams.get("error")).toBe("OAuthCallbackError");
    expect(storesSession(ada.callback)).toBe(false);
    expect(await adapter.getUserByEmail(ADA)).toBeNull();
    expect(app.logs.errors.some((e) => e.name === "OAuthProfileParseError" && e.message.includes("verifiedEmail"))).toBe(true);
  });

  it("a linked user whose address was unproven proves it by signing in with a provider that now vouches for it; nothing is removed", async () => {
    const adapter = MemoryAdapter();
    const app = takeoverApp(idp, mail, adapter);
    const user = await adapter.createUser({ id: "", email: ADA, emailVerified: null, name: "Ada" });
    await adapter.linkAccount({ userId: user.id, type: "oidc", provider: "oidc", providerAccountId: "ada" });
    await adapter.linkAccount({ userId: user.id, type: "oauth", provider: "other", providerAccountId: "ada-elsewhere" });
    const ada = await signInWithIdp(app.config, "ada");
    expect(await sessionEmail(app.config, ada.jar)).toBe(ADA);
    expect(await adapter.getUser(user.id)).toMatchObject({ emailVerified: expect.any(Date) });
    expect(await adapter.getUserByAccount({ provider: "other", providerAccountId: "ada-elsewhere" })).toMatchObject({ id: user.id });
    expect(app.logs.warnings).not.toContain("unproven-user-adopted");
  });
});

describe("JWT sessions of a claimed user", () => {
  const jwt = { session: { strategy: "jwt" as const } };

  it("a jwt callback that rebuilds the token from scratch does not keep Mallory's session alive", async () => {
    const adapter = MemoryAdapter();
    const app = takeoverApp(idp, mail, adapter, {
      ...jwt,
      callbacks: { jwt: ({ token }) => ({ sub: token.sub, email: token.email, role: "member" }) },
    });
    const mallory = await signInWithIdp(app.config, "mallory");
    expect(mallory.jar.get("authjs.session-token")!.split(".")).toHaveLength(5);
    expect(await sessionEmail(app.config, mallory.jar)).toBe(ADA);
    await signInWithEmailLink(app.config, mail);
    expect(await sessionEmail(app.config, mallory.jar)).toBeNull();
  });

  it("a proven user's session read costs one lookup (its session version, which ends it once revoked), a claimed user's one more; with revocationDelay 0 on every read", async () => {
    // Every read asks (no version kept from the sign-in's read): the lookups a read makes at most.
    const jwt = { session: { strategy: "jwt" as const, revocationDelay: 0 } };
    const proven = recordAdapterCalls(MemoryAdapter());
    const provenApp = takeoverApp(idp, mail, proven.adapter, jwt);
    const ada = await signInWithIdp(provenApp.config, "ada");
    proven.calls.length = 0;
    expect(await sessionEmail(provenApp.config, ada.jar)).toBe(ADA);
    expect(proven.calls).toEqual(["getUserSessionVersion"]);

    const claimed = recordAdapterCalls(MemoryAdapter());
    const claimedApp = takeoverApp(idp, mail, claimed.adapter, jwt);
    const mallory = await signInWithIdp(claimedApp.config, "mallory");
    claimed.calls.length = 0;
    expect(await sessionEmail(claimedApp.config, mallory.jar)).toBe(ADA);
    expect(claimed.calls).toEqual(["getUser", "getUserSessionVersion"]);
  });

  it("a user deleted since the session began: the claimed user's session ends", async () => {
    const adapter = MemoryAdapter();
    const { config } = takeoverApp(idp, mail, adapter, jwt);
    const mallory = await signInWithIdp(config, "mallory");
    expect(await sessionEmail(config, mallory.jar)).toBe(ADA);
    await adapter.deleteUser((await adapter.getUserByEmail(ADA))!.id);
    expect(await sessionEmail(config, mallory.jar)).toBeNull();
  });
});

describe("a password claim (credentials on PostgreSQL, the user_passwords table)", () => {
  let db: PGlite;
  let adapter: Adapter;
  let config: AuthConfig;

  beforeAll(async () => {
    db = await openPGlite();
    await migrate(fromPGlite(db));
    adapter = PostgresAdapter(fromPGlite(db));
    const app = takeoverApp(idp, mail, adapter, { session: { strategy: "jwt" } });
    // An app's password sign-in: the user with this address whose password row matches (a plain
    // string stands in for the hash here; the generated apps store scrypt hashes).
    const credentials = Credentials({
      credentials: { email: {}, password: {} },
      async authorize({ email, password }) {
        const { rows } = await db.query<{ id: string; email: string; name: string | null }>(
          `SELECT u.id, u.email, u.name FROM users u JOIN user_passwords p ON p."userId" = u.id WHERE u.email = $1 AND p.hash = $2`,
          [email, password],
        );
        return rows[0] ?? null;
      },
    });
    config = { ...app.config, providers: [credentials, ...(app.config.providers ?? [])] };
  }, 60_000);
  afterAll(() => db?.close());

  it("Mallory's password sign-up, then Ada's email link: the password row is gone, her JWT session ends, her password signs nobody in", async () => {
    const { rows } = await db.query<{ id: string }>(`INSERT INTO users (name, email) VALUES ('Mallory', $1) RETURNING id`, [ADA]);
    const claimed = rows[0]!.id;
    await db.query(`INSERT INTO user_passwords ("userId", hash) VALUES ($1, 'mallory-password')`, [claimed]);
    const mallory = new CookieJar();
    await signInWithCredentials(config, mallory, { email: ADA, password: "mallory-password" });
    expect(await sessionEmail(config, mallory)).toBe(ADA);

    const ada = await signInWithEmailLink(config, mail);
    expect(await sessionEmail(config, ada.jar)).toBe(ADA);
    expect((await adapter.getUserByEmail!(ADA))!.id).toBe(claimed);
    expect((await db.query(`SELECT 1 FROM user_passwords WHERE "userId" = $1`, [claimed])).rows).toEqual([]);
    expect(await sessionEmail(config, mallory)).toBeNull();
    const again = await signInWithCredentials(config, new CookieJar(), { email: ADA, password: "mallory-password" });
    expect(storesSession(again)).toBe(false);
  });
});

describe("a claimer's sign-in racing the owner's proof", () => {
  /**
   * A memory adapter on which Ada's proof lands at `step` of Mallory's next
   * sign-in: after that sign-in read Mallory's user (unproven), before its
   * session exists. `arm()` makes the next call to `step` do it first.
   */
  function racingAdapter(step: "createSession" | "updateAccount") {
    const memory = MemoryAdapter();
    let armed = false;
    const adapter: Adapter = {
      ...memory,
      async [step](...args: unknown[]) {
        if (armed) {
          armed = false;
          const held = (await memory.getUserByEmail(ADA))!;
          expect((await memory.adoptUnprovenUser(held.id, { email: ADA, emailVerified: new Date() }))!.revoked).toBe(true);
        }
        return (memory[step] as (...a: unknown[]) => unknown)(...args);
      },
    };
    return { memory, adapter, arm: () => void (armed = true) };
  }

  it("database sessions: the session stored after the proof is deleted again, and the sign-in refused", async () => {
    const { memory, adapter, arm } = racingAdapter("createSession");
    const { config } = takeoverApp(idp, mail, adapter);
    await signInWithIdp(config, "mallory");
    arm();
    const again = await signInWithIdp(config, "mallory");
    expect(again.location.searchParams.get("error")).toBe("AccessDenied");
    expect(storesSession(again.callback)).toBe(false);
    expect(await sessionEmail(config, again.jar)).toBeNull();
    const held = (await memory.getUserByEmail(ADA))!;
    expect(held.emailVerified).toBeInstanceOf(Date);
  });

  it("credentials with database sessions: the sign-in reads the user once to check it and whether it is proven; a proof landing after that read still refuses it", async () => {
    const { memory, adapter, arm } = racingAdapter("createSession");
    const claimed = await memory.createUser({ id: "", name: "Mallory", email: ADA, emailVerified: null });
    const owner = await memory.createUser({ id: "", name: "Grace", email: "grace@example.com", emailVerified: new Date() });
    // An app's authorize that does not say whether the address is proven (no emailVerified): the handler reads the user.
    const passwords = new Map([["mallory-password", claimed], ["grace-password", owner]]);
    const credentials = Credentials({
      credentials: { email: {}, password: {} },
      authorize: ({ password }) => {
        const user = passwords.get(String(password));
        return user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    });
    const recorded = recordAdapterCalls(adapter);
    const { config } = takeoverApp(idp, mail, recorded.adapter, { providers: [credentials] });
    const signIn = async (password: string) => {
      const jar = new CookieJar();
      recorded.calls.length = 0;
      const response = await signInWithCredentials(config, jar, { email: ADA, password });
      return { jar, response, calls: [...recorded.calls] };
    };

    // A proven user: one read (it exists, and is proven), then the session.
    const grace = await signIn("grace-password");
    expect(storesSession(grace.response)).toBe(true);
    expect(grace.calls).toEqual(["getUser", "createSession"]);
    // An unproven one: the same read, the session, and the read after it that catches a proof made meanwhile.
    const mallory = await signIn("mallory-password");
    expect(storesSession(mallory.response)).toBe(true);
    expect(mallory.calls).toEqual(["getUser", "createSession", "getUser"]);
    expect(await sessionEmail(config, mallory.jar)).toBe(ADA);

    // Ada proves the address after the sign-in read Mallory's user, before its session exists: refused, no session.
    arm();
    const raced = await signIn("mallory-password");
    expect(locationOf(raced.response).searchParams.get("error")).toBe("AccessDenied");
    expect(storesSession(raced.response)).toBe(false);
    expect(await sessionEmail(config, raced.jar)).toBeNull();
    // Her proof ended the session Mallory had before.
    expect(await sessionEmail(config, mallory.jar)).toBeNull();
    expect((await memory.getUser(claimed.id))!.emailVerified).toBeInstanceOf(Date);
  });

  it("JWT sessions: the token minted after the proof ends at its first read", async () => {
    const { adapter, arm } = racingAdapter("updateAccount");
    const { config } = takeoverApp(idp, mail, adapter, { session: { strategy: "jwt" } });
    await signInWithIdp(config, "mallory");
    arm();
    const again = await signInWithIdp(config, "mallory");
    expect(storesSession(again.callback)).toBe(true);
    expect(await sessionEmail(config, again.jar)).toBeNull();
  });
});

describe("two proofs at once", () => {
  it("two of Ada's links followed together: both signed in as the one user; Mallory's link removed once", async () => {
    const adapter = MemoryAdapter();
    const app = takeoverApp(idp, mail, adapter);
    const mallory = await signInWithIdp(app.config, "mallory");
    const [jarA, jarB] = [new CookieJar(), new CookieJar()];
    const linkA = await mailedLink(app.config, mail, jarA, ADA);
    const linkB = await mailedLink(app.config, mail, jarB, ADA);
    await Promise.all([followLink(app.config, jarA, linkA), followLink(app.config, jarB, linkB)]);
    expect(await sessionEmail(app.config, jarA)).toBe(ADA);
    expect(await sessionEmail(app.config, jarB)).toBe(ADA);
    expect(app.logs.warnings.filter((w) => w === "unproven-user-adopted")).toHaveLength(1);
    expect(await sessionEmail(app.config, mallory.jar)).toBeNull();
  });
});

describe("an adapter without adoptUnprovenUser (an Auth.js adapter)", () => {
  it("refuses Ada's proof of a claimed address with a configuration error naming the method; Mallory's link and user stay untouched", async () => {
    const memory = MemoryAdapter();
    const { adoptUnprovenUser: _none, ...withoutAdoption } = memory;
    const app = takeoverApp(idp, mail, withoutAdoption);
    await signInWithIdp(app.config, "mallory");
    const ada = await signInWithEmailLink(app.config, mail);
    expect(storesSession(ada.result)).toBe(false);
    expect(ada.location.searchParams.get("error")).toBe("Configuration");
    expect(app.logs.errors.some((e) => e.name === "MissingAdapterMethods" && e.message.includes("adoptUnprovenUser"))).toBe(true);
    expect(await memory.getUserByAccount({ provider: "oidc", providerAccountId: "mallory" })).toMatchObject({ email: ADA, emailVerified: null });
    const viaIdp = await signInWithIdp(app.config, "ada");
    expect(storesSession(viaIdp.callback)).toBe(false);
  });
});
