import { redirect } from '@sveltejs/kit';
import { base } from '$app/paths';
import type { PageServerLoad } from './$types';

// Page protection: the page's own load redirects (303) when there is no user.
export const load: PageServerLoad = async (event) => {
	const session = await event.locals.auth();
	if (!session?.user) redirect(303, `${base}/signin?redirectTo=${encodeURIComponent(event.url.pathname)}`);
	return { user: session.user };
};
