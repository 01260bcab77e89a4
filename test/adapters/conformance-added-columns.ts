/**
 * The conformance tests of whole rows: Auth.js adapters return a user and a
 * session as stored (`SELECT *`), so a column the app added to its schema (the
 * `role` of role-based access, `ALTER TABLE users ADD COLUMN role text`) reaches
 * every user read, `getSessionAndUser` and so the `session` callback; the
 * session row keeps its `id`. Nothing of the handler's own (a password hash, the
 * session version) may come along. Part of `runAdapterConformance`; the added
 * columns are written through the target's storage (`addedColumns`), as the
 * app's own code would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Auth, type Adapter, type AdapterUser, type AuthConfig } from "@gatehouse/runtime";
import { GitHub } from "@gatehouse/runtime/providers";
import { SECRET } from "../helpers.js";

/** The target's storage, for the columns an app adds. */
export interface AddedColumns {
  /** Adds `role` (text) to users and `device` (text) to sessions; once, before the tests that use them. */
  add(): Promise<void>;
  setRole(userId: string, role: string): Promise<void>;
  setDevice(sessionToken: string, device: string): Promise<void>;
  /** Drops both again: the target's other tests see the schema as it was. */
  drop(): Promise<void>;
  /** The sessions table has an `id` column (every SQL schema: Auth.js's has one). */
  sessionIds?: boolean;
}

export interface AddedColumnsSuite {
  /** Absent: the target gives the suite no access to its storage, and the tests of added columns are skipped. */
  columns: AddedColumns | undefined;
  /** Why the adapter lacks the password methods: the test that no hash comes along is skipped. */
  noUserPasswords: string | undefined;
  /** Why `updateUser` and the session writes return fixed columns (Auth.js's pg adapter): only the reads are checked. */
  fixedColumnWrites: string | undefined;
  adapter(): Required<Adapter>;
  next(prefix: string): string;
  userInput(fields?: Partial<AdapterUser>): AdapterUser;
}

const NO_STORAGE = "the target gives the suite no access to its storage";
const quiet = { error() {}, warn() {}, debug() {} };
/** A week ahead: live, and not due for extension (so the callback sees the row as stored). */
const live = () => new Date(Date.now() + 7 * 24 * 3600_000);

