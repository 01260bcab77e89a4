/**
 * The real OpenID Provider of the OAuth suites (`oidc-provider` on 127.0.0.1)
 * with faults injected in front of its routes: an endpoint that answers 500, an
 * HTML page (a proxy's error or login page), hangs, resets the connection, is
 * slow, or is refused (the discovery document points it at a closed port). The
 * rest of the protocol stays the real server's.
 */
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { startOidcServer, type OidcServer, type StartOidcServerOptions } from "../../oauth/support/oidc-server.js";

/** oidc-provider's routes, as mounted by `startOidcServer`. */
export const IDP_PATHS = {
  discovery: "/.well-known/openid-configuration",
  token: "/token",
  jwks: "/jwks",
  userinfo: "/me",
} as const;
export type IdpEndpoint = keyof typeof IDP_PATHS;

/** Discovery members naming each endpoint, for `refused` faults. */
const DISCOVERY_MEMBER: Record<Exclude<IdpEndpoint, "discovery">, string> = {
  token: "token_endpoint",
  jwks: "jwks_uri",
  userinfo: "userinfo_endpoint",
};

export type Fault =
  | { kind: "status500" }
  | { kind: "html" }
  | { kind: "hang" }
  | { kind: "reset" }
  | { kind: "slow"; ms: number }
  /** Nothing listens at the endpoint's address any more (discovery names a closed port). */
  | { kind: "refused" };

export interface FaultyIdp extends OidcServer {
  /** Injects `fault` at `endpoint` until `clear()`. */
  inject(endpoint: IdpEndpoint, fault: Fault): void;
  clear(): void;
  /** The URL an endpoint has while it is `refused`: the same path on a port nobody listens on. */
  refusedUrl(endpoint: IdpEndpoint): string;
}

/** The slice of Koa's context the faults touch (oidc-provider is a Koa app; its typing here is minimal). */
interface KoaContext {
  path: string;
  status: number;
  type: string;
  body: unknown;
  respond: boolean;
  req: { socket: { destroy(): void; once(event: "close", listener: () => void): void } };
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

export async function startFaultyIdp(options: StartOidcServerOptions = {}): Promise<FaultyIdp> {
  const server = await startOidcServer(options);
  const deadOrigin = `http://127.0.0.1:${await closedPort()}`;
  const faults = new Map<string, Fault>();

  const middleware: Middleware = async (ctx, next) => {
    const fault = faults.get(ctx.path);
    switch (fault?.kind) {
      case "status500":
        ctx.status = 500;
        ctx.type = "text/plain";
        ctx.body = "Internal Server Error";
        return;
      case "html":
        // What a misrouted reverse proxy or a captive login page answers: 200, but a page.
        ctx.status = 200;
        ctx.type = "text/html";
        ctx.body = "<!DOCTYPE html><html><body><h1>Please log in</h1></body></html>";
        return;
      case "hang":
        // Holds the request until the client gives up (closing the server closes it too).
        ctx.respond = false;
        await new Promise<void>((resolve) => ctx.req.socket.once("close", resolve));
        return;
      case "reset":
        ctx.respond = false;
        ctx.req.socket.destroy();
        return;
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        break;
    }
    await next();
    if (ctx.path === IDP_PATHS.discovery && ctx.body && typeof ctx.body === "object") {
      const document = ctx.body as Record<string, unknown>;
      for (const [endpoint, member] of Object.entries(DISCOVERY_MEMBER)) {
        if (faults.get(IDP_PATHS[endpoint as IdpEndpoint])?.kind === "refused") document[member] = `${deadOrigin}${IDP_PATHS[endpoint as IdpEndpoint]}`;
      }
    }
  };
  (server.provider as unknown as { use(fn: Middleware): void }).use(middleware);

  return {
    ...server,
    inject: (endpoint, fault) => void faults.set(IDP_PATHS[endpoint], fault),
    clear: () => faults.clear(),
    refusedUrl: (endpoint) => `${deadOrigin}${IDP_PATHS[endpoint]}`,
  };
}

/** A loopback port that was free a moment ago and that nothing listens on now. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
