/**
 * A small round-robin HTTP proxy on 127.0.0.1 in front of several instances of
 * one app, as a load balancer without sticky sessions is: each request goes to
 * the next instance in turn, so one client's consecutive requests alternate
 * instances. Static assets (`/_app/...`, which a browser fetches in between,
 * in an order of its own) take turns apart, so a browser's page, data and
 * auth requests still alternate strictly. It forwards method, path, headers
 * and body as they came, writes
 * the visitor's address in `x-forwarded-for` (the header the apps are told to
 * trust), and logs which instance answered each request, so a test can prove
 * the alternation rather than assume it.
 *
 * The visitor's address is the connection's, unless the request carries
 * `x-test-client-address`: the test's stand-in for many visitors on one
 * machine (every connection here comes from 127.0.0.1). It is removed before
 * forwarding.
 */
import { Agent, createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningServer } from "./processes.js";

export const CLIENT_ADDRESS_HEADER = "x-test-client-address";

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The index of the instance (in `setUpstreams` order) that answered. */
  instance: number;
  status: number;
}

export interface RoundRobinProxy extends RunningServer {
  /** Every request forwarded so far, in the order they were sent on. */
  readonly log: ProxiedRequest[];
  /** The instances' ports, in turn order. Set once they have started (the proxy's origin is chosen first). */
  setUpstreams(ports: number[]): void;
  /** How many requests each instance answered. */
  counts(): number[];
}

/** Headers that describe one connection, not the request: never forwarded. */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"];

export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let upstreams: number[] = [];
  let next = 0;
  let nextAsset = 0;
  const log: ProxiedRequest[] = [];
  // A connection per request to the instances: a kept-alive one that the instance closes as it
  // idles (Node's 5 s) can fail the next request sent on it, a proxy's problem, not the app's.
  const agent = new Agent({ keepAlive: false });

  const server = createServer((incoming, outgoing) => {
    if (upstreams.length === 0) {
      outgoing.writeHead(503).end("no upstreams yet");
      return;
    }
    const asset = (incoming.url ?? "").startsWith("/_app/");
    const instance = asset ? nextAsset : next;
    if (asset) nextAsset = (nextAsset + 1) % upstreams.length;
    else next = (next + 1) % upstreams.length;
    const headers: IncomingHttpHeaders = { ...incoming.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const claimed = headers[CLIENT_ADDRESS_HEADER];
    delete headers[CLIENT_ADDRESS_HEADER];
    headers["x-forwarded-for"] = typeof claimed === "string" ? claimed : (incoming.socket.remoteAddress ?? "127.0.0.1");
    const entry: ProxiedRequest = { method: incoming.method ?? "GET", path: incoming.url ?? "/", instance, status: 0 };
    log.push(entry);
    const forwarded = request(
      { host: "127.0.0.1", port: upstreams[instance], method: incoming.method, path: incoming.url, headers, agent },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        const answerHeaders: IncomingHttpHeaders = { ...answer.headers };
        for (const name of HOP_BY_HOP) delete answerHeaders[name];
        outgoing.writeHead(entry.status, { ...answerHeaders, "x-instance": String(instance) });
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", (error) => {
      entry.status = 502;
      if (!outgoing.headersSent) outgoing.writeHead(502, { "x-instance": String(instance) });
      outgoing.end(`proxy: instance ${instance} failed: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const stop = () =>
    new Promise<void>((resolve) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    // The apps' public origin (ORIGIN): a host name, as browsers and WebAuthn want.
    origin: `http://localhost:${port}`,
    port,
    log,
    setUpstreams(ports) {
      upstreams = [...ports];
      next = 0;
      nextAsset = 0;
    },
    counts() {
      const counts = upstreams.map(() => 0);
      for (const entry of log) counts[entry.instance]! += 1;
      return counts;
    },
    output: () => log.map((e) => `${e.method} ${e.path} -> instance ${e.instance} ${e.status}`).join("\n"),
    stop,
    interrupt: async () => {
      await stop();
      return 0;
    },
  };
}