export function describeAddedColumns(suite: AddedColumnsSuite): void {
  const { next, userInput } = suite;
  const a = () => suite.adapter();
  const columns = suite.columns;
  const withColumns = columns ? describe : describe.skip;

  withColumns(`whole rows: columns the app added${columns ? "" : ` (skipped: ${NO_STORAGE})`}`, () => {
    beforeAll(() => columns!.add());
    afterAll(() => columns!.drop());

    it(`an added users column (role) comes back from getUser, getUserByEmail, getUserByAccount, getSessionAndUser, updateUser and deleteUser${suite.fixedColumnWrites ? ` (the writes not checked: ${suite.fixedColumnWrites})` : ""}`, async () => {
      const user = await a().createUser(userInput());
      await columns!.setRole(user.id, "admin");
      const account = { userId: user.id, type: "oauth" as const, provider: "github", providerAccountId: next("gh") };
      await a().linkAccount(account);
      const sessionToken = next("session-token");
      await a().createSession({ sessionToken, userId: user.id, expires: live() });

      const reads: Record<string, unknown> = {
        getUser: await a().getUser(user.id),
        getUserByEmail: await a().getUserByEmail(user.email),
        getUserByAccount: await a().getUserByAccount(account),
        getSessionAndUser: (await a().getSessionAndUser(sessionToken))?.user,
      };
      const updated = await a().updateUser({ id: user.id, name: "Countess of Lovelace" });
      if (!suite.fixedColumnWrites) reads.updateUser = updated;
      for (const [method, read] of Object.entries(reads)) {
        const { role, id, emailVerified } = (read ?? {}) as AdapterUser & { role?: unknown };
        // The contract's types stay right alongside: a string id, a Date or null.
        expect({ method, role, id, emailVerified }).toEqual({ method, role: "admin", id: user.id, emailVerified: null });
      }
      const deleted = (await a().deleteUser(user.id)) as (AdapterUser & { role?: unknown }) | null | undefined;
      if (deleted && !suite.fixedColumnWrites) expect(deleted.role).toBe("admin");
    });

    it("getSessionAndUser returns the session row whole: its id and an added column (device)", async () => {
      const user = await a().createUser(userInput());
      const sessionToken = next("session-token");
      const created = await a().createSession({ sessionToken, userId: user.id, expires: live() });
      await columns!.setDevice(sessionToken, "laptop");
      const found = await a().getSessionAndUser(sessionToken);
      expect(found?.session).toMatchObject({ ...created, device: "laptop" });
      if (columns!.sessionIds) expect(found?.session).toHaveProperty("id", (created as { id?: unknown }).id);
      if (columns!.sessionIds) expect((created as { id?: unknown }).id ?? null).not.toBeNull();
      // The writes return the whole row too.
      if (suite.fixedColumnWrites) return;
      const updated = await a().updateSession({ sessionToken, expires: live() });
      const id = (found?.session as { id?: unknown } | undefined)?.id;
      if (updated) expect(updated).toMatchObject({ device: "laptop", ...(columns!.sessionIds ? { id } : {}) });
      const deleted = await a().deleteSession(sessionToken);
      if (deleted) expect(deleted).toMatchObject({ device: "laptop" });
    });

    it("the added columns reach the database session callback, as Auth.js hands them over; the client gets what it returns, but the sessionToken", async () => {
      const user = await a().createUser(userInput({ name: "Ada" }));
      await columns!.setRole(user.id, "admin");
      const sessionToken = next("session-token");
      await a().createSession({ sessionToken, userId: user.id, expires: live() });
      await columns!.setDevice(sessionToken, "laptop");
      const seen: any[] = [];
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        logger: quiet,
        adapter: a(),
        session: { strategy: "database" },
        providers: [GitHub({ clientId: "client-id", clientSecret: "client-secret" })],
        callbacks: {
          session: (params: any) => {
            seen.push(params);
            return { ...params.session, user: { ...params.session.user, role: params.user.role } };
          },
        },
      };
      const response = await Auth(
        new Request("http://localhost:3000/auth/session", { headers: { cookie: `authjs.session-token=${sessionToken}` } }),
        config,
      );
      expect(response.status).toBe(200);
      const body = await response.json();

      expect(seen).toHaveLength(1);
      const [{ session, user: given }] = seen;
      expect(given).toMatchObject({ id: user.id, role: "admin" });
      expect(session).toMatchObject({ sessionToken, userId: user.id, device: "laptop", user: { id: user.id, role: "admin" } });
      expect(session.expires).toBeInstanceOf(Date);
      if (columns!.sessionIds) expect(session.id ?? null).not.toBeNull();

      expect(body).toMatchObject({ userId: user.id, device: "laptop", user: { email: user.email, role: "admin" } });
      expect(body).not.toHaveProperty("sessionToken");
      expect(JSON.stringify(body)).not.toContain(sessionToken);
    });
  });

  (suite.noUserPasswords ? it.skip : it)(
    `whole rows: nothing of the handler's own comes along (no password hash, no session version, no session row carried beside the user)${suite.noUserPasswords ? ` (skipped: ${suite.noUserPasswords})` : ""}`,
    async () => {
      const hash = `$scrypt$${next("never-on-a-user")}`;
      const created = await a().createUserWithPassword(userInput(), hash);
      expect(created).toBeTruthy();
      const user = created!;
      // Moves the user's session version, where the adapter keeps one.
      await a().revokeUserSessions?.(user.id);
      const sessionToken = next("session-token");
      await a().createSession({ sessionToken, userId: user.id, expires: live() });
      const reads = [
        created,
        await a().getUser(user.id),
        await a().getUserByEmail(user.email),
        (await a().getSessionAndUser(sessionToken))?.user,
        await a().updateUser({ id: user.id, name: "Renamed" }),
      ];
      for (const read of reads) {
        expect(read).toBeTruthy();
        expect(JSON.stringify(read)).not.toContain(hash);
        expect(Object.keys(read!).filter((key) => /hash|password|sessionversion|^version$|updated_at|^gatehouse_session$/i.test(key))).toEqual([]);
      }
    },
  );
}
