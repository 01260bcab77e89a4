import { fail } from '@sveltejs/kit';
import { CredentialsSignin } from '@gatehouse/runtime/sveltekit';
import { signIn } from '../../auth';
import type { Actions } from './$types';

export const actions: Actions = {
	default: async (event) => {
		try {
			await signIn(event);
		} catch (error) {
			// A refused sign-in becomes a form error; anything else (SvelteKit's redirect included) propagates.
			if (error instanceof CredentialsSignin) return fail(400, { error: 'Invalid email or password.' });
			throw error;
		}
	}
};
