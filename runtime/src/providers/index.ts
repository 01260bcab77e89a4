export { Credentials } from "./credentials.js";
export type { CredentialsUserConfig } from "./credentials.js";
export type * from "./types.js";
