import { createAsync, type RouteDefinition } from "@solidjs/router";
import { Show } from "solid-js";
import { currentSession } from "~/lib/session";

export const route = {
  preload: () => currentSession(),
} satisfies RouteDefinition;

export default function Home() {
  // deferStream: the headers (and the re-issued cookie) wait for the session.
  const session = createAsync(() => currentSession(), { deferStream: true });
  return (
    <main>
      <h1>Home</h1>
      <Show when={session()?.user} fallback={<p id="who">Not signed in</p>}>
        {(user) => <p id="who">Signed in as {user().name}</p>}
      </Show>
    </main>
  );
}
