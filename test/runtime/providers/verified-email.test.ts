/**
 * Every OAuth/OIDC provider's `verifiedEmail` does what its catalog entry says
 * (`emailVerification`): core treats an address as proven only when this
 * returns it, so a provider that vouches too readily lets an attacker take over
 * an account by registering the victim's address somewhere. The profiles are
 * the recorded ones of ./fixtures with the verification fields changed.
 */
import { describe, expect, it } from "vitest";
import * as providers from "@gatehouse/runtime/providers";
import type { OAuthConfig, UserinfoEndpointHandler } from "@gatehouse/runtime/providers";
import { providerCatalog, type ProviderCatalogEntry } from "../../../runtime/src/providers/catalog.js";
import { emailFromVerifiedClaim } from "../../../runtime/src/providers/profile-fields.js";
import { fixture } from "./fixtures.js";

const exported = providers as unknown as Record<string, unknown>;
const oauthEntries = providerCatalog.filter((entry) => entry.type === "oauth" || entry.type === "oidc");
const EMAIL = "ada@example.com";

function providerOf(entry: ProviderCatalogEntry): OAuthConfig<any> {
  return (exported[entry.importName] as () => OAuthConfig<any>)();
}

/** What the provider vouches for; `undefined` counts as `null` (core treats both as "not verified"). */
function vouched(provider: OAuthConfig<any>, profile: Record<string, unknown>): string | null {
  return provider.verifiedEmail!(profile, {}) ?? null;
}

/** The entry's recorded profile with `fields` set over it. */
function profileOf(entry: ProviderCatalogEntry, fields: Record<string, unknown>): Record<string, unknown> {
  return { ...fixture(entry.id === "github" ? "github/user.json" : `${entry.id}.json`), ...fields };
}

const byKind = (kind: NonNullable<ProviderCatalogEntry["emailVerification"]>) =>
  oauthEntries.filter((entry) => entry.emailVerification === kind).map((entry) => [entry.id, entry] as const);

describe("every OAuth/OIDC provider says how it knows an email is verified", () => {
  it.each(oauthEntries.map((entry) => [entry.id, entry] as const))("%s: a catalog statement and a verifiedEmail function", (_, entry) => {
    expect(["claim", "api", "never"]).toContain(entry.emailVerification);
    expect(typeof providerOf(entry).verifiedEmail).toBe("function");
  });

  it("the entries that are not OAuth/OIDC make no statement", () => {
    for (const entry of providerCatalog.filter((e) => !oauthEntries.includes(e))) expect(entry.emailVerification).toBeUndefined();
  });

  it("the generic OAuth() and OIDC() leave it to the core, whose default is the standard claim (test/proven-email drives OIDC() both ways)", () => {
    expect(providers.OAuth({ id: "acme", name: "Acme" }).verifiedEmail).toBeUndefined();
    expect(providers.OIDC({ id: "corp", name: "Corp" }).verifiedEmail).toBeUndefined();
  });
});

describe("emailFromVerifiedClaim", () => {
  it.each([true, "true"])("email_verified %j: the email", (claim) => {
    expect(emailFromVerifiedClaim({ email: EMAIL, email_verified: claim })).toBe(EMAIL);
  });

  it.each([false, "false", "TRUE", 1, "1", null, undefined, {}])("email_verified %j: null", (claim) => {
    expect(emailFromVerifiedClaim({ email: EMAIL, email_verified: claim })).toBeNull();
  });

  it("no claim, no usable email, or no profile: null", () => {
    expect(emailFromVerifiedClaim({ email: EMAIL })).toBeNull();
    expect(emailFromVerifiedClaim({ email_verified: true })).toBeNull();
    expect(emailFromVerifiedClaim({ email: "", email_verified: true })).toBeNull();
    expect(emailFromVerifiedClaim({ email: 42, email_verified: true })).toBeNull();
    expect(emailFromVerifiedClaim(null)).toBeNull();
    expect(emailFromVerifiedClaim("ada@example.com")).toBeNull();
  });
});

