/// <reference path="../../runtime/src/frameworks/sveltekit/env.d.ts" />
/**
 * Issue 19, item 5: behind a proxy, every visitor arrives from the proxy's
 * address, so a per-client limit needs the header the proxy writes the
 * visitor's address in. `rateLimit.clientAddressHeader` (env
 * `AUTH_CLIENT_ADDRESS_HEADER`) names it; for X-Forwarded-For the last entry
 * is read, the one the trusted proxy appended: the entries before it are the
 * client's to choose.
 */
import { describe, expect, it, vi } from "vitest";
import { Auth, setEnvDefaults } from "@gatehouse/runtime";
import { SvelteKitAuth } from "../../runtime/src/frameworks/sveltekit/index.js";
import { ORIGIN, captureLogger, csrfToken, request, CookieJar } from "../helpers.js";
import { isLimited, limitedSetup, wrong } from "./support.js";

vi.mock("$env/dynamic/private", () => ({
  env: { AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789", AUTH_URL: "http://localhost:3000", AUTH_CLIENT_ADDRESS_HEADER: "X-Forwarded-For" },
}));
vi.mock("$app/paths", () => ({ base: "" }));
vi.mock("$app/environment", () => ({ dev: false }));

describe("rateLimit.clientAddressHeader", () => {
  it("x-forwarded-for: the last entry counts; what the client put before it changes nothing", async () => {
    const setup = limitedSetup({ ip: 3, identifier: false, clientAddressHeader: "x-forwarded-for" });
    const from = (chain: string) => wrong(setup, `someone-${chain.length}@example.com`, { headers: { "x-forwarded-for": chain } });
    for (let i = 0; i < 3; i++) expect((await from(`10.9.9.${i}, 192.0.2.7`)).status).toBe(302);
    // A fresh spoofed first entry does not make a fresh client.
    expect(isLimited(await from("10.9.9.200, 192.0.2.7"))).toBe(true);
    // Another visitor behind the same proxy still has their own count.
    expect((await from("10.9.9.200, 192.0.2.8")).status).toBe(302);
  });

  it("another header (x-real-ip) is read whole, case-insensitively named", async () => {
    const setup = limitedSetup({ ip: 2, identifier: false, clientAddressHeader: "X-Real-IP" });
    const from = (address: string) => wrong(setup, "x@example.com", { headers: { "x-real-ip": address } });
    expect((await from("198.51.100.1")).status).toBe(302);
    expect((await from("198.51.100.1")).status).toBe(302);
    expect(isLimited(await from("198.51.100.1"))).toBe(true);
    expect((await from("198.51.100.2")).status).toBe(302);
  });

  it("AUTH_CLIENT_ADDRESS_HEADER sets it for plain Auth (through setEnvDefaults), only where rateLimit is on", async () => {
    const setup = limitedSetup({ ip: 1, identifier: false });
    const config = setEnvDefaults({ AUTH_CLIENT_ADDRESS_HEADER: "x-real-ip" }, setup.config);
    expect(config.rateLimit?.clientAddressHeader).toBe("x-real-ip");
    const jar = new CookieJar();
    const token = await csrfToken(config, jar);
    const post = (address: string) =>
      Auth(request("/auth/callback/credentials", { jar, form: { email: "x@example.com", password: "wrong", csrfToken: token }, headers: { "x-real-ip": address } }), config);
    expect((await post("198.51.100.9")).status).toBe(302);
    expect(isLimited(await post("198.51.100.9"))).toBe(true);
    expect((await post("198.51.100.10")).status).toBe(302);

    const off = limitedSetup();
    expect(setEnvDefaults({ AUTH_CLIENT_ADDRESS_HEADER: "x-real-ip" }, off.config).rateLimit).toBeUndefined();
  });

  it("SvelteKit: the env variable takes the place of getClientAddress() (which sees only the proxy)", async () => {
    const logs = captureLogger();
    const setup = limitedSetup({ ip: 2, identifier: false });
    const { handle } = SvelteKitAuth({ providers: setup.config.providers, logger: logs.logger, rateLimit: { ip: 2, identifier: false } });
    const post = (forwardedFor: string) => {
      const url = new URL("/auth/callback/credentials", ORIGIN);
      const body = new URLSearchParams({ email: "x@example.com", password: "wrong" });
      const req = new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, "x-forwarded-for": forwardedFor }, body });
      const event = { url, request: req, locals: {}, cookies: { set: vi.fn() }, setHeaders: vi.fn(), getClientAddress: () => "10.0.0.1" };
      return handle({ event: event as never, resolve: vi.fn() }) as Promise<Response>;
    };
    expect((await post("192.0.2.1")).status).toBe(302);
    expect((await post("192.0.2.1")).status).toBe(302);
    expect(isLimited(await post("192.0.2.1"))).toBe(true);
    expect((await post("192.0.2.2")).status).toBe(302);
  });

  it("a name that is not a header name is a configuration error naming the variable; nothing is counted or stored", async () => {
    const setup = limitedSetup({ clientAddressHeader: "x forwarded for" });
    const response = await wrong(setup);
    expect(response.status).toBe(500);
    expect(setup.authorize).not.toHaveBeenCalled();
    expect(setup.log.errors.map((e) => e.message).join("\n")).toMatch(/rateLimit\.clientAddressHeader \(AUTH_CLIENT_ADDRESS_HEADER\) is "x forwarded for"/);
  });
});
