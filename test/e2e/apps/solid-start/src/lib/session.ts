import { getSession, signInUrl } from "@gatehouse/runtime/solid-start";
import { query, redirect } from "@solidjs/router";
import { getRequestEvent } from "solid-js/web";
import { authConfig } from "~/auth";

// Server functions: they run on the server during SSR and over /_server after client navigations.
// Given the event, getSession also sets the re-issued session cookie on the response.
export const currentSession = query(async () => {
  "use server";
  return getSession(getRequestEvent()!, authConfig);
}, "session");

/** Protects a page's data: no session, no data, and a redirect to the sign-in page instead. */
export const requireUser = query(async () => {
  "use server";
  const event = getRequestEvent()!;
  const session = await getSession(event, authConfig);
  if (!session?.user) {
    // An absolute URL (on AUTH_URL): the built-in sign-in page is an API route, not a page of the
    // router, which would try to render a relative "/api/..." target itself after a client navigation.
    throw redirect(signInUrl(event, authConfig, "/protected"));
  }
  return session.user;
}, "require-user");
