/**
 * The Passkey provider's defaults and overrides, the configuration errors of a
 * WebAuthn setup, and that @simplewebauthn/server is only loaded on demand.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Auth, type AuthConfig } from "@gatehouse/runtime";
import { MemoryAdapter } from "@gatehouse/runtime/adapters/memory";
import { Passkey } from "@gatehouse/runtime/providers";
import { SECRET, call, captureLogger } from "../helpers.js";
import { CookieJar, fetchOptions, passkeySetup } from "./support/flow.js";

describe("Passkey()", () => {
  it("with no arguments: id passkey, type webauthn, the documented defaults", () => {
    const provider = Passkey();
    expect(provider).toMatchObject({
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      enableConditionalUI: true,
      formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
      registrationOptions: { attestationType: "none", authenticatorSelection: { residentKey: "required", userVerification: "preferred" } },
      authenticationOptions: { userVerification: "preferred" },
    });
    expect(provider.relayingParty).toBeUndefined();
    expect(provider.options).toEqual({});
  });

  it("keeps overrides under options; formFields replace the default; the type cannot change", () => {
    const provider = Passkey({
      id: "key",
      type: "oauth" as never,
      enableConditionalUI: false,
      formFields: { username: { label: "Username", autocomplete: "username webauthn" } },
    });
    expect(provider.type).toBe("webauthn");
    expect(provider.formFields).toEqual({ username: { label: "Username", autocomplete: "username webauthn" } });
    expect(provider.options).toEqual({ id: "key", enableConditionalUI: false });
  });

  it("each call has its own option objects", () => {
    const a = Passkey();
    const b = Passkey();
    expect(a.registrationOptions).not.toBe(b.registrationOptions);
    expect(a.registrationOptions!.authenticatorSelection).not.toBe(b.registrationOptions!.authenticatorSelection);
  });

  it("works as a factory in providers (called with no arguments)", async () => {
    const { config } = passkeySetup({ providers: [Passkey] });
    const { response, body } = await fetchOptions(config, new CookieJar());
    expect(response.status).toBe(200);
    expect(body.action).toBe("authenticate");
  });

  it("a provider written as a plain object gets the same defaults", async () => {
    const { config } = passkeySetup({ providers: [{ id: "raw", name: "Raw", type: "webauthn" }] });
    const { body } = await fetchOptions(config, new CookieJar(), { email: "a@example.com" }, "raw");
    expect(body.options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
    expect(body.options.attestation).toBe("none");
  });
});

describe("configuration errors", () => {
  const base = (overrides: Partial<AuthConfig>): AuthConfig => ({ secret: SECRET, trustHost: true, providers: [], ...overrides });

  it("a Passkey provider without experimental.enableWebAuthn: Configuration error, detail in the log", async () => {
    const logs = captureLogger();
    const config = base({ logger: logs.logger, adapter: MemoryAdapter(), providers: [Passkey()] });
    const options = await call(config, "/auth/webauthn-options/passkey");
    expect(options.status).toBe(500);
    // The browser script fetching options reads JSON, also when the config is wrong.
    expect(await options.json()).toMatchObject({ error: "Configuration" });
    const page = await call(config, "/auth/signin");
    expect(page.status).toBe(500);
    expect(logs.errors[0]).toMatchObject({ type: "ExperimentalFeatureNotEnabled" });
    expect(logs.errors[0]!.message).toContain("enableWebAuthn");
  });

  it("webauthn-options with the flag off and no WebAuthn provider: 400, as an unknown path (not a configuration error anyone could log)", async () => {
    const config = base({ logger: captureLogger().logger, providers: [] });
    const response = await call(config, "/auth/webauthn-options/passkey");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "UnknownAction" });
  });

  it("no adapter: MissingAdapter", async () => {
    const logs = captureLogger();
    const config = base({ logger: logs.logger, experimental: { enableWebAuthn: true }, providers: [Passkey()] });
    expect((await call(config, "/auth/webauthn-options/passkey")).status).toBe(500);
    expect(logs.errors[0]).toMatchObject({ type: "MissingAdapter" });
  });

  it("an adapter without the authenticator methods: MissingAdapterMethods naming each", async () => {
    const logs = captureLogger();
    const {
      getAuthenticator: _g,
      createAuthenticator: _c,
      listAuthenticatorsByUserId: _l,
      updateAuthenticatorCounter: _u,
      ...withoutAuthenticators
    } = MemoryAdapter();
    const config = base({ logger: logs.logger, adapter: withoutAuthenticators, experimental: { enableWebAuthn: true }, providers: [Passkey()] });
    const response = await Auth(new Request("http://localhost:3000/auth/webauthn-options/passkey"), config);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("getAuthenticator");
    const error = logs.errors[0]!;
    expect(error).toMatchObject({ type: "MissingAdapterMethods" });
    for (const method of ["getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"]) {
      expect(error.message).toContain(`${method} (for the webauthn provider "passkey")`);
    }
  });

  it("an empty relayingParty.id: Configuration error when the options are asked for", async () => {
    const { config, logs } = passkeySetup({ providers: [Passkey({ relayingParty: { id: "" } })] });
    const response = await call(config, "/auth/webauthn-options/passkey");
    expect(response.status).toBe(500);
    expect(logs.errors[0]).toMatchObject({ type: "InvalidConfig" });
    expect(logs.errors[0]!.message).toContain("relayingParty.id");
  });
});

describe("passkey autofill (conditional UI) checks", () => {
  it("two providers with autofill on: DuplicateConditionalUI naming both", async () => {
    const { config, logs } = passkeySetup({ providers: [Passkey(), Passkey({ id: "second" })] });
    expect((await call(config, "/auth/session")).status).toBe(500);
    expect(logs.errors[0]).toMatchObject({ type: "DuplicateConditionalUI" });
    expect(logs.errors[0]!.message).toContain('"passkey" and "second"');
  });

  it("autofill on for only one of two providers is fine", async () => {
    const { config } = passkeySetup({ providers: [Passkey(), Passkey({ id: "second", enableConditionalUI: false })] });
    expect((await call(config, "/auth/session")).status).toBe(200);
  });

  it("autofill on without a webauthn autocomplete field: MissingWebAuthnAutocomplete", async () => {
    const { config, logs } = passkeySetup({ providers: [Passkey({ formFields: { email: { label: "Email", autocomplete: "username" } } })] });
    expect((await call(config, "/auth/session")).status).toBe(500);
    expect(logs.errors[0]).toMatchObject({ type: "MissingWebAuthnAutocomplete" });
    expect(logs.errors[0]!.message).toContain("enableConditionalUI: false");
  });

  it("the same fields with autofill off are fine", async () => {
    const { config } = passkeySetup({ providers: [Passkey({ enableConditionalUI: false, formFields: { email: { label: "Email", autocomplete: "username" } } })] });
    expect((await call(config, "/auth/session")).status).toBe(200);
  });
});

describe("@simplewebauthn/server is loaded on demand", () => {
  it("no module of the runtime imports it statically (type-only imports aside)", () => {
    const root = fileURLToPath(new URL("../../runtime/src", import.meta.url));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith(".ts")) files.push(path);
      }
    };
    walk(root);
    const offenders = files.filter((file) => {
      const source = readFileSync(file, "utf8");
      return /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+["']@simplewebauthn\/server["']/m.test(source);
    });
    expect(offenders).toEqual([]);
    const dynamic = files.filter((file) => readFileSync(file, "utf8").includes('import("@simplewebauthn/server")'));
    expect(dynamic.map((f) => f.slice(root.length))).toEqual(["/core/webauthn/simplewebauthn.ts"]);
  });
});
