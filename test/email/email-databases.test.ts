/**
 * Email sign-in on real databases through the postgres adapter: PGlite always,
 * the PostgreSQL server when DATABASE_URL is set (CI sets it). The verification
 * token row holds the hash and is gone after use; two links followed at once for
 * the same new address end in one user and one account; an account insert the
 * database refuses leaves no user behind.
 */
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthConfig } from "@gatehouse/runtime";
import { migrate, PostgresAdapter, type SqlClient } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { fromPGlite } from "@gatehouse/runtime/adapters/postgres/pglite";
import { Nodemailer } from "@gatehouse/runtime/providers";
import { openPGlite } from "../adapters/support/pglite.js";
import { createTestDatabase, droppablePool, type TestDatabase } from "../adapters/support/postgres-server.js";
import { captureLogger, CookieJar, fetchSession, locationOf, SECRET, storesSession } from "../helpers.js";
import { followLink, mailedLink } from "./support/flow.js";
import { startMailServer, type MailServer } from "./support/smtp.js";

interface Database {
  client: SqlClient;
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function emailOnDatabase(name: string, open: () => Promise<Database>, skip = false) {
  describe.skipIf(skip)(`email sign-in on ${name}`, () => {
    let mail: MailServer;
    let db: Database;
    let config: AuthConfig;

    beforeAll(async () => {
      [mail, db] = await Promise.all([startMailServer(), open()]);
      await migrate(db.client);
      config = {
        secret: SECRET,
        trustHost: true,
        logger: captureLogger().logger,
        adapter: PostgresAdapter(db.client),
        providers: [Nodemailer({ server: mail.url, from: "no-reply@example.com" })],
      };
    }, 60_000);
    afterAll(async () => {
      await Promise.all([mail?.close(), db?.close()]);
    });

    it("stores the hashed token, uses it once, and creates the user with a verified address", async () => {
      const jar = new CookieJar();
      const link = await mailedLink(config, mail, jar, "grace@example.com");
      const tokens = await db.rows(`SELECT identifier, token, expires FROM verification_token WHERE identifier = 'grace@example.com'`);
      expect(tokens).toHaveLength(1);
      expect(tokens[0]!.token).not.toBe(link.searchParams.get("token"));

      const { result } = await followLink(config, jar, link);
      expect(storesSession(result)).toBe(true);
      expect(await db.rows(`SELECT 1 FROM verification_token WHERE identifier = 'grace@example.com'`)).toEqual([]);
      const users = await db.rows(`SELECT id, "emailVerified" FROM users WHERE email = 'grace@example.com'`);
      expect(users).toHaveLength(1);
      expect(users[0]!.emailVerified).toBeInstanceOf(Date);
      const accounts = await db.rows(`SELECT type, provider, "providerAccountId" FROM accounts WHERE "userId" = '${users[0]!.id}'`);
      expect(accounts).toEqual([{ type: "email", provider: "email", providerAccountId: "grace@example.com" }]);
      expect((await fetchSession(config, jar)).body.user.email).toBe("grace@example.com");
    });

    it("two links for the same new address followed at once make one user and one account", async () => {
      const links = [await mailedLink(config, mail, new CookieJar(), "twice@example.com"), await mailedLink(config, mail, new CookieJar(), "twice@example.com")];
      const results = await Promise.all(links.map((link) => followLink(config, new CookieJar(), link)));
      expect(results.every(({ result }) => storesSession(result))).toBe(true);
      expect(await db.rows(`SELECT id FROM users WHERE email = 'twice@example.com'`)).toHaveLength(1);
      expect(await db.rows(`SELECT 1 FROM accounts WHERE "providerAccountId" = 'twice@example.com'`)).toHaveLength(1);
    });

    it("an email account the database refuses leaves no user row (one transaction); a later link signs in", async () => {
      // The database refuses the account of one address, after the user was inserted in the same
      // transaction: what a lost connection or a full disk does at that moment.
      await db.rows(`
        CREATE FUNCTION refuse_account() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW."providerAccountId" = 'refused@example.com' THEN RAISE EXCEPTION 'account refused by the test'; END IF;
          RETURN NEW;
        END $$`);
      await db.rows(`CREATE TRIGGER refuse_account BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION refuse_account()`);
      const log = captureLogger();
      const failing = { ...config, logger: log.logger };
      try {
        const jar = new CookieJar();
        const { result } = await followLink(failing, jar, await mailedLink(failing, mail, jar, "refused@example.com"));
        expect(locationOf(result).pathname).toBe("/auth/error");
        expect(locationOf(result).searchParams.get("error")).toBe("Configuration");
        expect(storesSession(result)).toBe(false);
        expect(await db.rows(`SELECT 1 FROM users WHERE email = 'refused@example.com'`)).toEqual([]);
        expect(log.errors.some((e) => e.name === "AdapterError" && e.message.includes("createUserWithAccount"))).toBe(true);
      } finally {
        await db.rows(`DROP TRIGGER refuse_account ON accounts`);
        await db.rows(`DROP FUNCTION refuse_account()`);
      }
      const jar = new CookieJar();
      const { result } = await followLink(config, jar, await mailedLink(config, mail, jar, "refused@example.com"));
      expect(storesSession(result)).toBe(true);
      expect(await db.rows(`SELECT 1 FROM users u JOIN accounts a ON a."userId" = u.id WHERE u.email = 'refused@example.com'`)).toHaveLength(1);
    });
  });
}

emailOnDatabase("PostgreSQL in PGlite", async () => {
  const pglite: PGlite = await openPGlite();
  return {
    client: fromPGlite(pglite),
    rows: async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows,
    close: () => pglite.close(),
  };
});

const serverUrl = process.env.DATABASE_URL;
emailOnDatabase(
  "a PostgreSQL server (needs DATABASE_URL: test/adapters/support/start-postgres.sh)",
  async () => {
    const database: TestDatabase = await createTestDatabase(serverUrl!, "email");
    const pool = droppablePool({ connectionString: database.url, max: 5 });
    // DROP DATABASE ... WITH (FORCE) at the end may end a connection the pool is still closing.
    pool.on("error", () => {});
    return {
      client: fromPg(pool),
      rows: async (sql) => (await pool.query(sql)).rows,
      close: async () => {
        await pool.end();
        await database.drop();
      },
    };
  },
  !serverUrl,
);
