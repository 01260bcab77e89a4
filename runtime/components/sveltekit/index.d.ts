import type { Component, Snippet } from "svelte";

export interface SignInProps {
  /** Provider id, e.g. "github" or "credentials"; without it the built-in page lists every provider. */
  provider?: string;
  /** The route whose default action is `signIn`, relative to the app's base path (default "signin"). */
  signInPage?: string;
  /** Where to go after signing in; default: the page's `redirectTo` query, else `/`. */
  redirectTo?: string;
  class?: string;
  /** The content of the submit button. */
  submitButton?: Snippet;
  /** Extra fields, e.g. the email and password inputs of a credentials provider. */
  children?: Snippet;
}

export interface SignOutProps {
  /** The route whose default action is `signOut`, relative to the app's base path (default "signout"). */
  signOutPage?: string;
  /** Where to go after signing out; default `/`. */
  redirectTo?: string;
  class?: string;
  /** The content of the submit button. */
  submitButton?: Snippet;
}

export declare const SignIn: Component<SignInProps>;
export declare const SignOut: Component<SignOutProps>;
