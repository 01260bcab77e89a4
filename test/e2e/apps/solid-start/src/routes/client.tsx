import { signIn, signOut } from "@gatehouse/runtime/solid-start/client";
import { createSignal, onMount } from "solid-js";

export default function Client() {
  const [outcome, setOutcome] = createSignal("");
  // The form needs JavaScript: keep it disabled until the page has hydrated.
  const [ready, setReady] = createSignal(false);
  onMount(() => setReady(true));

  async function submit(event: SubmitEvent & { currentTarget: HTMLFormElement }) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await signIn("credentials", {
      email: String(form.get("email")),
      password: String(form.get("password")),
      redirect: false,
    });
    setOutcome(result?.ok ? "signed in" : `refused: ${result?.error} (${result?.code})`);
  }

  return (
    <main>
      <h1>Client sign-in</h1>
      <form onSubmit={submit}>
        <fieldset disabled={!ready()}>
          <input name="email" type="email" autocomplete="username" />
          <input name="password" type="password" autocomplete="current-password" />
          <button type="submit">Sign in (client)</button>
        </fieldset>
      </form>
      <p id="outcome">{outcome()}</p>
      <button id="client-signout" disabled={!ready()} onClick={() => signOut({ redirectTo: "/" })}>
        Sign out (client)
      </button>
    </main>
  );
}
