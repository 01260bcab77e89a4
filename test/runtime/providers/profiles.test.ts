/**
 * Every provider's `profile()` on a recorded response, then on the same
 * response with the name, email and avatar fields gone: no throw, `null`s.
 */
import { describe, expect, it } from "vitest";
import * as providers from "@gatehouse/runtime/providers";
import type { User } from "@gatehouse/runtime";
import type { OAuthConfig } from "@gatehouse/runtime/providers";
import { fixture, pathKeys, without } from "./fixtures.js";

interface Case {
  factory: () => OAuthConfig<any>;
  fixture: string;
  expected: User;
  /** The fields a user may lack (or a provider may leave out): name, email, avatar. */
  optional: string[];
}

const cases: Record<string, Case> = {
  github: {
    factory: () => providers.GitHub(),
    fixture: "github/user.json",
    expected: { id: "583231", name: "The Octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/583231?v=4" },
    optional: ["name", "login", "email", "avatar_url"],
  },
  google: {
    factory: () => providers.Google(),
    fixture: "google.json",
    expected: {
      id: "110169484474386276334",
      name: "Ada Lovelace",
      email: "ada.lovelace@example.com",
      image: "https://lh3.googleusercontent.com/a/ACg8ocJ4sJb2aWq6J5bG2t3Kx8xQ2g1pQ7m9rY5w0dZkTQ=s96-c",
    },
    optional: ["name", "given_name", "family_name", "email", "picture"],
  },
  apple: {
    factory: () => providers.Apple(),
    fixture: "apple.json",
    // No `user` field: not the first sign-in, so Apple sent no name.
    expected: { id: "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234", name: null, email: "k7w2x9ppqz@privaterelay.appleid.com", image: null },
    optional: ["email", "user"],
  },
  "microsoft-entra-id": {
    factory: () => providers.MicrosoftEntraID(),
    fixture: "microsoft-entra-id.json",
    expected: { id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", name: "Megan Bowen", email: "MeganB@contoso.com", image: null },
    optional: ["name", "given_name", "family_name", "email"],
  },
  gitlab: {
    factory: () => providers.GitLab(),
    fixture: "gitlab.json",
    expected: { id: "1234567", name: "John Smith", email: "john.smith@example.com", image: "https://gitlab.com/uploads/-/system/user/avatar/1234567/avatar.png" },
    optional: ["name", "username", "email", "public_email", "avatar_url"],
  },
  discord: {
    factory: () => providers.Discord(),
    fixture: "discord.json",
    expected: { id: "80351110224678912", name: "Nelly", email: "nelly@discord.com", image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png" },
    // Without a hash and a discriminator the default avatar still follows from the id; see discord below.
    optional: ["global_name", "username", "email"],
  },
  slack: {
    factory: () => providers.Slack(),
    fixture: "slack.json",
    expected: {
      id: "U0R7JM",
      name: "krane",
      email: "krane@slack-corp.com",
      image: "https://secure.gravatar.com/avatar/bc3d2ba1bd2ac1f1b8a0f0f0e5b2b9c5.jpg?s=512&d=https%3A%2F%2Fa.slack-edge.com%2Fdf10d%2Fimg%2Favatars%2Fava_0010-512.png",
    },
    optional: ["name", "given_name", "family_name", "email", "picture", "https://slack.com/user_image_512"],
  },
  twitter: {
    factory: () => providers.Twitter(),
    fixture: "twitter.json",
    expected: { id: "2244994945", name: "Developers", email: null, image: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg" },
    optional: ["data.name", "data.username", "data.profile_image_url"],
  },
  facebook: {
    factory: () => providers.Facebook(),
    fixture: "facebook.json",
    expected: {
      id: "10224385239612345",
      name: "Mark Lee",
      email: "mark.lee@example.com",
      image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224385239612345&height=200&width=200&ext=1721000000&hash=AbZqv4Q2q3lWl3nB",
    },
    optional: ["name", "first_name", "last_name", "email", "picture"],
  },
  linkedin: {
    factory: () => providers.LinkedIn(),
    fixture: "linkedin.json",
    expected: {
      id: "782bbtaQ",
      name: "John Doe",
      email: "doe@email.com",
      image: "https://media.licdn.com/dms/image/C5F03AQHqK8v7tB8D7w/profile-displayphoto-shrink_100_100/0/1516851234567?e=1723680000&v=beta&t=Xz8oN6l1pQm9",
    },
    optional: ["name", "given_name", "family_name", "email", "picture"],
  },
  spotify: {
    factory: () => providers.Spotify(),
    fixture: "spotify.json",
    // The 300 px image, though Spotify listed the 64 px one first.
    expected: { id: "wizzler", name: "JM Wizzler", email: "email@example.com", image: "https://i.scdn.co/image/ab6775700000ee8555c25988a6ac314394d3fbf5" },
    optional: ["display_name", "email", "images"],
  },
  twitch: {
    factory: () => providers.Twitch(),
    fixture: "twitch.json",
    expected: {
      id: "713936733",
      name: "twitchdev",
      email: "twitchdev@example.com",
      image: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-300x300.png",
    },
    optional: ["preferred_username", "email", "picture"],
  },
  auth0: {
    factory: () => providers.Auth0(),
    fixture: "auth0.json",
    expected: {
      id: "google-oauth2|104829372048573920483",
      name: "Jane Doe",
      email: "jane.doe@example.com",
      image: "https://s.gravatar.com/avatar/7e0f9d54a1f0d5c1e0dd2a1f7a3b9c6e?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fjd.png",
    },
    optional: ["name", "given_name", "family_name", "nickname", "email", "picture"],
  },
  okta: {
    factory: () => providers.Okta(),
    fixture: "okta.json",
    expected: { id: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com", image: null },
    optional: ["name", "given_name", "family_name", "preferred_username", "email", "picture"],
  },
  keycloak: {
    factory: () => providers.Keycloak(),
    fixture: "keycloak.json",
    expected: { id: "f6b3c2e1-9a8d-4e7f-b6c5-d4e3f2a1b0c9", name: "Alice Liddell", email: "alice@example.com", image: null },
    optional: ["name", "given_name", "family_name", "preferred_username", "email", "picture"],
  },
  cognito: {
    factory: () => providers.Cognito(),
    fixture: "cognito.json",
    // Cognito sends no `name` unless the pool has that attribute: the given and family names make it.
    expected: { id: "94b8a448-5031-70de-8d1a-1f7f2d2a4b5e", name: "Carol Danvers", email: "carol@example.com", image: null },
    optional: ["name", "given_name", "family_name", "preferred_username", "cognito:username", "email", "picture"],
  },
  zitadel: {
    factory: () => providers.Zitadel(),
    fixture: "zitadel.json",
    expected: { id: "275416054321098765", name: "Road Runner", email: "road.runner@acme.example", image: null },
    optional: ["name", "given_name", "family_name", "preferred_username", "email", "picture"],
  },
  authentik: {
    factory: () => providers.Authentik(),
    fixture: "authentik.json",
    expected: {
      id: "3c3dbf9a2c8b4f2e8f1f1c9d6e7a0b12c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9",
      name: "Jens Langhammer",
      email: "jens@example.com",
      image: null,
    },
    optional: ["name", "nickname", "preferred_username", "email", "picture"],
  },
};

async function mapProfile(provider: OAuthConfig<any>, profile: unknown): Promise<User> {
  return await provider.profile!(profile, { access_token: "t", token_type: "bearer" });
}

describe.each(Object.entries(cases))("%s profile()", (id, c) => {
  it("maps the recorded response", async () => {
    const provider = c.factory();
    expect(provider.id).toBe(id);
    expect(await mapProfile(provider, fixture(c.fixture))).toEqual(c.expected);
  });

  it("without name, email and avatar: the same id and nulls", async () => {
    const user = await mapProfile(c.factory(), without(fixture(c.fixture), c.optional));
    expect(user.id).toBe(c.expected.id);
    expect(user.name).toBeNull();
    expect(user.email).toBeNull();
    // Discord builds a default avatar from the id; everything else has none left.
    if (id === "discord") expect(user.image).toMatch(/^https:\/\/cdn\.discordapp\.com\/avatars\//);
    else expect(user.image).toBeNull();
  });

  it("an empty object does not throw; the missing id is left for core to refuse", async () => {
    const user = await mapProfile(c.factory(), {});
    expect(user).toEqual({ id: undefined, name: null, email: null, image: null });
  });

  it('"" and null count as missing', async () => {
    const recorded = fixture(c.fixture);
    const keys = c.optional.map((path) => pathKeys(recorded, path).at(-1));
    const blanked = JSON.parse(JSON.stringify(recorded), (key, value) => (keys.includes(key) ? (key === "given_name" ? null : "") : value));
    const user = await mapProfile(c.factory(), blanked);
    expect(user.name).toBeNull();
    expect(user.email).toBeNull();
  });
});

describe("fallbacks", () => {
  it("GitHub: the login when the user set no name", async () => {
    const user = await mapProfile(providers.GitHub(), without(fixture("github/user.json"), ["name"]));
    expect(user.name).toBe("octocat");
  });

  it("Google, Entra ID, Okta: given and family name when `name` is absent", async () => {
    for (const [provider, file, name] of [
      [providers.Google(), "google.json", "Ada Lovelace"],
      [providers.MicrosoftEntraID(), "microsoft-entra-id.json", "Megan Bowen"],
      [providers.Okta(), "okta.json", "John Doe"],
    ] as const) {
      expect((await mapProfile(provider, without(fixture(file), ["name"]))).name).toBe(name);
    }
  });

  it("Entra ID: never the UPN as email (it need not be a mailbox)", async () => {
    const user = await mapProfile(providers.MicrosoftEntraID(), without(fixture("microsoft-entra-id.json"), ["email"]));
    expect(user.email).toBeNull();
  });

  it("Cognito: the username when no name attribute is set", async () => {
    const user = await mapProfile(providers.Cognito(), without(fixture("cognito.json"), ["given_name", "family_name"]));
    expect(user.name).toBe("94b8a448-5031-70de-8d1a-1f7f2d2a4b5e");
  });

  it("Twitter/X: `confirmed_email` when the app asked for it", async () => {
    const profile = fixture("twitter.json");
    profile.data.confirmed_email = "dev@x.example";
    expect((await mapProfile(providers.Twitter(), profile)).email).toBe("dev@x.example");
  });

  it("Twitch: the username is the name, and nothing stands in for it", async () => {
    expect((await mapProfile(providers.Twitch(), without(fixture("twitch.json"), ["preferred_username"]))).name).toBeNull();
  });
});

describe("discord", () => {
  const discord = providers.Discord();
  const base = fixture("discord.json");

  it("an animated avatar is a gif", async () => {
    expect((await mapProfile(discord, { ...base, avatar: "a_1269e74af4df7417b13759eae50c83dc" })).image).toBe(
      "https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif",
    );
  });

  it("no avatar, new username: the default avatar from the id ((id >> 22) % 6)", async () => {
    const index = Number((BigInt(base.id) >> 22n) % 6n);
    expect((await mapProfile(discord, { ...base, avatar: null })).image).toBe(`https://cdn.discordapp.com/embed/avatars/${index}.png`);
  });

  it("no avatar, legacy discriminator: the default avatar from it (discriminator % 5)", async () => {
    expect((await mapProfile(discord, { ...base, avatar: null, discriminator: "1337" })).image).toBe("https://cdn.discordapp.com/embed/avatars/2.png");
  });

  it("no avatar and an id that is not a snowflake: no image instead of a crash", async () => {
    expect((await mapProfile(discord, { ...base, id: "not-a-number", avatar: null })).image).toBeNull();
  });

  it("an unverified email is not passed on", async () => {
    expect((await mapProfile(discord, { ...base, verified: false })).email).toBeNull();
  });
});
