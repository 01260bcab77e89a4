import type { LayoutServerLoad } from './$types';

// Reading the session here is fine; protecting pages here is not (see docs/frameworks.md, "Protecting pages").
export const load: LayoutServerLoad = async (event) => ({ session: await event.locals.auth() });
