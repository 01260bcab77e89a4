/**
 * Minimal local typing for `oidc-provider` 9, which ships no declarations. It covers only
 * what `oidc-server.ts` touches; the configuration stays loosely typed on purpose (its
 * full shape is large and the library validates it at construction anyway).
 * `@types/oidc-provider` would replace this file; delete it if that package is installed.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** The authorization server: a Koa application plus the OIDC machinery. */
  export class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>);
    /** The Issuer Identifier given to the constructor. */
    readonly issuer: string;
    /** A node:http request listener serving every provider route. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** Provider events, e.g. `server_error` (ctx, error). */
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}
