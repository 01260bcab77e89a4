/**
 * What the scenarios talk to, started by the test in this Node process: the
 * OpenID provider (`oidc-provider` on 127.0.0.1), an agent that plays the
 * person's browser at the provider (log in, consent) for the runtime under test,
 * and a fresh database on the PostgreSQL server of `DATABASE_URL` when there is one.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createTestDatabase, type TestDatabase } from "../../adapters/support/postgres-server.js";
import { listenOnLoopback, type LoopbackServer } from "../../oauth/support/loopback-server.js";
import { startOidcServer, type OidcServer } from "../../oauth/support/oidc-server.js";
import { ProviderUserAgent } from "../../oauth/support/user-agent.js";
import type { MatrixContext } from "../scenarios/index.mjs";

export interface MatrixPeers {
  context: MatrixContext;
  close(): Promise<void>;
}

/** Starts the peers; `label` names the database (one per runtime, so runtimes running at once never share rows). */
export async function startPeers(label: string): Promise<MatrixPeers> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  try {
    // Its default client's redirect URI is the scenarios' origin: http://localhost:3000/auth/callback/oidc.
    const oidc: OidcServer = await startOidcServer();
    closers.push(oidc.close);
    const agent: LoopbackServer = await listenOnLoopback(() => answerAuthorize);
    closers.push(agent.close);
    let database: TestDatabase | undefined;
    if (process.env.DATABASE_URL) {
      database = await createTestDatabase(process.env.DATABASE_URL, `matrix_${label}`);
      closers.push(database.drop);
    }
    const { client_id: clientId, client_secret: clientSecret } = oidc.clients.basic;
    return {
      context: { oidc: { issuer: oidc.issuer, clientId, clientSecret }, agentUrl: agent.origin, ...(database ? { databaseUrl: database.url } : {}) },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The agent: a fresh browser profile per request logs in as `login` and consents, until the provider sends it back. */
async function answerAuthorize(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const answer = (status: number, body: unknown): void => void response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  try {
    if (request.method !== "POST" || request.url !== "/authorize") return answer(404, { error: `no ${request.method} ${request.url}` });
    let text = "";
    for await (const chunk of request) text += chunk;
    const { authorizationUrl, login } = JSON.parse(text) as { authorizationUrl: string; login: string };
    const agent = new ProviderUserAgent();
    const result = await agent.authorize(authorizationUrl, { login });
    if (result.callbackUrl === undefined) return answer(500, { error: `the provider answered with a form_post page: ${agent.history.join(", ")}` });
    answer(200, { callbackUrl: result.callbackUrl });
  } catch (error) {
    answer(500, { error: String((error as Error).stack ?? error) });
  }
}
