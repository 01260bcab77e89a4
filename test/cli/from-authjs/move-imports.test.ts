/**
 * `moveAuthjsImports` (auth-init --from authjs's edit of one file) as
 * input/output fixtures, each run a second time (nothing left to move).
 */
import { describe, expect, it } from "vitest";
import { destructureOldHandle } from "../../../src/ast/authjs-handle.js";
import { moveAuthjsImports, type MovedImports } from "../../../src/ast/authjs-imports.js";

function moved(text: string, path = "src/auth.ts"): MovedImports {
  const result = moveAuthjsImports({ path, text });
  if ("syntaxError" in result) throw new Error(result.syntaxError.message);
  const again = moveAuthjsImports({ path, text: result.text });
  expect(again).toMatchObject({ text: result.text, moved: 0 });
  return result;
}

describe("moveAuthjsImports", () => {
  it("moves the SvelteKit setup of the Auth.js docs; the code using the names stays", () => {
    const result = moved(`import { SvelteKitAuth } from "@auth/sveltekit"
import GitHub from "@auth/sveltekit/providers/github"

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [GitHub],
})
`);
    expect(result.text).toBe(`import { SvelteKitAuth } from "@gatehouse/runtime/sveltekit"
import { GitHub } from "@gatehouse/runtime/providers"

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [GitHub],
})
`);
    expect(result).toMatchObject({ moved: 2, kept: [], stillImports: [] });
  });

  it("keeps a provider's local name, its types and the file's quotes and semicolons", () => {
    const result = moved(`import { SolidAuth, type SolidAuthConfig } from '@auth/solid-start';
import GitHubProvider, { type GitHubProfile } from '@auth/core/providers/github';
import Creds from '@auth/solid-start/providers/credentials';
import type { Adapter } from '@auth/core/adapters';
`);
    expect(result.text).toBe(`import { SolidAuth, type SolidAuthConfig } from '@gatehouse/runtime/solid-start';
import { GitHub as GitHubProvider, type GitHubProfile, Credentials as Creds } from '@gatehouse/runtime/providers';
import type { Adapter } from '@gatehouse/runtime';
`);
    expect(result.moved).toBe(4);
  });

  it("moves re-exports, augmentations and type references; leaves adapters and comments alone", () => {
    const result = moved(`/// <reference types="@auth/sveltekit" />
import PostgresAdapter from "@auth/pg-adapter";
export { AuthError, CredentialsSignin } from "@auth/sveltekit";
// see @auth/core's docs
declare module "@auth/sveltekit" {
  interface Session { role: string }
}
`);
    expect(result.text).toBe(`/// <reference types="@gatehouse/runtime/sveltekit" />
import PostgresAdapter from "@auth/pg-adapter";
export { AuthError, CredentialsSignin } from "@gatehouse/runtime/sveltekit";
// see @auth/core's docs
declare module "@gatehouse/runtime/sveltekit" {
  interface Session { role: string }
}
`);
    expect(result).toMatchObject({ moved: 3, kept: [], stillImports: [] });
  });

  it("a provider gatehouse lacks comes from @auth/core, which stays", () => {
    const result = moved(`import Notion from "@auth/sveltekit/providers/notion";
import Resend from "@auth/core/providers/resend";
`);
    expect(result.text).toBe(`import Notion from "@auth/core/providers/notion";
import Resend from "@auth/core/providers/resend";
`);
    expect(result.kept.map((k) => [k.line, k.specifier])).toEqual([
      [1, "@auth/sveltekit/providers/notion"],
      [2, "@auth/core/providers/resend"],
    ]);
    expect(result.kept[0]!.reason).toMatch(/no notion provider: it now comes from @auth\/core/);
    expect(result.stillImports).toEqual(["@auth/core"]);
  });

  it("keeps, with the reason, what gatehouse does not export under the same name", () => {
    const result = moved(`import { getToken, somethingElse } from "@auth/core/jwt";
import * as everything from "@auth/core";
import { SignIn } from "@auth/sveltekit/components";
const jwt = await import("@auth/core/jwt");
`);
    expect(result.text).toContain(`from "@auth/core/jwt";`);
    expect(result.kept.map((k) => [k.line, k.specifier])).toEqual([
      [1, "@auth/core/jwt"],
      [2, "@auth/core"],
      [3, "@auth/sveltekit/components"],
      [4, "@auth/core/jwt"],
    ]);
    expect(result.kept[0]!.reason).toBe("somethingElse: not exported by @gatehouse/runtime/jwt");
    expect(result.kept[1]!.reason).toMatch(/namespace import/);
    expect(result.stillImports).toEqual(["@auth/core", "@auth/sveltekit"]);
  });

  it("refuses a file that does not parse, saying where", () => {
    const result = moveAuthjsImports({ path: "src/auth.ts", text: `import { SvelteKitAuth } from "@auth/sveltekit";\nexport function f( {\n` });
    expect(result).toMatchObject({ syntaxError: { line: 3 } });
  });

  it("a file without Auth.js imports is returned as it is", () => {
    expect(moveAuthjsImports({ path: "src/x.ts", text: "function broken( {" })).toEqual({ text: "function broken( {", moved: 0, kept: [], stillImports: [] });
  });
});

