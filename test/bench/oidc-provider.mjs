/**
 * The OpenID Provider of the OIDC callback scenario, in its own process (forked
 * by `oidc.mjs`), as an identity provider is another machine in production: its
 * CPU (RS256 signing, token storage) is not the handler's. `oidc-provider` 9 on
 * http://127.0.0.1:<random port>, configured like `test/oauth/support/oidc-server.ts`
 * (RS256 keys, `openid email profile` claims, PKCE required), minus what the
 * bench does not use (refresh tokens, revocation, the interaction pages).
 *
 * Authorization codes are single-use, so the parent asks for fresh ones over the
 * IPC channel, out of the timed part: `{ id, mint: [{ clientId, redirectUri,
 * codeChallenge, nonce }] }` is answered with `{ id, codes }`. Each code is made
 * with oidc-provider's own model API, as its authorization endpoint makes them
 * once the user has logged in and consented (a grant, the user's consent, then
 * the code), so the token endpoint checks it as any other code.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { Provider } from "oidc-provider";

const ACCOUNT = "ada";
const SCOPE = "openid email profile";

const [clientsJson] = process.argv.slice(2);
const clients = JSON.parse(clientsJson);

const server = createServer((req, res) => provider.callback()(req, res));
await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(0, "127.0.0.1", resolve);
});
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: "jwk" }), kid: `bench-${randomBytes(4).toString("hex")}`, alg: "RS256", use: "sig" };

const provider = new Provider(issuer, {
  clients,
  jwks: { keys: [jwk] },
  cookies: { keys: [randomBytes(32).toString("hex")] },
  findAccount: (_ctx, sub) => ({
    accountId: sub,
    claims: async () => ({ sub, email: `${sub}@example.test`, email_verified: true, name: `Bench User ${sub}` }),
  }),
  // Without this the ID token carries only `sub` whenever an access token is issued too.
  conformIdTokenClaims: false,
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
  ttl: { AccessToken: 600, IdToken: 600, AuthorizationCode: 600, Interaction: 600, Session: 3600, Grant: 86_400 },
});
const errors = [];
provider.on("server_error", (_ctx, error) => errors.push(String(error?.stack ?? error)));

/**
 * The user's consent, a grant of its own per code, as the authorization endpoint
 * makes one at each consent. One grant shared by every code would be an artefact
 * of the bench: oidc-provider's in-memory adapter lists a grant's tokens in one
 * Map that it scans on every token save, so the token endpoint would slow down
 * with every code the run has used (tens of thousands).
 */
async function grantFor(clientId) {
  const grant = new provider.Grant({ accountId: ACCOUNT, clientId });
  grant.addOIDCScope(SCOPE);
  return grant.save();
}

async function mint({ clientId, redirectUri, codeChallenge, nonce }) {
  const client = await provider.Client.find(clientId);
  const code = new provider.AuthorizationCode({
    accountId: ACCOUNT,
    authTime: Math.floor(Date.now() / 1000),
    client,
    codeChallenge,
    codeChallengeMethod: "S256",
    grantId: await grantFor(clientId),
    nonce,
    redirectUri,
    scope: SCOPE,
  });
  return code.save();
}

process.on("message", async ({ id, mint: requests }) => {
  try {
    process.send({ id, codes: await Promise.all(requests.map(mint)), errors: errors.splice(0) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
// The parent went away (finished or killed): so does the provider.
process.on("disconnect", () => process.exit(0));
process.send({ ready: true, issuer });
