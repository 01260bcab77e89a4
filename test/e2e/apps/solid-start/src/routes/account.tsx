// Guarded by the middleware only (src/middleware.ts): full page loads without a session never get here.
export default function Account() {
  return (
    <main>
      <h1>Account</h1>
      <p id="account">Guarded by the middleware.</p>
    </main>
  );
}
