/**
 * The bench scripts run to the end, as CONTRIBUTING prints them: `npm run bench`
 * and `npm run bench:against -- <revision>`, with BENCH_SMOKE=1 (one round of two
 * samples per scenario: every scenario runs and its responses are checked, but
 * nothing is measured; the figures are not asserted). Without this the HTTP part
 * once broke unseen for several sessions (the generated app's sign-up changed).
 */
import { execa } from "execa";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
// Better Auth's CLI, the cold-start bench's reference, is left out: installing it is most of that part's time.
const SMOKE = { BENCH_SMOKE: "1", BENCH_CLI_REFERENCE: "0" };

/** A console.table row of `scenario` that carries a ratio (`'12.3x'`). */
const rowWithRatio = (scenario: string) => new RegExp(`'${scenario.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'.*'\\d+\\.\\dx'`);

const HANDLER_SCENARIOS = [
  "session GET (valid JWT)",
  "session GET (JWT, each cookie sent for the first time)",
  "CSRF GET (new visitor)",
  "CSRF GET (with its cookie)",
  "credentials sign-in",
  "session POST (update)",
  "session GET (database, PGlite)",
];

describe("the bench scripts", () => {
  it("npm run bench runs every part: each scenario answers as expected and gets its ratio", { timeout: 900_000 }, async () => {
    const { stdout } = await execa("npm", ["run", "bench"], { cwd: ROOT, env: SMOKE });
    const scenarios = [
      ...HANDLER_SCENARIOS,
      "OIDC callback (code exchange, ID token, JWT session)",
      "email sign-in start (token stored, redirect)",
      ...(process.env.DATABASE_URL ? ["session GET (database, PostgreSQL)"] : []),
    ];
    const [sequential, concurrent] = stdout.split("requests in flight, as on a busy server");
    for (const scenario of scenarios) {
      expect(sequential, scenario).toMatch(rowWithRatio(scenario));
      expect(concurrent, scenario).toMatch(rowWithRatio(scenario));
    }
    // Against Better Auth, in process: each scenario one at a time and in flight.
    const [, betterAuth] = stdout.split(/Against Better Auth [\d.]+ \(better-auth\)/);
    const databases = ["memory", "PGlite", ...(process.env.DATABASE_URL ? ["PostgreSQL"] : [])];
    const betterAuthScenarios = databases.flatMap((label) => [
      `session read (database session, ${label}, no cookie cache)`,
      `sign-out (database session, ${label})`,
      `email + password sign-in (${label}, same hash both sides)`,
    ]);
    for (const scenario of ["session read (ours JWT, theirs cookie cache)", ...betterAuthScenarios]) {
      for (const mode of ["sequential", "concurrent"]) expect(betterAuth, `${mode} ${scenario}`).toMatch(new RegExp(`'${mode}'\\s*│\\s*${rowWithRatio(scenario).source}`));
    }
    // On a database, each row also holds its floor: the ratio above it and the floor's own ratio (three ratios in all).
    for (const scenario of betterAuthScenarios.filter((scenario) => !scenario.includes("memory"))) {
      expect(betterAuth, scenario).toMatch(new RegExp(`${rowWithRatio(scenario).source}.*'\\d+\\.\\dx'.*'\\d+\\.\\dx'`));
    }
    expect(stdout).toMatch(rowWithRatio("session GET (valid JWT) vs the floor"));
    if (process.env.DATABASE_URL) {
      expect(stdout).toMatch(rowWithRatio("session GET (database, PostgreSQL) vs the floor"));
      expect(stdout).toMatch(rowWithRatio("the least handler vs the floor"));
    }
    // Ours on PGlite as shipped against PGlite's public query only, one at a time and in flight.
    const [, publicOnly] = stdout.split("Why fromPGlite takes PGlite's private locks");
    expect(publicOnly).toMatch(/'sequential'\s*│\s*'session GET \(database, PGlite\)'.*'\d+\.\dx'/);
    expect(publicOnly).toMatch(/'concurrent'\s*│\s*'session GET \(database, PGlite\)'.*'\d+\.\dx'/);
    // One smoke sample of the heap is noise and may come out below zero (-164 KB once in CI): the row and a figure, not its sign.
    expect(stdout).toMatch(/'session GET \(valid JWT\), 100 distinct sessions'\s*│\s*-?\d+/);
    expect(stdout).toMatch(/'--help'\s*│\s*'\d+ ms'/);
    expect(stdout).toMatch(/'auth-init --yes --no-install'\s*│\s*'\d+ ms'/);
    // The whole apps over HTTP: four made side by side (each step of each timed), started and signed in
    // (ours through the mailed sign-up link, in SvelteKit and SolidStart), each table under its heading.
    const http = stdout.slice(stdout.indexOf("Whole apps over HTTP"));
    for (const setup of [
      /^ {2}sv's minimal app \(sv@[\d.]+\): sv create [\d.]+ s, npm install \(with @auth\/sveltekit@[\d.]+, better-auth@[\d.]+, better-sqlite3@[\d.]+\) [\d.]+ s$/m,
      /^ {2}@auth\/sveltekit@[\d.]+: copy of sv's app [\d.]+ s, build [\d.]+ s$/m,
      /^ {2}better-auth@[\d.]+: copy of sv's app [\d.]+ s, build [\d.]+ s$/m,
      /^ {2}gatehouse, SvelteKit: auth-init \(with its npm install\) [\d.]+ s, build [\d.]+ s$/m,
      /^ {2}gatehouse, SolidStart: auth-init \(with its npm install\) [\d.]+ s, build \(Node 24\) [\d.]+ s$/m,
      /^Setup \(all four apps made, installed, built, started, signed in\): [\d.]+ s\.$/m,
    ]) {
      expect(http).toMatch(setup);
    }
    const httpTable = (heading: string) => http.split(heading)[1]?.split("\n\n")[0] ?? "";
    const httpRows: Array<[string, string[]]> = [
      ["gatehouse against @auth/sveltekit", ["session GET (signed in, JWT)", "session GET (new visitor)", "page with locals.auth() (signed in)"]],
      [
        "gatehouse against better-auth",
        ["session GET (signed in; ours JWT, theirs cookie cache)", "session GET (new visitor)", "page reading the session in its load (signed in)"],
      ],
      ["The whole SvelteKit app against its limit", ["session GET (signed in, JWT) vs bare endpoint"]],
      ["The whole SolidStart app against its limit", ["session GET (signed in, JWT) vs bare endpoint"]],
      ["The SvelteKit page against its limit", ["page reading the session (signed in) vs the same page without auth"]],
    ];
    for (const [heading, scenarios] of httpRows) {
      for (const scenario of scenarios) expect(httpTable(heading), `${heading}: ${scenario}`).toMatch(rowWithRatio(scenario));
    }
    expect(httpTable("gatehouse against better-auth")).toContain("the target is >= 3x, not asserted");
    // Against the bare endpoint, the latency ratio too, with its target.
    for (const heading of ["The whole SvelteKit app against its limit", "The whole SolidStart app against its limit"]) {
      expect(httpTable(heading), heading).toContain("the target is within 1.25x, not asserted");
    }
    for (const heading of ["The whole SvelteKit app against its limit", "The whole SolidStart app against its limit", "The SvelteKit page against its limit"]) {
      expect(httpTable(heading), heading).toMatch(/'\d+\.\d\dx'/);
    }
    expect(stdout).toMatch(/'@gatehouse\/runtime@[\d.]+'\s*│\s*'\d+ kB'/);
  });

  it("npm run bench:against -- HEAD builds that revision's runtime and holds this checkout against it", { timeout: 600_000 }, async () => {
    const { stdout } = await execa("npm", ["run", "bench:against", "--", "HEAD"], { cwd: ROOT, env: SMOKE });
    expect(stdout).toMatch(/Ratio: this checkout's requests per second over HEAD \([0-9a-f]{12}\)'s/);
    const [sequential, concurrent] = stdout.split("requests in flight:");
    for (const scenario of [...HANDLER_SCENARIOS, ...(process.env.DATABASE_URL ? ["session GET (database, PostgreSQL)"] : [])]) {
      expect(sequential, scenario).toMatch(rowWithRatio(scenario));
      expect(concurrent, scenario).toMatch(rowWithRatio(scenario));
    }
  });

  it("npm run bench:against refuses what is not a commit, and a missing revision, with a clear message", async () => {
    const wrong = await execa("node", ["test/bench/against.mjs", "no-such-revision"], { cwd: ROOT, reject: false });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(`"no-such-revision" is not a commit of this repository`);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
    const missing = await execa("node", ["test/bench/against.mjs"], { cwd: ROOT, reject: false });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("Usage: npm run bench:against -- <git revision>");
  });
});
