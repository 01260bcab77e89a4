/**
 * A plain script that uses the built `@gatehouse/runtime` the way an app would:
 * sign in with credentials, read the session, update it, sign out.
 *
 *   npm run example
 */
import { Auth, CredentialsSignin } from "@gatehouse/runtime";
import { Credentials } from "@gatehouse/runtime/providers";

const users = new Map([["ada@example.com", { id: "1", name: "Ada Lovelace", email: "ada@example.com", password: "correct horse" }]]);

const config = {
  // In an app this comes from AUTH_SECRET (`npx @gatehouse/cli secret`); at least 32 characters.
  secret: "example-secret-that-is-long-enough-0123456789",
  trustHost: true,
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize({ email, password }) {
        const user = users.get(String(email));
        if (!user || user.password !== password) throw new CredentialsSignin();
        return { id: user.id, name: user.name, email: user.email };
      },
    }),
  ],
  callbacks: {
    // The client's update() data is untrusted input: take only what you allow.
    jwt: ({ token, trigger, session }) => {
      if (trigger === "update" && typeof session?.name === "string") token.name = session.name.slice(0, 100);
      return token;
    },
    // Copy what the client should see from the token to the session, explicitly.
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
  },
};

const origin = "http://localhost:3000";
const jar = new Map();
const remember = (response) => {
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(";");
    const [name, value] = pair.split("=");
    if (attributes.some((a) => a.trim().toLowerCase() === "max-age=0")) jar.delete(name);
    else jar.set(name, value);
  }
  return response;
};
const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
const call = async (path, init = {}) =>
  remember(await Auth(new Request(`${origin}${path}`, { ...init, headers: { cookie: cookie(), ...init.headers } }), config));
const form = (fields) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});

const { csrfToken } = await (await call("/auth/csrf")).json();
console.log("csrf token:", `${csrfToken.slice(0, 8)}...`);

const wrong = await call("/auth/callback/credentials", form({ csrfToken, email: "ada@example.com", password: "nope" }));
console.log("wrong password ->", wrong.status, wrong.headers.get("location"));

const signIn = await call("/auth/callback/credentials", form({ csrfToken, email: "ada@example.com", password: "correct horse", callbackUrl: "/dashboard" }));
console.log("sign in ->", signIn.status, signIn.headers.get("location"));

const session = await (await call("/auth/session")).json();
console.log("session:", JSON.stringify(session));

const updated = await call("/auth/session", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ csrfToken, data: { name: "Countess of Lovelace" } }),
});
console.log("update ->", updated.status, JSON.stringify(await updated.json()));

const signOut = await call("/auth/signout", form({ csrfToken }));
console.log("sign out ->", signOut.status, signOut.headers.get("location"));
console.log("session after sign-out:", JSON.stringify(await (await call("/auth/session")).json()));