describe("claim: the OpenID Connect email_verified claim", () => {
  it.each(byKind("claim"))("%s: true or \"true\" vouches for the email", (_, entry) => {
    const provider = providerOf(entry);
    expect(vouched(provider, profileOf(entry, { email: EMAIL, email_verified: true }))).toBe(EMAIL);
    expect(vouched(provider, profileOf(entry, { email: EMAIL, email_verified: "true" }))).toBe(EMAIL);
  });

  it.each(byKind("claim"))("%s: false, \"false\" or no claim vouches for nothing", (_, entry) => {
    const provider = providerOf(entry);
    expect(vouched(provider, profileOf(entry, { email: EMAIL, email_verified: false }))).toBeNull();
    expect(vouched(provider, profileOf(entry, { email: EMAIL, email_verified: "false" }))).toBeNull();
    expect(vouched(provider, profileOf(entry, { email: EMAIL, email_verified: undefined }))).toBeNull();
  });
});

describe("never: no verification signal", () => {
  it.each(byKind("never"))("%s: nothing, even with email_verified: true in the profile", (_, entry) => {
    const provider = providerOf(entry);
    expect(vouched(provider, profileOf(entry, { email: EMAIL, email_verified: true }))).toBeNull();
    expect(vouched(provider, profileOf(entry, { email: EMAIL, email_verified: "true", verified: true }))).toBeNull();
  });

  it("X: not even the opt-in confirmed_email", () => {
    expect(vouched(providers.Twitter(), { data: { id: "1", name: "Ada", username: "ada", confirmed_email: EMAIL } })).toBeNull();
  });
});

/** For each "api" provider: profiles (over its recorded one) it vouches for, and ones it must not. */
const apiCases: Record<string, { vouches: [string, Record<string, unknown>][]; refuses: [string, Record<string, unknown>][] }> = {
  discord: {
    vouches: [["verified: true", { email: EMAIL, verified: true }]],
    refuses: [
      ["verified: false", { email: EMAIL, verified: false }],
      ["no verified field", { email: EMAIL, verified: undefined }],
      ["verified: \"true\" (not Discord's type)", { email: EMAIL, verified: "true" }],
      ["email_verified: true but verified: false", { email: EMAIL, verified: false, email_verified: true }],
    ],
  },
  gitlab: {
    vouches: [["confirmed_at set", { email: EMAIL, confirmed_at: "2019-03-05T13:22:03.512Z" }]],
    refuses: [
      ["confirmed_at null", { email: EMAIL, confirmed_at: null }],
      ["confirmed_at empty", { email: EMAIL, confirmed_at: "" }],
      ["email_verified: true but confirmed_at null", { email: EMAIL, confirmed_at: null, email_verified: true }],
    ],
  },
  "microsoft-entra-id": {
    vouches: [
      ["xms_edov: true", { email: EMAIL, xms_edov: true }],
      ["xms_edov: \"true\"", { email: EMAIL, xms_edov: "true" }],
      ["xms_edov: \"1\"", { email: EMAIL, xms_edov: "1" }],
    ],
    refuses: [
      ["no xms_edov (the app did not add the optional claim)", { email: EMAIL }],
      ["xms_edov: false", { email: EMAIL, xms_edov: false }],
      ["xms_edov: \"false\"", { email: EMAIL, xms_edov: "false" }],
      ["xms_edov: \"0\"", { email: EMAIL, xms_edov: "0" }],
      ["email_verified: true without xms_edov (nOAuth)", { email: EMAIL, email_verified: true }],
    ],
  },
  github: {
    vouches: [["email_verified: true (set by userinfo.request)", { email: EMAIL, email_verified: true }]],
    refuses: [
      ["email_verified: false", { email: EMAIL, email_verified: false }],
      ["no email_verified (a userinfo override that skips /user/emails)", { email: EMAIL }],
    ],
  },
};

describe("api: the provider's own field or call", () => {
  it("every \"api\" provider has cases here", () => {
    expect(Object.keys(apiCases).sort()).toEqual(byKind("api").map(([id]) => id).sort());
  });

  for (const [id, cases] of Object.entries(apiCases)) {
    const entry = oauthEntries.find((e) => e.id === id)!;
    it.each(cases.vouches)(`${id}: %s vouches for the email`, (_, fields) => {
      expect(vouched(providerOf(entry), profileOf(entry, fields))).toBe(EMAIL);
    });
    it.each(cases.refuses)(`${id}: %s vouches for nothing`, (_, fields) => {
      expect(vouched(providerOf(entry), profileOf(entry, fields))).toBeNull();
    });
  }
});

