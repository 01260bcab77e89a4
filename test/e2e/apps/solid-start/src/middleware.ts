import { authMiddleware } from "@gatehouse/runtime/solid-start";
import { createMiddleware } from "@solidjs/start/middleware";
import { authConfig } from "./auth";

// Full page loads of /account (and below) without a session go to the sign-in page.
export default createMiddleware({
  onRequest: [authMiddleware(authConfig, { protectedPaths: ["/account"] })],
});
