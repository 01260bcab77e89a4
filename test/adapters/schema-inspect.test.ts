/**
 * `inspectPostgres` and `inspectSqlite` on real databases: PGlite in this
 * process, better-sqlite3 in memory. First a table with every feature the
 * catalog describes, then the schema each dialect's real migrations produce,
 * snapshotted (test/adapters/__snapshots__/schema-inspect.test.ts.snap): a
 * change to a migration shows up there as a readable diff. One PGlite for the
 * file (opening one is slow); each test works in its own schema.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { HostedStoreClient, migrate as migrateHostedStore } from "@gatehouse/runtime/adapters/hosted-store";
import { migrate as migratePostgres } from "@gatehouse/runtime/adapters/postgres";
import { migrate as migrateSqlite } from "@gatehouse/runtime/adapters/sqlite";
import { fromBetterSqlite3 } from "@gatehouse/runtime/adapters/sqlite/better-sqlite3";
import type { SqliteClient } from "@gatehouse/runtime/adapters/sqlite";
import type { CatalogTable } from "../../runtime/src/schema/catalog.js";
import { inspectPostgres } from "../../runtime/src/schema/inspect/postgres.js";
import { inspectSqlite } from "../../runtime/src/schema/inspect/sqlite.js";
import { normalizeDefault } from "../../runtime/src/schema/normalize-default.js";
import { usePGlite } from "./support/pglite.js";

const { db: pg } = usePGlite();

/** A fresh in-memory SQLite database (foreign keys on, as the wrapper sets them). */
function openSqlite(): SqliteClient {
  return fromBetterSqlite3(new Database(":memory:"));
}

/**
 * The same tables in both dialects: `orgs`, and `members` with every feature
 * (composite primary key, a UNIQUE constraint, a unique and a plain index, an
 * expression index, a cascading composite-free foreign key, defaults, NOT NULL),
 * and `unrelated`, which the `tables` option leaves out.
 */
const FEATURES = `
CREATE TABLE orgs (id text NOT NULL PRIMARY KEY, name text);
CREATE TABLE members (
  org text NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  "userId" text NOT NULL,
  role text NOT NULL DEFAULT 'member',
  seats integer DEFAULT (1),
  email text,
  nickname text,
  PRIMARY KEY (org, "userId"),
  UNIQUE (org, nickname)
);
CREATE UNIQUE INDEX members_email_key ON members (email);
CREATE INDEX members_role_idx ON members (role, org);
CREATE INDEX members_lower_email_idx ON members (lower(email));
CREATE TABLE unrelated (id integer);
`;

/** `members` as both dialects report it, but for what the dialect spells its own way. */
function expectedMembers(defaults: { role: string; seats: string }): CatalogTable {
  return {
    name: "members",
    columns: [
      { name: "org", type: "text", notNull: true, default: null },
      { name: "userId", type: "text", notNull: true, default: null },
      { name: "role", type: "text", notNull: true, default: defaults.role },
      { name: "seats", type: "integer", notNull: false, default: defaults.seats },
      { name: "email", type: "text", notNull: false, default: null },
      { name: "nickname", type: "text", notNull: false, default: null },
    ],
    primaryKey: ["org", "userId"],
    indexes: [
      { name: "members_email_key", unique: true, columns: ["email"] },
      { name: "members_lower_email_idx", unique: false, columns: ["lower(email)"] },
      { name: "members_role_idx", unique: false, columns: ["role", "org"] },
    ],
    uniqueConstraints: [["org", "nickname"]],
    foreignKeys: [{ columns: ["org"], table: "orgs", referencedColumns: ["id"], onDelete: "cascade", onUpdate: "no action" }],
  };
}