describe("GitHub: /user/emails decides, through userinfo.request", () => {
  interface Reply {
    status?: number;
    body: unknown;
  }

  /** GitHub's API played by a fake `fetch` with the given answers by path; anything else is 404. */
  async function signIn(routes: Record<string, Reply>) {
    const asked: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      asked.push(path);
      const reply = routes[path] ?? { status: 404, body: { message: "Not Found" } };
      return Response.json(reply.body, { status: reply.status ?? 200 });
    }) as typeof globalThis.fetch;
    const provider = providers.GitHub();
    const profile = await (provider.userinfo as UserinfoEndpointHandler).request!({ tokens: { access_token: "t", token_type: "bearer" }, provider: { ...provider, fetch } });
    const user = await provider.profile!(profile as never, {});
    return { email: user.email, vouched: vouched(provider, profile as Record<string, unknown>), asked: asked.sort() };
  }

  const publicUser = { body: fixture("github/user.json") }; // public email octocat@github.com
  const privateUser = { body: fixture("github/user-private-email.json") };
  const entry = (email: string, verified: boolean, primary = false) => ({ email, primary, verified, visibility: primary ? "public" : null });

  it("a public email /user/emails lists as verified: vouched", async () => {
    const result = await signIn({ "/user": publicUser, "/user/emails": { body: [entry("octocat@github.com", true, true), entry("old@example.com", true)] } });
    expect(result).toEqual({ email: "octocat@github.com", vouched: "octocat@github.com", asked: ["/user", "/user/emails"] });
  });

  it("a public email /user/emails lists as unverified: kept, not vouched (another verified address changes nothing)", async () => {
    const result = await signIn({ "/user": publicUser, "/user/emails": { body: [entry("octocat@github.com", false, true), entry("old@example.com", true)] } });
    expect(result).toMatchObject({ email: "octocat@github.com", vouched: null });
  });

  it("a public email missing from /user/emails: kept, not vouched", async () => {
    const result = await signIn({ "/user": publicUser, "/user/emails": { body: [entry("someone-else@example.com", true, true)] } });
    expect(result).toMatchObject({ email: "octocat@github.com", vouched: null });
  });

  it("a public email listed with other casing: not vouched (a mismatch fails safe)", async () => {
    const result = await signIn({ "/user": publicUser, "/user/emails": { body: [entry("OctoCat@GitHub.com", true, true)] } });
    expect(result).toMatchObject({ email: "octocat@github.com", vouched: null });
  });

  it.each([403, 404, 500])("a public email and /user/emails answering %i (user:email not granted...): kept, not vouched", async (status) => {
    const result = await signIn({ "/user": publicUser, "/user/emails": { status, body: { message: "Resource not accessible by integration" } } });
    expect(result).toEqual({ email: "octocat@github.com", vouched: null, asked: ["/user", "/user/emails"] });
  });

  it("a private email: the primary verified address, vouched", async () => {
    const result = await signIn({ "/user": privateUser, "/user/emails": { body: fixture("github/emails-primary-verified.json") } });
    expect(result).toMatchObject({ email: "monalisa@example.com", vouched: "monalisa@example.com" });
  });

  it("a private email whose primary is unverified: another verified address, vouched", async () => {
    const result = await signIn({ "/user": privateUser, "/user/emails": { body: fixture("github/emails-primary-unverified.json") } });
    expect(result).toMatchObject({ email: "mona@old-job.example", vouched: "mona@old-job.example" });
  });

  it("a private email and no verified address: no email, nothing vouched", async () => {
    const result = await signIn({ "/user": privateUser, "/user/emails": { body: fixture("github/emails-none-verified.json") } });
    expect(result).toMatchObject({ email: null, vouched: null });
  });

  it("a private email and /user/emails answering 403: no email, nothing vouched", async () => {
    const result = await signIn({ "/user": privateUser, "/user/emails": { status: 403, body: { message: "Forbidden" } } });
    expect(result).toMatchObject({ email: null, vouched: null });
  });

  it("a public email that GitHub's /user sends with email_verified: true of its own is still checked against /user/emails", async () => {
    const result = await signIn({ "/user": { body: { ...fixture<Record<string, unknown>>("github/user.json"), email_verified: true } }, "/user/emails": { status: 403, body: {} } });
    expect(result).toMatchObject({ email: "octocat@github.com", vouched: null });
  });
});
