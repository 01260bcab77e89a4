/** Requests to a running app as a browser on its origin sends them: a same-site `Origin` on POST, cookies from a jar. */
import { request, type RequestOptions } from "../../helpers.js";
import type { RunningServer } from "./processes.js";

export async function http(server: RunningServer, path: string, options: RequestOptions = {}): Promise<Response> {
  const isPost = (options.method ?? (options.form || options.json !== undefined ? "POST" : "GET")) === "POST";
  const headers = { ...(isPost ? { origin: server.origin } : {}), ...options.headers };
  // The server listens on 127.0.0.1; its public origin (ORIGIN / AUTH_URL) is http://localhost:PORT.
  const built = request(path, { ...options, headers, origin: `http://127.0.0.1:${server.port}` });
  const response = await fetch(built, { redirect: "manual" });
  options.jar?.store(response);
  return response;
}
