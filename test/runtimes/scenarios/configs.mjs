/** The handler configs the scenarios share: credentials that accept one password, JWT or database sessions. */
import { Credentials } from "@gatehouse/runtime/providers";
import { SECRET, quietLogger } from "./browser.mjs";

export const PASSWORD = "correct horse";
export const ADA = { id: "user-1", name: "Ada Lovelace", email: "ada@example.com", image: "https://example.com/ada.png" };

/**
 * A config whose Credentials provider accepts `PASSWORD` for `findUser(email)`'s
 * user (Ada by default), and whose `jwt` callback takes a new name from the
 * client's `update()` (Auth.js keeps the token as it is unless the app says).
 */
export function credentialsConfig({ findUser = async (email) => (email === ADA.email ? { ...ADA } : null), ...overrides } = {}) {
  const { logger, logged } = quietLogger();
  const config = {
    secret: SECRET,
    trustHost: true,
    logger,
    providers: [
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        authorize: async ({ email, password }) => (password === PASSWORD ? await findUser(String(email)) : null),
      }),
    ],
    callbacks: {
      jwt: ({ token, trigger, session }) => {
        if (trigger === "update" && typeof session?.name === "string") token.name = session.name;
        return token;
      },
    },
    ...overrides,
  };
  return { config, logged };
}
