import { createAsync, type RouteDefinition } from "@solidjs/router";
import { requireUser } from "~/lib/session";

export const route = {
  preload: () => requireUser(),
} satisfies RouteDefinition;

export default function Protected() {
  // deferStream: a visitor without a session gets an HTTP redirect, not a page that redirects itself.
  const user = createAsync(() => requireUser(), { deferStream: true });
  return (
    <main>
      <h1>Protected</h1>
      <p id="secret">Only {user()?.name} can read this.</p>
    </main>
  );
}
