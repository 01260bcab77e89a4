/**
 * Strings planted in configs and application code that no response may ever
 * carry: the secrets, a provider's client secret, and the messages of errors
 * thrown by the adapter and by the application's callbacks. Each contains
 * `SENTINEL`, which no generated request contains.
 */
export const SENTINEL = "SENTINEL";

export const SECRET = "fuzz-secret-SENTINEL-S1-0123456789abcdef0123456789";
export const OLD_SECRET = "fuzz-old-secret-SENTINEL-S2-0123456789abcdef01234";
/** Signs forged tokens: a key the handler does not know. */
export const FOREIGN_SECRET = "foreign-secret-SENTINEL-S3-0123456789abcdef0123";
export const SHORT_SECRET = "short-SENTINEL";
export const CLIENT_SECRET = "client-secret-SENTINEL-C1";
export const ADAPTER_FAULT = "adapter-SENTINEL-A1: connection to db.internal:5432 refused";
export const AUTHORIZE_FAULT = "authorize-SENTINEL-U1 at /srv/app/users.ts:42:7";
export const SENDER_FAULT = "smtp-SENTINEL-M1 535 auth failed for mailer@internal";
export const EVENT_FAULT = "event-SENTINEL-E1";
export const CALLBACK_FAULT = "callback-SENTINEL-B1";
export const SIGNIN_FAULT = "signin-SENTINEL-I1";
export const REDIRECT_FAULT = "redirect-SENTINEL-R1";

/** Hosts an attacker controls; they appear only in request values, never in a trusted header the config relies on. */
export const ATTACKER_HOSTS = ["evil.com", "evil.example", "attacker.test"];

/** The one user, session and sign-in link every store starts with, so cookies and links can name real ones. */
export const PLANTED = {
  user: { id: "user-planted", name: "Planted User", email: "planted@example.com", image: null, emailVerified: null },
  sessionToken: "planted-session-token-0123456789",
  /** Past its expiry: reading it deletes it. */
  expiredSessionToken: "planted-expired-session-token-01",
  linkToken: "planted-link-token-0123456789abcdef",
  /** The state sealed into planted OAuth check cookies, which a callback's query may carry. */
  oauthState: "planted-oauth-state-0123456789abcdef",
  /** Another user, named by planted check cookies and challenges: never the one signed in. */
  otherUserId: "user-somebody-else",
} as const;

/** Marker of an XSS attempt; no built-in page may contain it unescaped. */
export const XSS = "<script>fuzz-xss</script>";