describe("moveAuthjsImports in .svelte files", () => {
  it("moves the imports of every <script> block and leaves the markup alone", () => {
    const text = `<script context="module" lang="ts">
  import type { Session } from "@auth/sveltekit";
</script>

<script lang="ts">
  import { signIn, signOut } from "@auth/sveltekit/client";
  import { SignIn } from "@auth/sveltekit/components";
  let { data } = $props();
</script>

<p>import from "@auth/sveltekit/client" is text here</p>
<button onclick={() => signIn("github")}>Sign in</button>
`;
    const result = moved(text, "src/routes/+page.svelte");
    expect(result.text).toBe(
      text.replace(`from "@auth/sveltekit";`, `from "@gatehouse/runtime/sveltekit";`).replace(`from "@auth/sveltekit/client";\n  import { SignIn }`, `from "@gatehouse/runtime/sveltekit/client";\n  import { SignIn }`),
    );
    expect(result.moved).toBe(2);
    expect(result.kept.map((k) => [k.line, k.specifier])).toEqual([[7, "@auth/sveltekit/components"]]);
    expect(result.stillImports).toEqual(["@auth/sveltekit"]);
  });

  it("reports a script's syntax error at the .svelte file's line", () => {
    const result = moveAuthjsImports({ path: "src/routes/+page.svelte", text: `<h1>hi</h1>\n<script>\n  import { signIn } from "@auth/sveltekit/client";\n  function f( {\n</script>\n` });
    expect(result).toMatchObject({ syntaxError: { line: 5 } });
  });
});

describe("destructureOldHandle (@auth/sveltekit before 1.0 returned the hook itself)", () => {
  it("turns `const handle = SvelteKitAuth(...)` into the destructuring, under the app's names; 1.x code is left alone", () => {
    const old = `import { SvelteKitAuth as Auth } from "@gatehouse/runtime/sveltekit";
export const handle = Auth({ providers: [] });
const authHandle = Auth(async (event) => ({ providers: [] }));
export const { handle: other } = Auth({ providers: [] });
`;
    const text = destructureOldHandle({ path: "src/hooks.server.ts", text: old });
    expect(text).toBe(`import { SvelteKitAuth as Auth } from "@gatehouse/runtime/sveltekit";
export const { handle } = Auth({ providers: [] });
const { handle: authHandle } = Auth(async (event) => ({ providers: [] }));
export const { handle: other } = Auth({ providers: [] });
`);
    expect(destructureOldHandle({ path: "src/hooks.server.ts", text })).toBe(text);
    // Still on Auth.js (not moved): not touched.
    const authjs = `import { SvelteKitAuth } from "@auth/sveltekit";\nexport const handle = SvelteKitAuth({ providers: [] });\n`;
    expect(destructureOldHandle({ path: "src/hooks.server.ts", text: authjs })).toBe(authjs);
  });
});
