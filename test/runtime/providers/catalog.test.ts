/**
 * The catalog the CLI reads and the providers the runtime exports must agree:
 * every entry names a factory whose provider has the entry's id and type, and
 * every factory has an entry.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as providers from "@gatehouse/runtime/providers";
import { findProvider, providerCatalog } from "../../../runtime/src/providers/catalog.js";

const exported = providers as unknown as Record<string, unknown>;
/** Building blocks, not catalog entries: they need code of the app (authorize, endpoints, a mail sender). */
const NOT_IN_CATALOG = new Set(["Credentials", "OAuth", "OIDC", "Email"]);
/** Factories are the exported functions with capitalized names (`createAppleClientSecret` is a helper). */
const factories = Object.entries(exported).filter(([name, value]) => typeof value === "function" && /^[A-Z]/.test(name) && !NOT_IN_CATALOG.has(name));

function envPrefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}`;
}

describe("provider catalog", () => {
  it("keeps password first (the CLI lists known ids in catalog order)", () => {
    expect(providerCatalog[0]!.id).toBe("password");
  });

  it.each(providerCatalog.map((entry) => [entry.id, entry] as const))(
    "%s: its importName is exported, and the factory called with nothing makes that id and type",
    (id, entry) => {
      const factory = exported[entry.importName];
      expect(typeof factory).toBe("function");
      const provider = (factory as () => { id: string; type: string })();
      expect(provider.id).toBe(id);
      expect(provider.type).toBe(entry.type);
    },
  );

  it("password is the Password export, with the mail keys it reads; credentials, its earlier id, finds it too", () => {
    const entry = findProvider("password")!;
    expect(entry.importName).toBe("Password");
    expect(entry.env).toEqual(["AUTH_EMAIL_SERVER", "AUTH_EMAIL_FROM"]);
    expect(findProvider("credentials")).toBe(entry);
    expect(findProvider("Credentials")).toBeUndefined();
  });

  it("every exported provider factory has an entry (aliases such as X share their factory's)", () => {
    expect(factories.length).toBeGreaterThanOrEqual(18);
    for (const [name, factory] of factories) {
      const entry = providerCatalog.find((e) => exported[e.importName] === factory);
      expect(entry, `${name} has no catalog entry`).toBeDefined();
    }
    expect(exported.X).toBe(exported.Twitter);
  });

  it("lists the providers gatehouse promises", () => {
    const ids = providerCatalog.map((e) => e.id);
    for (const id of ["github", "google", "apple", "microsoft-entra-id", "gitlab", "discord", "slack", "twitter", "facebook", "linkedin", "spotify", "twitch", "auth0", "okta", "keycloak", "cognito", "zitadel", "authentik"]) {
      expect(ids).toContain(id);
    }
  });

  it("ids are unique and URL-safe (they are path segments of the routes)", () => {
    const ids = providerCatalog.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      expect(encodeURIComponent(id)).toBe(id);
    }
    const names = providerCatalog.map((e) => e.importName);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(providerCatalog.filter((e) => e.type === "oauth" || e.type === "oidc").map((e) => [e.id, e] as const))(
    "%s: env keys are AUTH_<ID>_ID, _SECRET (and _ISSUER exactly when the provider has no fixed issuer)",
    (id, entry) => {
      const prefix = envPrefix(id);
      for (const key of entry.env) expect(key).toMatch(new RegExp(`^${prefix}_(ID|SECRET|ISSUER)$`));
      expect(entry.env.slice(0, 2)).toEqual([`${prefix}_ID`, `${prefix}_SECRET`]);
      const provider = (exported[entry.importName] as () => { type: string; issuer?: string; authorization?: unknown })();
      const needsIssuer = provider.type === "oidc" && !provider.issuer;
      expect(entry.env.includes(`${prefix}_ISSUER`)).toBe(needsIssuer);
    },
  );

  it("every OAuth entry says where to register the callback: an https console, or a note for self-hosted servers", () => {
    for (const entry of providerCatalog.filter((e) => e.type === "oauth" || e.type === "oidc")) {
      expect(entry.setupUrl ?? entry.callbackNote, entry.id).toBeTruthy();
      if (entry.setupUrl) expect(new URL(entry.setupUrl).protocol, entry.id).toBe("https:");
      if (entry.callbackNote) expect(entry.callbackNote.length, entry.id).toBeGreaterThan(20);
    }
  });

  it("findProvider finds by id, and nothing for an unknown id", () => {
    expect(findProvider("github")?.importName).toBe("GitHub");
    expect(findProvider("microsoft-entra-id")?.importName).toBe("MicrosoftEntraID");
    expect(findProvider("myspace")).toBeUndefined();
  });

  it("stays data only: the CLI loads catalog.ts without the provider modules", () => {
    const source = readFileSync(new URL("../../../runtime/src/providers/catalog.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/^\s*import\s/m);
  });
});
