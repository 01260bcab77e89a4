export { Credentials } from "./credentials.js";
export type { CredentialsUserConfig } from "./credentials.js";
export type * from "./types.js";

// Passwordless.
export { Email, Nodemailer } from "./email.js";
export type { EmailUserConfig, NodemailerUserConfig } from "./email.js";
export { verificationMail } from "./email-message.js";
export type { VerificationMail, VerificationMailInput } from "./email-message.js";
export { Password } from "./password.js";
export type { PasswordConfig, PasswordMailKind, PasswordMailMessage, PasswordOptions, PasswordUserConfig } from "./password.js";
export { passwordMail } from "./password-mail.js";
export type { PasswordMailInput } from "./password-mail.js";
export { linkMail } from "./email-message.js";
export type { LinkMailInput } from "./email-message.js";
export { DEVELOPMENT_MAIL_DIR, developmentMail } from "./development-mail.js";
export { Passkey } from "./passkey.js";
export type {
  RelyingParty,
  WebAuthnAuthenticationOptions,
  WebAuthnConfig,
  WebAuthnRegistrationOptions,
  WebAuthnUserInfo,
  WebAuthnUserInfoParams,
  WebAuthnVerifyAuthenticationOptions,
  WebAuthnVerifyRegistrationOptions,
} from "./passkey.js";

// Any provider the catalog does not list.
export { OAuth, OIDC } from "./oauth.js";
export type { OAuthProviderInput } from "./oauth.js";

export { Apple } from "./apple.js";
export type { AppleProfile, AppleUserData } from "./apple.js";
export { createAppleClientSecret, APPLE_CLIENT_SECRET_MAX_AGE } from "./apple-client-secret.js";
export type { AppleClientSecretOptions } from "./apple-client-secret.js";
export { Auth0 } from "./auth0.js";
export type { Auth0Profile } from "./auth0.js";
export { Authentik } from "./authentik.js";
export type { AuthentikProfile } from "./authentik.js";
export { Cognito } from "./cognito.js";
export type { CognitoProfile } from "./cognito.js";
export { Discord } from "./discord.js";
export type { DiscordProfile } from "./discord.js";
export { Facebook } from "./facebook.js";
export type { FacebookProfile } from "./facebook.js";
export { GitHub } from "./github.js";
export type { GitHubEmail, GitHubProfile, GitHubUserConfig } from "./github.js";
export { GitLab } from "./gitlab.js";
export type { GitLabProfile, GitLabUserConfig } from "./gitlab.js";
export { Google } from "./google.js";
export type { GoogleProfile } from "./google.js";
export { Keycloak } from "./keycloak.js";
export type { KeycloakProfile } from "./keycloak.js";
export { LinkedIn } from "./linkedin.js";
export type { LinkedInProfile } from "./linkedin.js";
export { MicrosoftEntraID } from "./microsoft-entra-id.js";
export type { EntraPhotoSize, MicrosoftEntraIDProfile, MicrosoftEntraIDUserConfig } from "./microsoft-entra-id.js";
export { Okta } from "./okta.js";
export type { OktaProfile } from "./okta.js";
export { Slack } from "./slack.js";
export type { SlackProfile } from "./slack.js";
export { Spotify } from "./spotify.js";
export type { SpotifyImage, SpotifyProfile } from "./spotify.js";
export { Twitch } from "./twitch.js";
export type { TwitchProfile } from "./twitch.js";
export { Twitter, X } from "./twitter.js";
export type { TwitterProfile, TwitterUser } from "./twitter.js";
export { Zitadel } from "./zitadel.js";
export type { ZitadelProfile } from "./zitadel.js";
