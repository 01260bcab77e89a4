/**
 * What the factories return besides `profile()`: defaults that work with no
 * arguments, the user's overrides under `options`, scopes, checks, and the
 * provider-specific pieces (Entra ID's photo, Twitch's token response, GitLab's
 * base URL, the generic OAuth/OIDC builders).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import * as providers from "@gatehouse/runtime/providers";
import type { OAuthConfig, TokenEndpointHandler } from "@gatehouse/runtime/providers";
import { customFetch } from "@gatehouse/runtime";
import { fixture } from "./fixtures.js";

const exported = providers as unknown as Record<string, unknown>;
const all = Object.entries(exported)
  .filter(([name, value]) => typeof value === "function" && /^[A-Z]/.test(name) && !["Credentials", "OAuth", "OIDC", "X"].includes(name))
  .map(([name, factory]) => [name, (factory as () => OAuthConfig<any>)()] as const)
  // Email and passkey providers have their own suites (test/email, test/webauthn).
  .filter(([, provider]) => provider.type === "oauth" || provider.type === "oidc");

describe.each(all)("%s()", (_, provider) => {
  it("has an id, a name, a profile() and button colours", () => {
    expect(provider.id).toMatch(/^[a-z0-9-]+$/);
    expect(provider.name).toBeTruthy();
    expect(typeof provider.profile).toBe("function");
    expect(provider.style?.bg).toMatch(/^#[0-9a-f]{3,6}$/i);
    expect(provider.style?.text).toMatch(/^#[0-9a-f]{3,6}$/i);
  });

  it("sets its own scope (the default `openid profile email` means nothing to plain OAuth servers)", () => {
    const params = (provider.authorization as { params?: Record<string, unknown> }).params;
    expect(typeof params?.scope).toBe("string");
    const scopes = String(params!.scope).split(" ");
    // Apple is OIDC but takes only `name email`: it sends an ID token regardless.
    if (provider.id === "apple") expect(scopes).toEqual(["name", "email"]);
    else if (provider.type === "oidc") expect(scopes).toContain("openid");
    else expect(scopes).not.toContain("openid");
  });

  it("plain OAuth: https authorization, token and userinfo endpoints; OIDC: an issuer or none (then from env)", () => {
    if (provider.type === "oauth") {
      const authorization = provider.authorization as { url: string };
      const userinfo = typeof provider.userinfo === "string" ? provider.userinfo : (provider.userinfo as { url: string }).url;
      for (const url of [authorization.url, provider.token as string, userinfo]) expect(new URL(url).protocol).toBe("https:");
    } else if (provider.issuer) {
      expect(new URL(provider.issuer).protocol).toBe("https:");
    }
  });

  it("passes no options when given none", () => {
    expect(provider.options ?? {}).toEqual({});
  });
});

describe("the user's overrides", () => {
  it("go under `options`, untouched, for core to merge over the defaults", () => {
    const overrides = { clientId: "id", authorization: { params: { prompt: "consent" } }, allowDangerousEmailAccountLinking: true };
    const google = providers.Google(overrides);
    expect(google.options).toEqual(overrides);
    // The defaults stay: core merges `authorization.params` key by key.
    expect(google.authorization).toEqual({ params: { scope: "openid profile email" } });
  });

  it("keep a customFetch symbol", () => {
    const fetch = vi.fn();
    const github = providers.GitHub({ [customFetch]: fetch, enterprise: { baseUrl: "https://ghe.example" } });
    expect((github.options as Record<symbol, unknown>)[customFetch]).toBe(fetch);
  });

  it("checks are set only where a provider cannot do one", () => {
    const checks = Object.fromEntries(all.filter(([, p]) => p.checks).map(([, p]) => [p.id, p.checks]));
    expect(checks).toEqual({ apple: ["state", "nonce"], slack: ["state", "nonce"], linkedin: ["state"] });
  });
});

describe("Microsoft Entra ID", () => {
  const claims = fixture("microsoft-entra-id.json");
  const tokens = { access_token: "graph-token", token_type: "bearer" };

  function graph(response: () => Promise<Response>) {
    return vi.fn<typeof fetch>(() => response());
  }

  it("has no default issuer (it must name the tenant) and asks for no Graph scope", async () => {
    const fetch = graph(() => Promise.reject(new Error("no call expected")));
    const provider = providers.MicrosoftEntraID({ [customFetch]: fetch });
    expect(provider.issuer).toBeUndefined();
    expect(provider.authorization).toEqual({ params: { scope: "openid profile email" } });
    expect((await provider.profile!(claims as never, tokens)).image).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("profilePhoto: the Graph photo as a data: URL, requested with the access token and User.Read", async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
    const fetch = graph(async () => new Response(bytes, { headers: { "content-type": "image/jpeg" } }));
    const provider = providers.MicrosoftEntraID({ profilePhoto: { size: 96 }, [customFetch]: fetch });
    expect(provider.authorization).toEqual({ params: { scope: "openid profile email User.Read" } });
    const user = await provider.profile!(claims as never, tokens);
    expect(user.image).toBe("data:image/jpeg;base64,/9j/4AAQ");
    expect(fetch).toHaveBeenCalledWith("https://graph.microsoft.com/v1.0/me/photos/96x96/$value", { headers: { Authorization: "Bearer graph-token" } });
    // The factory's own options are not provider fields.
    expect(provider.options).toEqual({ [customFetch]: fetch });
  });

  it("Auth.js's profilePhotoSize turns the photo on at that size", async () => {
    const fetch = graph(async () => new Response(new Uint8Array([1]), { headers: { "content-type": "image/png" } }));
    const user = await providers.MicrosoftEntraID({ profilePhotoSize: 48, [customFetch]: fetch }).profile!(claims as never, tokens);
    expect(user.image).toBe("data:image/png;base64,AQ==");
    expect(fetch.mock.calls[0]![0]).toBe("https://graph.microsoft.com/v1.0/me/photos/48x48/$value");
  });

  it.each([
    ["no photo (404)", () => Promise.resolve(new Response('{"error":{"code":"ImageNotFound"}}', { status: 404 }))],
    ["Graph down", () => Promise.reject(new TypeError("fetch failed"))],
    ["not an image", () => Promise.resolve(new Response("<html/>", { headers: { "content-type": "text/html" } }))],
  ])("%s: no image, and the sign-in goes on", async (_, answer) => {
    const user = await providers.MicrosoftEntraID({ profilePhoto: true, [customFetch]: graph(answer) }).profile!(claims as never, tokens);
    expect(user).toMatchObject({ id: claims.sub, name: "Megan Bowen", image: null });
  });

  it("a photo of many kilobytes encodes without blowing the stack", async () => {
    const big = new Uint8Array(200_000).fill(7);
    const user = await providers.MicrosoftEntraID({ profilePhoto: true, [customFetch]: graph(async () => new Response(big)) }).profile!(claims as never, tokens);
    expect(user.image).toBe(`data:image/jpeg;base64,${Buffer.from(big).toString("base64")}`);
  });
});

describe("Twitch token response", () => {
  const conform = (providers.Twitch().token as TokenEndpointHandler).conform!;

  it("a scope array becomes the space-separated string OAuth expects", async () => {
    const body = { access_token: "a", expires_in: 14124, id_token: "eyJ", refresh_token: "r", scope: ["openid", "user:read:email"], token_type: "bearer" };
    const fixed = await conform(new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "content-length": "999" } }));
    expect(fixed!.status).toBe(200);
    expect(fixed!.headers.get("content-length")).toBeNull();
    expect(await fixed!.json()).toEqual({ ...body, scope: "openid user:read:email" });
  });

  it("Twitch's error shape becomes an OAuth error", async () => {
    const fixed = await conform(new Response(JSON.stringify({ status: 400, message: "Invalid authorization code" }), { status: 400 }));
    expect(fixed!.status).toBe(400);
    expect(await fixed!.json()).toEqual({ error: "invalid_request", error_description: "Invalid authorization code" });
  });

  it("a standard response or a body that is not JSON passes unchanged (and stays readable)", async () => {
    const standard = new Response(JSON.stringify({ access_token: "a", scope: "openid", token_type: "bearer" }));
    expect(await conform(standard)).toBeUndefined();
    expect(await standard.json()).toMatchObject({ access_token: "a" });
    expect(await conform(new Response(JSON.stringify({ error: "invalid_grant" }), { status: 400 }))).toBeUndefined();
    expect(await conform(new Response("<html>bad gateway</html>", { status: 502 }))).toBeUndefined();
  });
});

describe("GitLab", () => {
  it("gitlab.com by default; a self-managed base URL moves every endpoint", () => {
    expect(providers.GitLab()).toMatchObject({
      authorization: { url: "https://gitlab.com/oauth/authorize", params: { scope: "read_user" } },
      token: "https://gitlab.com/oauth/token",
      userinfo: "https://gitlab.com/api/v4/user",
    });
    const own = providers.GitLab({ baseUrl: "https://git.example.com/", clientId: "x" });
    expect(own).toMatchObject({
      authorization: { url: "https://git.example.com/oauth/authorize" },
      token: "https://git.example.com/oauth/token",
      userinfo: "https://git.example.com/api/v4/user",
      options: { clientId: "x" },
    });
  });
});

describe("OAuth() and OIDC()", () => {
  it("fill in the type and keep everything else as given", () => {
    const profile = (p: { id: string }) => ({ id: p.id });
    const oauth = providers.OAuth({ id: "acme", name: "Acme", authorization: "https://acme.example/authorize", token: "https://acme.example/token", userinfo: "https://acme.example/me", profile });
    expect(oauth).toEqual({ id: "acme", name: "Acme", type: "oauth", authorization: "https://acme.example/authorize", token: "https://acme.example/token", userinfo: "https://acme.example/me", profile });
    expect(providers.OIDC({ id: "corp", name: "Corp", issuer: "https://sso.corp.example" })).toEqual({ id: "corp", name: "Corp", type: "oidc", issuer: "https://sso.corp.example" });
  });

  it("a `type` smuggled in is overridden", () => {
    expect(providers.OIDC({ id: "x", name: "X", type: "oauth" } as never).type).toBe("oidc");
  });
});

describe("Twitter and X", () => {
  it("are one provider with the id twitter; PKCE stays on (X requires it)", () => {
    expect(providers.X).toBe(providers.Twitter);
    const x = providers.X();
    expect(x.id).toBe("twitter");
    expect(x.checks).toBeUndefined();
  });
});

describe("provider modules", () => {
  it("import no node: modules, not even in comments (they run on edge runtimes; the package test scans the built files)", () => {
    const dir = new URL("../../../runtime/src/providers/", import.meta.url);
    const offenders = readdirSync(dir).filter((file) => /from\s+["']node:|require\(["']node:|import\(["']node:/.test(readFileSync(new URL(file, dir), "utf8")));
    expect(offenders).toEqual([]);
  });
});
