/**
 * The subject (`sub`) of a JWT session without an adapter: the user is the
 * provider's profile, and its id is only unique at that provider ("1234" at
 * GitHub and "1234" at GitLab are two people). Auth.js gives a fresh random id
 * at every sign-in; this one is as unique, and the same at every sign-in with
 * the same account, so an app can key data on it. A UUID (version 8, the
 * layout for names derived by hash) of SHA-256 over the provider and its id.
 */
import { hashToken } from "../email/token.js";

const DOMAIN = ":gatehouse:subject";

export async function accountSubject(provider: string, providerAccountId: string): Promise<string> {
  const hex = (await hashToken(`${provider}\u0000${providerAccountId}`, DOMAIN)).slice(0, 32).split("");
  hex[12] = "8";
  // RFC 9562 variant: the top two bits of this digit are 10.
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
