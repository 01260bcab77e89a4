import { redirect, type Handle } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { base } from '$app/paths';
import { handle as authHandle } from './auth';

// Path protection: a second hook, after the auth handle, guards everything under /admin.
const protect: Handle = async ({ event, resolve }) => {
	if (event.url.pathname.startsWith(`${base}/admin`)) {
		const session = await event.locals.auth();
		if (!session?.user) redirect(303, `${base}/signin?redirectTo=${encodeURIComponent(event.url.pathname)}`);
	}
	return resolve(event);
};

export const handle = sequence(authHandle, protect);
