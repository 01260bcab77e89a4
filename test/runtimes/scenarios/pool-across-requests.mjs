/**
 * workerd only: one pg Pool kept across requests, as a config built once at
 * module scope keeps it. workerd ties a connection to the request that opened
 * it, so the next request cannot use it; where `pg` alone would wait forever
 * (until workerd cancels the request as hung), `fromPg` fails the query at once
 * with `CrossRequestConnectionError`, and the handler answers its error.
 * Two steps, each a request of its own (run-in-miniflare.mjs sends them); the
 * state between them is this module's, as an app's would be.
 */
import { PostgresAdapter, migrate } from "@gatehouse/runtime/adapters/postgres";
import { fromPg } from "@gatehouse/runtime/adapters/postgres/pg";
import { Browser, ORIGIN } from "./browser.mjs";
import { PASSWORD, credentialsConfig } from "./configs.mjs";

const EMAIL = "kept@example.com";
/** The first request's browser, and its config's logs: kept for the next request. */
let kept;

export async function firstRequest(t, { databaseUrl }) {
  const { default: pg } = await import("pg");
  const db = fromPg(new pg.Pool({ connectionString: databaseUrl, max: 2 }));
  await migrate(db);
  const adapter = PostgresAdapter(db);
  await adapter.createUser({ id: "", email: EMAIL, emailVerified: null, name: "Kept", image: null });
  const { config, logged } = credentialsConfig({ adapter, findUser: (address) => adapter.getUserByEmail(address) });
  const browser = new Browser(config);
  const signIn = await browser.request("/auth/callback/credentials", { form: { email: EMAIL, password: PASSWORD, csrfToken: await browser.csrfToken() } });
  t.redirect(signIn, `${ORIGIN}/`, "the sign-in in the request that opened the pool");
  kept = { browser, logged };
}

export async function laterRequest(t) {
  const { browser, logged } = kept;
  const read = await browser.request("/auth/session");
  t.equal({ status: read.status, body: await read.json() }, { status: 500, body: { error: "Configuration", message: "There is a problem with the server configuration. Check the server logs." } }, "the session read in the next request");
  t.match(logged.at(-1), /^error: AdapterError: .*\(cause: CrossRequestConnectionError: This pg Pool or Client was first used while serving another request\. On Cloudflare Workers \(workerd\)/, "what the handler logs");
}
