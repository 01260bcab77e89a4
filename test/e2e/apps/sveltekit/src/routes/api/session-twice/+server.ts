import { json } from '@sveltejs/kit';
import { sessionReadCount } from '../../../auth';
import type { RequestHandler } from './$types';

// locals.auth() called three times in one request computes the session once.
export const GET: RequestHandler = async ({ locals }) => {
	const before = sessionReadCount();
	const [a, b] = await Promise.all([locals.auth(), locals.auth()]);
	const c = await locals.auth();
	return json({ same: a === b && b === c, reads: sessionReadCount() - before, user: a?.user ?? null });
};
