/**
 * Several instances of one app made by `auth-init` (SvelteKit, adapter-node):
 * built once, started `count` times with the same build and .env (what a
 * second and third server of the same deploy run), behind a round-robin proxy
 * on 127.0.0.1 that is their public origin.
 */
import { startCliSvelteKitApp, type CliSvelteKitApp } from "./cli-sveltekit-app.js";
import { startBuiltApp, type RunningServer } from "./processes.js";
import type { RoundRobinProxy } from "./round-robin-proxy.js";

export interface AppInstances {
  /** The app `auth-init` made, and its first instance (`app.server`). */
  app: CliSvelteKitApp;
  /** Every instance, the first included. */
  servers: RunningServer[];
  /** Stops every instance and deletes the app (the proxy is the caller's). */
  stop(): Promise<void>;
}

/**
 * Makes the app (`auth-init <name> --yes ...initArgs`), starts it `count` times
 * with `env` and puts the instances behind `proxy`. The proxy is started by the
 * caller, as an OAuth provider must know the callback URL on its origin before
 * the apps start.
 */
export async function startAppInstances(proxy: RoundRobinProxy, name: string, initArgs: string[], env: Record<string, string>, count: number): Promise<AppInstances> {
  // Every instance trusts the proxy's x-forwarded-for for the client's address: the auth handler
  // (rate limit per address) and adapter-node (event.getClientAddress()).
  const shared = { ...env, ORIGIN: proxy.origin, AUTH_CLIENT_ADDRESS_HEADER: "x-forwarded-for", ADDRESS_HEADER: "x-forwarded-for", XFF_DEPTH: "1" };
  const app = await startCliSvelteKitApp(name, initArgs, { env: shared });
  const servers = [app.server];
  const stop = async () => {
    await Promise.all(servers.slice(1).map((server) => server.stop()));
    await app.stop();
  };
  try {
    for (let i = 1; i < count; i++) servers.push(await startBuiltApp(app.dir, shared));
  } catch (error) {
    await stop();
    throw error;
  }
  proxy.setUpstreams(servers.map((server) => server.port));
  return { app, servers, stop };
}
