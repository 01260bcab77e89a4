import type { SolidAuthConfig } from "@gatehouse/runtime/solid-start";
import { Credentials } from "@gatehouse/runtime/providers";

// Demo users for the test; a real app checks a password hash in its database.
const USERS = [{ id: "1", name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery staple" }];

// The secret and the public origin come from AUTH_SECRET and AUTH_URL.
export const authConfig: SolidAuthConfig = {
  providers: [
    Credentials({
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize: async (credentials) => {
        const user = USERS.find((u) => u.email === credentials.email && u.password === credentials.password);
        return user ? { id: user.id, name: user.name, email: user.email } : null;
      },
    }),
  ],
  // Re-issue the session cookie on every read, so the test sees getSession set it through the event.
  session: { updateAge: 0 },
};
