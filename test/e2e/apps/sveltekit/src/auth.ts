import { SvelteKitAuth, type SvelteKitAuthConfig } from '@gatehouse/runtime/sveltekit';
import { Credentials } from '@gatehouse/runtime/providers';

// Demo users for the test; a real app checks a password hash in its database.
const USERS = [{ id: '1', name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery staple' }];

let sessionReads = 0;
/** How many times the handler computed a session (the `session` event), to prove `locals.auth()` runs once per request. */
export const sessionReadCount = () => sessionReads;

const config: SvelteKitAuthConfig = {
	providers: [
		Credentials({
			credentials: {
				email: { label: 'Email', type: 'email' },
				password: { label: 'Password', type: 'password' }
			},
			authorize: async (credentials) => {
				const user = USERS.find((u) => u.email === credentials.email && u.password === credentials.password);
				return user ? { id: user.id, name: user.name, email: user.email } : null;
			}
		})
	],
	events: {
		session: () => {
			sessionReads += 1;
		}
	}
};

// One build passes the config object, the other a function of the request event (lazy platform env).
export const { handle, signIn, signOut } =
	import.meta.env.VITE_E2E_CONFIG_FORM === 'function' ? SvelteKitAuth(async () => config) : SvelteKitAuth(config);
