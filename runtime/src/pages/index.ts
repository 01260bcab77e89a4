/**
 * Built-in pages as pure functions returning HTML strings, so they run on any
 * runtime (Node, edge, workers) without a renderer or any dependency.
 */
export type {
  CredentialField,
  ErrorPageParams,
  ErrorPageResult,
  ForgotPasswordPageParams,
  PageTheme,
  ResetPasswordPageParams,
  SignInPageParams,
  SignInPageProvider,
  SignOutPageParams,
  SignUpPageParams,
  VerifyRequestPageParams,
} from "./types.js";
export { escapeHtml } from "./escape.js";
export { renderSignInPage } from "./signin.js";
export { signInPageScript } from "./webauthn.js";
export { renderSignOutPage } from "./signout.js";
export { renderErrorPage } from "./error.js";
export { renderVerifyRequestPage } from "./verify-request.js";
export { renderSignUpPage } from "./signup.js";
export { renderForgotPasswordPage } from "./forgot-password.js";
export { renderResetPasswordPage } from "./reset-password.js";
