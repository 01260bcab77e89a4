/**
 * The client address a per-IP count is kept under, and where it is read from
 * when the app names a proxy's header. IPv6 clients usually hold a
 * whole /64 (2^64 addresses), so counting per address would let one client
 * rotate through fresh buckets: an IPv6 address counts as its /64 network.
 */

import type { Awaitable } from "../../types.js";
import { HTTP_TOKEN } from "../http/cookies.js";

/** `203.0.113.7` as is; `2001:db8:1:2:3:4:5:6` as `2001:db8:1:2::/64`; `::ffff:203.0.113.7` as `203.0.113.7`; anything else trimmed and lowercased. */
export function addressKey(address: string): string {
  const trimmed = address.trim().toLowerCase();
  // A zone (`fe80::1%eth0`) names the interface, not the client; brackets come with some servers.
  const bare = trimmed.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!bare.includes(":")) return bare;
  const groups = expandIPv6(bare);
  if (!groups) return bare;
  // An IPv4 client on a dual-stack socket: the IPv4 address it really is.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted IPv4 part), or undefined. */
function expandIPv6(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const bytes = dotted.slice(1).map(Number);
    if (bytes.some((b) => b > 255)) return undefined;
    text = `${text.slice(0, dotted.index)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The visitor's address in `header` of `request`. For `X-Forwarded-For` the
 * last entry: each proxy appends the address it saw, so only the last one was
 * written by the trusted proxy; earlier entries are whatever the client sent.
 */
export function addressFromHeader(request: Request, header: string): string | undefined {
  const value = request.headers.get(header);
  if (value === null) return undefined;
  const entries = value.split(",").map((entry) => entry.trim()).filter(Boolean);
  const address = header === "x-forwarded-for" ? entries.at(-1) : entries[0];
  return address === undefined || address.length > 100 ? undefined : address;
}

/** The app's own way to the client's address: its `clientAddress`, else its `clientAddressHeader`, else none (the framework's). */
export function ownClientAddress(options: {
  clientAddress?: (request: Request) => unknown;
  clientAddressHeader?: string;
}): ((request: Request) => Awaitable<string | null | undefined>) | undefined {
  if (typeof options.clientAddress === "function") return options.clientAddress as (request: Request) => Awaitable<string | null | undefined>;
  const header = options.clientAddressHeader;
  if (typeof header !== "string" || !HTTP_TOKEN.test(header)) return undefined;
  const name = header.toLowerCase();
  return (request) => addressFromHeader(request, name);
}