describe("inspectPostgres (PGlite)", () => {
  it("reads a table with every feature; `tables` leaves out the others and skips names without a table", async () => {
    await pg.query(`CREATE SCHEMA features; SET search_path TO features; ${FEATURES} SET search_path TO public;`);
    const catalog = await inspectPostgres(pg, { schema: "features", tables: ["members", "orgs", "missing"] });
    expect(catalog.tables.map((table) => table.name)).toEqual(["members", "orgs"]);
    // PostgreSQL keeps the literal's type and drops the parentheses around 1.
    expect(catalog.tables[0]).toEqual(expectedMembers({ role: "'member'::text", seats: "1" }));
    expect(catalog.tables[1]).toEqual({
      name: "orgs",
      columns: [
        { name: "id", type: "text", notNull: true, default: null },
        { name: "name", type: "text", notNull: false, default: null },
      ],
      primaryKey: ["id"],
      indexes: [],
      uniqueConstraints: [],
      foreignKeys: [],
    });
    expect((await inspectPostgres(pg, { schema: "features" })).tables.map((table) => table.name)).toEqual(["members", "orgs", "unrelated"]);
  });

  it("reads the schema it is given, by default the current one; leaves out dropped columns", async () => {
    await pg.query(`CREATE SCHEMA elsewhere; CREATE TABLE elsewhere.things (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, gone text, label varchar(40) NOT NULL, made timestamptz DEFAULT now(), tags text[]
    ); ALTER TABLE elsewhere.things DROP COLUMN gone;`);
    const catalog = await inspectPostgres(pg, { schema: "elsewhere" });
    expect(catalog.tables).toEqual([
      {
        name: "things",
        columns: [
          // An identity column has no default expression (its sequence is not one).
          { name: "id", type: "bigint", notNull: true, default: null },
          { name: "label", type: "character varying(40)", notNull: true, default: null },
          { name: "made", type: "timestamp with time zone", notNull: false, default: "now()" },
          { name: "tags", type: "text[]", notNull: false, default: null },
        ],
        primaryKey: ["id"],
        indexes: [],
        uniqueConstraints: [],
        foreignKeys: [],
      },
    ]);
    // The current schema (public here) has no table `things`.
    expect((await inspectPostgres(pg, { tables: ["things"] })).tables).toEqual([]);
    await pg.transaction(async (tx) => {
      await tx.query("SET LOCAL search_path TO elsewhere");
      expect((await inspectPostgres(tx)).tables.map((table) => table.name)).toEqual(["things"]);
    });
  });

  it("maps every referential action and keeps multi-column keys in their order", async () => {
    await pg.query(`CREATE SCHEMA actions; SET search_path TO actions;
      CREATE TABLE parent (a int, b int, PRIMARY KEY (a, b));
      CREATE TABLE child (
        x int, y int, z int DEFAULT 0,
        FOREIGN KEY (y, x) REFERENCES parent (b, a) ON DELETE SET NULL ON UPDATE RESTRICT,
        FOREIGN KEY (x, y) REFERENCES parent (a, b) ON DELETE SET DEFAULT ON UPDATE CASCADE,
        FOREIGN KEY (x, z) REFERENCES parent ON DELETE NO ACTION
      );
      SET search_path TO public;`);
    const [child] = (await inspectPostgres(pg, { schema: "actions", tables: ["child"] })).tables;
    expect(child!.foreignKeys).toEqual([
      { columns: ["x", "y"], table: "parent", referencedColumns: ["a", "b"], onDelete: "set default", onUpdate: "cascade" },
      { columns: ["x", "z"], table: "parent", referencedColumns: ["a", "b"], onDelete: "no action", onUpdate: "no action" },
      { columns: ["y", "x"], table: "parent", referencedColumns: ["b", "a"], onDelete: "set null", onUpdate: "restrict" },
    ]);
  });
});

