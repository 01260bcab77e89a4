/**
 * The memory adapter: the shared conformance suite, then what the contract leaves
 * open and the memory adapter decides (it returns what it changed, keeps a given
 * id, checks that referenced users exist), and its production warning.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
// Relative import: vitest.config.ts aliases only the root, jwt and providers entries of @gatehouse/runtime.
import { MemoryAdapter, MemoryAdapterError } from "../../runtime/src/adapters/memory.js";
import { runAdapterConformance } from "./conformance.js";

const adapter = MemoryAdapter();

runAdapterConformance({
  name: "memory",
  setup: () => adapter,
  reset: () => adapter.clear(),
  // No schema: a field the app stores on a user or a session is its "added column".
  addedColumns: {
    add: async () => {},
    drop: async () => {},
    setRole: async (userId, role) => {
      await adapter.updateUser({ id: userId, role } as Parameters<typeof adapter.updateUser>[0]);
    },
    setDevice: async (sessionToken, device) => {
      await adapter.updateSession({ sessionToken, device } as Parameters<typeof adapter.updateSession>[0]);
    },
  },
});

const EXPIRES = new Date("2031-05-06T07:08:09.123Z");

/** The error a call failed with; the call runs inside, so a synchronous throw counts too. */
async function errorOf(call: () => unknown): Promise<MemoryAdapterError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(MemoryAdapterError);
    return error as MemoryAdapterError;
  }
  throw new Error("expected the call to fail");
}

describe("MemoryAdapter specifics", () => {
  const newUser = (m: ReturnType<typeof MemoryAdapter>, email = "ada@example.com") =>
    m.createUser({ id: "", email, emailVerified: null, name: "Ada" });

  it("keeps a given id, and refuses a second user with the same id", async () => {
    const m = MemoryAdapter();
    const user = await m.createUser({ id: "user-1", email: "ada@example.com", emailVerified: null });
    expect(user.id).toBe("user-1");
    const error = await errorOf(() => m.createUser({ id: "user-1", email: "other@example.com", emailVerified: null }));
    expect(error.code).toBe("unique_violation");
  });

  it("generates a UUID when the id is empty", async () => {
    const user = await newUser(MemoryAdapter());
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("returns what it changed or removed", async () => {
    const m = MemoryAdapter();
    const user = await newUser(m);
    const account = { userId: user.id, type: "oauth" as const, provider: "github", providerAccountId: "1", token_type: "Bearer" };
    expect(await m.linkAccount(account)).toEqual({ ...account, token_type: "bearer" });
    expect(await m.unlinkAccount(account)).toEqual({ ...account, token_type: "bearer" });
    expect(await m.unlinkAccount(account)).toBeUndefined();

    const session = await m.createSession({ sessionToken: "t", userId: user.id, expires: EXPIRES });
    const later = new Date(EXPIRES.getTime() + 1000);
    expect(await m.updateSession({ sessionToken: "t", expires: later })).toEqual({ ...session, expires: later });
    expect(await m.updateSession({ sessionToken: "unknown", expires: later })).toBeNull();
    expect(await m.deleteSession("t")).toEqual({ ...session, expires: later });
    expect(await m.deleteSession("t")).toBeNull();

    const token = { identifier: "ada@example.com", token: "hashed", expires: EXPIRES };
    expect(await m.createVerificationToken(token)).toEqual(token);
    expect((await errorOf(() => m.createVerificationToken(token))).code).toBe("unique_violation");

    expect(await m.deleteUser(user.id)).toEqual(user);
    expect(await m.deleteUser(user.id)).toBeNull();
  });

  it("refuses records that point at a user that does not exist", async () => {
    const m = MemoryAdapter();
    const userId = "no-such-user";
    const failures = [
      () => m.linkAccount({ userId, type: "oauth", provider: "github", providerAccountId: "1" }),
      () => m.createSession({ sessionToken: "t", userId, expires: EXPIRES }),
      () =>
        m.createAuthenticator({
          userId,
          credentialID: "c",
          providerAccountId: "c",
          credentialPublicKey: "k",
          counter: 0,
          credentialDeviceType: "singleDevice",
          credentialBackedUp: false,
        }),
    ];
    for (const failure of failures) expect((await errorOf(failure)).code).toBe("foreign_key_violation");
  });

  it("updateUser of an unknown user fails with not_found", async () => {
    expect((await errorOf(() => MemoryAdapter().updateUser({ id: "nobody", name: "x" }))).code).toBe("not_found");
  });

  it("undefined in an update means 'not given'", async () => {
    const m = MemoryAdapter();
    const user = await newUser(m);
    expect(await m.updateUser({ id: user.id, name: undefined, image: "https://example.com/a.png" })).toEqual({
      ...user,
      image: "https://example.com/a.png",
    });
  });

  it("users without an email do not collide", async () => {
    const m = MemoryAdapter();
    const noEmail = { id: "", email: null as unknown as string, emailVerified: null };
    const first = await m.createUser(noEmail);
    const second = await m.createUser(noEmail);
    expect(first.id).not.toBe(second.id);
  });

  it("clear() empties every store; separate adapters share nothing", async () => {
    const m = MemoryAdapter();
    const other = MemoryAdapter();
    const user = await newUser(m);
    await m.linkAccount({ userId: user.id, type: "email", provider: "email", providerAccountId: user.email });
    await m.createSession({ sessionToken: "t", userId: user.id, expires: EXPIRES });
    await m.createVerificationToken({ identifier: user.email, token: "v", expires: EXPIRES });
    expect(await other.getUser(user.id)).toBeNull();

    m.clear();
    expect(await m.getUser(user.id)).toBeNull();
    expect(await m.getUserByEmail(user.email)).toBeNull();
    expect(await m.getAccount(user.email, "email")).toBeNull();
    expect(await m.getSessionAndUser("t")).toBeNull();
    expect(await m.useVerificationToken({ identifier: user.email, token: "v" })).toBeNull();
    // The email is free again.
    expect((await newUser(m, user.email)).email).toBe(user.email);
  });
});

describe("MemoryAdapter production warning", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("warns once with NODE_ENV=production: data is lost on restart and not shared", async () => {
    const warn = vi.fn();
    const m = MemoryAdapter({ env: { NODE_ENV: "production" }, warn });
    await m.createUser({ id: "", email: "ada@example.com", emailVerified: null });
    await m.getUserByEmail("ada@example.com");
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toMatch(/MemoryAdapter/);
    expect(message).toMatch(/lost on restart/);
    expect(message).toMatch(/not shared between processes/);
  });

  it("warns through console.warn when no warn function is given", () => {
    const consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {});
    MemoryAdapter({ env: { NODE_ENV: "production" } });
    expect(consoleWarn).toHaveBeenCalledTimes(1);
  });

  it("does not warn outside production, nor without an env", () => {
    const warn = vi.fn();
    MemoryAdapter({ env: { NODE_ENV: "development" }, warn });
    MemoryAdapter({ env: { NODE_ENV: "test" }, warn });
    MemoryAdapter({ env: {}, warn });
    MemoryAdapter({ warn });
    expect(warn).not.toHaveBeenCalled();
    const consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {});
    MemoryAdapter();
    expect(consoleWarn).not.toHaveBeenCalled();
  });
});
