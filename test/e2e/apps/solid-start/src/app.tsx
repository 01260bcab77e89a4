import { A, Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { Suspense } from "solid-js";

export default function App() {
  return (
    <Router
      root={(props) => (
        <>
          <nav>
            <A href="/">Home</A> · <A href="/protected">Protected</A> · <A href="/client">Client</A> ·{" "}
            {/* Full page loads (rel="external": the router leaves the click alone): the API routes are not
                pages of the router, and the middleware guarding /account only sees requests to the server. */}
            <a href="/account" rel="external">Account</a> · <a href="/api/auth/signin" rel="external">Sign in</a> ·{" "}
            <a href="/api/auth/signout" rel="external">Sign out</a>
          </nav>
          <Suspense>{props.children}</Suspense>
        </>
      )}
    >
      <FileRoutes />
    </Router>
  );
}
