/** Runs one fuzz case through the real handler and keeps everything the checks look at. */
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { buildConfig, type BuiltConfig } from "./build-config.js";
import type { ConfigSpec } from "./config-specs.js";
import { buildRequest, type BuiltRequest, type RequestSpec } from "./request.js";

export interface Observation {
  built: BuiltConfig;
  req: BuiltRequest;
  status: number;
  headers: [string, string][];
  setCookies: string[];
  body: string;
  /** Status line, headers and body as one text. */
  text: string;
  /** Where the answer sends the browser: `Location`, or `{url}` of a redirect answered as JSON. */
  redirect?: string;
  /** Net writes of the request to the store. */
  writes: string[];
  /** Addresses the request had written to the store (users, sign-in links) or mailed to (in a visit: so far). */
  addresses: string[];
}

/** A response that could not be read is as bad as a throw: both fail the case with the reason. */
export class HandlerCrashed extends Error {}

export async function observe(configSpec: ConfigSpec, requestSpec: RequestSpec): Promise<Observation> {
  return observeWith(await buildConfig(configSpec), requestSpec);
}

/**
 * A browser's visit: the requests in order against one config (one store), each
 * sending the cookies the earlier answers set, as a browser keeps them.
 */
export async function observeVisit(configSpec: ConfigSpec, requestSpecs: RequestSpec[]): Promise<Observation[]> {
  const built = await buildConfig(configSpec);
  const jar = new Map<string, string>();
  const observations: Observation[] = [];
  for (const spec of requestSpecs) {
    built.ledger.reset();
    built.fault.fired = false;
    const obs = await observeWith(built, spec, jar);
    observations.push(obs);
    for (const setCookie of obs.setCookies) {
      const pair = setCookie.slice(0, setCookie.indexOf(";") === -1 ? undefined : setCookie.indexOf(";"));
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /; Max-Age=0\b/.test(setCookie)) jar.delete(name);
      else jar.set(name, value);
    }
  }
  return observations;
}

async function observeWith(built: BuiltConfig, requestSpec: RequestSpec, jar?: ReadonlyMap<string, string>): Promise<Observation> {
  const req = await buildRequest(requestSpec, built, jar);
  let response: unknown;
  try {
    response = await Auth(req.request, built.config as Omit<AuthConfig, "raw">);
  } catch (error) {
    throw new HandlerCrashed(`Auth() threw: ${(error as Error)?.stack ?? String(error)}`);
  }
  if (!(response instanceof Response)) throw new HandlerCrashed(`Auth() resolved to ${String(response)}, not a Response`);
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    throw new HandlerCrashed(`the response body could not be read: ${(error as Error)?.stack ?? String(error)}`);
  }
  const headers = [...response.headers];
  const status = response.status;
  let redirect = response.headers.get("location") ?? undefined;
  if (redirect === undefined && response.headers.get("content-type")?.startsWith("application/json")) {
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed) && Object.keys(parsed).join() === "url") {
        redirect = String((parsed as { url: unknown }).url);
      }
    } catch {
      // not JSON after all: no redirect in it
    }
  }
  const text = `${status} ${response.statusText}\n${headers.map(([n, v]) => `${n}: ${v}`).join("\n")}\n\n${body}`;
  return { built, req, status, headers, setCookies: response.headers.getSetCookie(), body, text, redirect, writes: built.ledger.net(), addresses: [...built.ledger.addresses, ...built.mailedTo] };
}
