// Svelte components are default exports of their files by the framework's rules; the package exports them by name.
export { default as SignIn } from "./SignIn.svelte";
export { default as SignOut } from "./SignOut.svelte";
