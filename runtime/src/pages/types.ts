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
  /**
   * credentials only, set for the built-in Password provider: the pages its form
   * links to (e.g. http://localhost/auth/signup and http://localhost/auth/forgot-password)
   */
  password?: { signUpUrl: string; forgotPasswordUrl: string };
}

export interface SignInPageParams {
  providers: SignInPageProvider[];
  csrfToken?: string;
  callbackUrl: string;
  error?: string;
  /**
   * For applications (e.g. a custom credentials error code); never rendered itself.
   * With a Password provider on the page, a few known values choose the message
   * for `CredentialsSignin` (see signin-password.ts).
   */
  code?: string;
  /**
   * Set when an email confirmation link opened the page: the Password provider's
   * form carries the link's token and asks for the password to finish.
   */
  confirm?: { email: string; token: string };
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
  /** `Configuration` in development only: the OAuth provider that is not set up yet, and how to set it up. */
  providerSetup?: ProviderSetupHint | undefined;
}

export interface ProviderSetupHint {
  /** "GitHub". */
  name: string;
  /** The env keys it lacks: `AUTH_GITHUB_ID`, `AUTH_GITHUB_SECRET`. */
  envKeys: readonly string[];
  /** Where to register the app, for providers with one console for everyone. */
  setupUrl?: string;
  /** The callback URL to register there. */
  callbackUrl: string;
}

export interface ErrorPageResult {
  status: number;
  html: string;
}

export interface VerifyRequestPageParams {
  host: string;
  homeUrl: string;
  theme: PageTheme;
  /** What the email that was sent is for; default "sign-in". */
  kind?: "sign-in" | "sign-up" | "password-reset";
}

export interface SignUpPageParams {
  /** Where the form posts (e.g. http://localhost/auth/signup). */
  action: string;
  csrfToken?: string;
  callbackUrl: string;
  /** The sign-in page, linked for people who already have an account. */
  signInUrl: string;
  /** Pre-fills the email field (e.g. after an error). */
  email?: string;
  /** The error code from the URL: selects a fixed message, never shown itself. */
  code?: string;
  minPasswordLength: number;
  maxPasswordLength: number;
  theme: PageTheme;
}

export interface ForgotPasswordPageParams {
  /** Where the form posts (e.g. http://localhost/auth/forgot-password). */
  action: string;
  csrfToken?: string;
  callbackUrl: string;
  signInUrl: string;
  /** The error code from the URL: selects a fixed message, never shown itself. */
  code?: string;
  theme: PageTheme;
}

export interface ResetPasswordPageParams {
  /** Where the form posts (e.g. http://localhost/auth/reset-password). */
  action: string;
  csrfToken?: string;
  callbackUrl: string;
  /** The address the reset link was sent to; posted back with the token. */
  email: string;
  /** The reset link's token; posted back. */
  token: string;
  /** The error code from the URL: selects a fixed message, never shown itself. */
  code?: string;
  minPasswordLength: number;
  maxPasswordLength: number;
  theme: PageTheme;
}
