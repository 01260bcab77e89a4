/** Theme values come from config; "" means "not set" so callers need no optional chaining. */
export interface PageTheme {
  colorScheme: "auto" | "dark" | "light";
  logo: string;
  brandColor: string;
  buttonText: string;
}

export interface CredentialField {
  label?: string;
  type?: string;
  placeholder?: string;
  required?: boolean;
  autocomplete?: string;
  [attribute: string]: unknown;
}

export interface SignInPageProvider {
  id: string;
  name: string;
  type: "oauth" | "oidc" | "email" | "credentials" | "webauthn";
  /** form action for oauth/oidc/email buttons: POST here (e.g. http://localhost/auth/signin/github) */
  signinUrl: string;
  /** form action for credentials, and where webauthn posts its result (e.g. http://localhost/auth/callback/credentials) */
  callbackUrl: string;
  /** credentials only: the input fields, keyed by field name */
  credentials?: Record<string, CredentialField>;
  /**
   * webauthn only: the input fields sent to the options endpoint, keyed by field name
   * (default: a required email field with `autocomplete="username webauthn"`)
   */
  formFields?: Record<string, CredentialField>;
  /** webauthn only: offer passkeys in the fields' autofill (conditional mediation); default true */
  enableConditionalUI?: boolean;
  /** webauthn only: GET the ceremony's options here (e.g. http://localhost/auth/webauthn-options/passkey) */
  webauthnOptionsUrl?: string;
}

export interface SignInPageParams {
  providers: SignInPageProvider[];
  csrfToken?: string;
  callbackUrl: string;
  error?: string;
  /** For applications only (e.g. a custom credentials error code); never rendered. */
  code?: string;
  theme: PageTheme;
}

export interface SignOutPageParams {
  csrfToken?: string;
  callbackUrl: string;
  signoutUrl: string;
  theme: PageTheme;
}

export interface ErrorPageParams {
  error?: string;
  signinUrl: string;
  homeUrl: string;
  theme: PageTheme;
  /** `RateLimited` only: seconds until another attempt is counted, said on the page. */
  retryAfter?: number;
}

export interface ErrorPageResult {
  status: number;
  html: string;
}

export interface VerifyRequestPageParams {
  host: string;
  homeUrl: string;
  theme: PageTheme;
}
