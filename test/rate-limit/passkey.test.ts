/**
 * `rateLimit` on passkey callbacks: counted per client address (an answer
 * names a credential, not a person). A refused callback looks nothing up,
 * checks no signature, changes no counter, and still clears the challenge.
 * Options requests that name someone (a user lookup) count against the address too.
 */
import { describe, expect, it } from "vitest";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { recordAdapterCalls, storesSession } from "../helpers.js";
import { CookieJar, clearsChallenge, fetchOptions, newAuthenticator, passkeySetup, postCallback, signIn, signUp } from "../webauthn/support/flow.js";
import { addressFromHeader, isLimited } from "./support.js";

describe("passkey callbacks with rateLimit", () => {
  it("the 4th callback from one address in a window is a 429 that reads and writes nothing; other addresses go on", async () => {
    const memory = MemoryAdapter();
    const recorded = recordAdapterCalls(memory);
    const address = { "x-test-client-address": "198.51.100.30" };
    const { config } = passkeySetup({ rateLimit: { ip: 3, clientAddress: addressFromHeader } }, recorded.adapter);
    const authenticator = newAuthenticator();
    const jar = new CookieJar();

    // Sign-up and sign-in, each one callback, from an address the limit does not see (no header).
    await signUp(config, new CookieJar(), authenticator, "ada@example.com");
    const user = (await memory.getUserByEmail("ada@example.com"))!;

    // Three answers from the same address: a garbled one, then two real sign-ins.
    await fetchOptions(config, jar);
    expect((await postCallback(config, jar, "authenticate", "{not json", { headers: address })).status).toBe(400);
    for (let i = 0; i < 2; i++) {
      // A fresh browser each time: a signed-in one would register another passkey instead.
      const browser = new CookieJar();
      const { body } = await fetchOptions(config, browser, { email: "ada@example.com" });
      const response = await postCallback(config, browser, "authenticate", authenticator.authenticate(body.options), { headers: address });
      expect(storesSession(response)).toBe(true);
    }
    const [stored] = await memory.listAuthenticatorsByUserId(user.id);
    expect(stored!.counter).toBe(2);

    const { body } = await fetchOptions(config, jar, { email: "ada@example.com" });
    recorded.calls.length = 0;
    const refused = await postCallback(config, jar, "authenticate", authenticator.authenticate(body.options), { headers: address });
    expect(isLimited(refused)).toBe(true);
    expect(storesSession(refused)).toBe(false);
    expect(clearsChallenge(refused)).toBe(true);
    expect(recorded.calls).toEqual([]);
    expect((await memory.listAuthenticatorsByUserId(user.id))[0]!.counter).toBe(2);

    // The same passkey from another address signs in.
    const other = await signIn(config, jar, authenticator, "ada@example.com");
    expect(storesSession(other.response)).toBe(true);
  });

  it("options naming an email count against the address: over it, a 429 in JSON with no options and no challenge; autofill, signed-in and other addresses go on", async () => {
    const memory = MemoryAdapter();
    const { config } = passkeySetup({ rateLimit: { ip: 2, clientAddress: addressFromHeader } }, memory);
    const authenticator = newAuthenticator();
    // Sign-up from an address the limit does not see (no header).
    const signedUp = new CookieJar();
    await signUp(config, signedUp, authenticator, "ada@example.com");
    const address = { "x-test-client-address": "198.51.100.31" };
    const options = (jar: CookieJar, query: Record<string, string>, headers = address) => fetchOptions(config, jar, query, "passkey", headers);

    // Two lookups, one of an account and one of an address without one, are answered.
    expect((await options(new CookieJar(), { email: "ada@example.com" })).body.action).toBe("authenticate");
    expect((await options(new CookieJar(), { email: "nobody@example.com" })).body.action).toBe("register");

    // The third is refused before it answers who has an account.
    const refused = await options(new CookieJar(), { email: "grace@example.com" });
    expect(isLimited(refused.response)).toBe(true);
    expect(refused.response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(refused.body).toEqual({ error: "RateLimited", message: "Too many sign-in attempts. Try again later." });
    expect(refused.response.headers.getSetCookie()).toEqual([]);

    // Autofill names no one: not counted, answered.
    const autofill = await options(new CookieJar(), {});
    expect(autofill.response.status).toBe(200);
    expect(autofill.body.action).toBe("authenticate");
    expect(autofill.body.options.allowCredentials ?? []).toEqual([]);
    // A signed-in browser adding a passkey is its session's user, not a lookup.
    const adding = await options(signedUp, { email: "someone-else@example.com" });
    expect(adding.response.status).toBe(200);
    expect(adding.body.action).toBe("register");
    // Another address still looks up.
    const other = await options(new CookieJar(), { email: "ada@example.com" }, { "x-test-client-address": "198.51.100.32" });
    expect(other.body.action).toBe("authenticate");
  });

  it("without rateLimit, lookups are never refused", async () => {
    const { config } = passkeySetup({}, MemoryAdapter());
    for (let i = 0; i < 40; i++) {
      const { response } = await fetchOptions(config, new CookieJar(), { email: `user${i}@example.com` }, "passkey", { "x-test-client-address": "198.51.100.33" });
      expect(response.status).toBe(200);
    }
  });
});
