/**
 * Email sign-in start: `POST signin/email` with the CSRF token, which looks the
 * user up, stores a hashed verification token and redirects to "check your
 * email". Ours is `Email({ sendVerificationRequest })` on `MemoryAdapter`,
 * Auth.js's is its `Nodemailer` provider (given the id `email`) on the minimal
 * memory adapter below; both "send" through the same in-process no-op, so the
 * mail transport is not what is measured. Its own process, as every suite:
 * once `@auth/core` has seen an email provider, it refuses every later config
 * without an adapter.
 */
import { Auth as AuthJs } from "@auth/core";
import AuthJsNodemailer from "@auth/core/providers/nodemailer";
import { Auth as GatehouseAuth } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Email } from "@gatehouse/runtime/providers";
import { ORIGIN, SECRET, quiet } from "./core.mjs";
import { cookiePairs } from "./measure.mjs";

const EMAIL = "ada@example.com";
const VERIFY_REQUEST = `${ORIGIN}/auth/verify-request?`;

/**
 * The adapter methods Auth.js's email sign-in needs (it checks for these three),
 * on `Map`s, copying in and out with `structuredClone` as our `MemoryAdapter`
 * does, so both stores do the same work.
 */
function authJsMemoryAdapter() {
  const users = new Map();
  const tokens = new Map();
  const key = (identifier, token) => JSON.stringify([identifier, token]);
  return {
    async createUser(user) {
      const stored = { ...structuredClone(user), id: crypto.randomUUID() };
      users.set(stored.email, stored);
      return structuredClone(stored);
    },
    async getUserByEmail(email) {
      const user = users.get(email);
      return user ? structuredClone(user) : null;
    },
    async createVerificationToken(token) {
      tokens.set(key(token.identifier, token.token), structuredClone(token));
      return structuredClone(token);
    },
    async useVerificationToken({ identifier, token }) {
      const stored = tokens.get(key(identifier, token));
      tokens.delete(key(identifier, token));
      return stored ? structuredClone(stored) : null;
    },
  };
}

/** The mail "transport": counts what it was given and sends nothing. */
function noopSender() {
  const sender = {
    sent: 0,
    lastUrl: undefined,
    async sendVerificationRequest({ url }) {
      sender.sent++;
      sender.lastUrl = url;
    },
  };
  return sender;
}

async function makeImpl(name, Auth, adapter, provider, sender) {
  await adapter.createUser({ email: EMAIL, emailVerified: null, name: "Ada Lovelace" });
  const config = { secret: SECRET, trustHost: true, basePath: "/auth", logger: quiet, adapter, providers: [provider] };
  const impl = { name, call: (request) => Auth(request, config) };

  const csrfResponse = await impl.call(new Request(`${ORIGIN}/auth/csrf`));
  const { csrfToken } = await csrfResponse.json();
  const csrfCookie = cookiePairs(csrfResponse).find((c) => c.includes("csrf-token"));
  impl.state = { csrfCookie, form: new URLSearchParams({ email: EMAIL, csrfToken }).toString() };

  // One sign-in before timing: a link was "sent", with a token the adapter can redeem.
  const response = await impl.call(emailSignIn.request(impl.state));
  const location = response.headers.get("location");
  if (response.status !== 302 || !location?.startsWith(VERIFY_REQUEST) || sender.sent !== 1) {
    throw new Error(`${name}: email sign-in did not send a link (${response.status} ${location}, ${sender.sent} sent)`);
  }
  if (!new URL(sender.lastUrl).searchParams.get("token")) throw new Error(`${name}: the link has no token: ${sender.lastUrl}`);
  return impl;
}

export async function emailSuite() {
  const ourSender = noopSender();
  const theirSender = noopSender();
  const impls = [
    await makeImpl(
      "gatehouse",
      GatehouseAuth,
      MemoryAdapter(),
      Email({ sendVerificationRequest: ourSender.sendVerificationRequest }),
      ourSender,
    ),
    await makeImpl(
      "@auth/core",
      AuthJs,
      authJsMemoryAdapter(),
      // `server` is required by the provider; nothing connects to it, the no-op replaces the transport.
      AuthJsNodemailer({ id: "email", server: "smtp://127.0.0.1:2525", sendVerificationRequest: theirSender.sendVerificationRequest }),
      theirSender,
    ),
  ];
  return { impls, scenarios: { "email sign-in start (token stored, redirect)": emailSignIn } };
}

const emailSignIn = {
  status: 302,
  request: (s) =>
    new Request(`${ORIGIN}/auth/signin/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: s.csrfCookie },
      body: s.form,
    }),
  check: (response) => (response.headers.get("location")?.startsWith(VERIFY_REQUEST) ? undefined : `redirected to ${response.headers.get("location")}`),
};