describe("inspectSqlite (better-sqlite3)", () => {
  it("reads a table with every feature; `tables` leaves out the others and skips names without a table", async () => {
    const db = openSqlite();
    await db.exec(FEATURES);
    const catalog = await inspectSqlite(db, { tables: ["members", "orgs", "missing"] });
    expect(catalog.tables.map((table) => table.name)).toEqual(["members", "orgs"]);
    // SQLite reports a default as written, without the parentheses of DEFAULT (1).
    expect(catalog.tables[0]).toEqual(expectedMembers({ role: "'member'", seats: "1" }));
    expect((await inspectSqlite(db)).tables.map((table) => table.name)).toEqual(["members", "orgs", "unrelated"]);
  });

  it("leaves out dropped columns and SQLite's own tables; an INTEGER PRIMARY KEY is NOT NULL; a key naming only the table references its primary key", async () => {
    const db = openSqlite();
    await db.exec(`CREATE TABLE things (id INTEGER PRIMARY KEY AUTOINCREMENT, gone TEXT, label TEXT COLLATE NOCASE);
      ALTER TABLE things DROP COLUMN gone;
      INSERT INTO things (label) VALUES ('a');
      CREATE TABLE links (thing INTEGER REFERENCES things ON DELETE SET NULL ON UPDATE RESTRICT);
      CREATE INDEX links_thing_desc ON links (thing COLLATE BINARY DESC);`);
    expect((await inspectSqlite(db)).tables).toEqual([
      {
        name: "links",
        columns: [{ name: "thing", type: "integer", notNull: false, default: null }],
        primaryKey: [],
        indexes: [{ name: "links_thing_desc", unique: false, columns: ["thing"] }],
        uniqueConstraints: [],
        foreignKeys: [{ columns: ["thing"], table: "things", referencedColumns: ["id"], onDelete: "set null", onUpdate: "restrict" }],
      },
      {
        name: "things",
        columns: [
          { name: "id", type: "integer", notNull: true, default: null },
          { name: "label", type: "text", notNull: false, default: null },
        ],
        primaryKey: ["id"],
        indexes: [],
        uniqueConstraints: [],
        foreignKeys: [],
      },
    ]);
  });

  it("groups a multi-column foreign key by its id", async () => {
    const db = openSqlite();
    await db.exec(`CREATE TABLE parent (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
      CREATE TABLE child (x INTEGER, y INTEGER, FOREIGN KEY (y, x) REFERENCES parent (b, a) ON DELETE CASCADE, FOREIGN KEY (x) REFERENCES parent (a));`);
    const [child] = (await inspectSqlite(db, { tables: ["child"] })).tables;
    expect(child!.foreignKeys).toEqual([
      { columns: ["x"], table: "parent", referencedColumns: ["a"], onDelete: "no action", onUpdate: "no action" },
      { columns: ["y", "x"], table: "parent", referencedColumns: ["b", "a"], onDelete: "cascade", onUpdate: "no action" },
    ]);
  });
});

describe("normalizeDefault", () => {
  it("trims and drops outer parentheses that enclose the whole text, and nothing else", () => {
    expect(normalizeDefault(null)).toBeNull();
    expect(normalizeDefault("  0 ")).toBe("0");
    expect(normalizeDefault("((now()))")).toBe("now()");
    expect(normalizeDefault("( lower('x') )")).toBe("lower('x')");
    expect(normalizeDefault("(gen_random_uuid())::text")).toBe("(gen_random_uuid())::text");
    expect(normalizeDefault("(1) + (2)")).toBe("(1) + (2)");
    // A parenthesis inside a string literal does not pair with one outside it.
    expect(normalizeDefault("('(') || (')')")).toBe("('(') || (')')");
    expect(normalizeDefault("(')')")).toBe("')'");
  });
});

// The schema each dialect's migrations make, as the inspector reads it. Compare
// these snapshots with the .sql files in runtime/migrations/<dialect>/.
describe("the schema the real migrations make", () => {
  it("PostgreSQL (migrate on PGlite, the public schema)", async () => {
    await migratePostgres(pg);
    expect(await inspectPostgres(pg)).toMatchSnapshot();
  });

  it("SQLite (migrate on better-sqlite3)", async () => {
    const db = openSqlite();
    await migrateSqlite(db);
    expect(await inspectSqlite(db)).toMatchSnapshot();
  });

  it("hosted store (migrate on PGlite, a branch's schema)", async () => {
    const store = new HostedStoreClient({ client: pg, branch: "inspect" });
    await migrateHostedStore(store);
    expect(await inspectPostgres(pg, { schema: "inspect" })).toMatchSnapshot();
  });
});
