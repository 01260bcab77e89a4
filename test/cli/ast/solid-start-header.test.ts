/**
 * `addAuthHeader` (SolidStart): input -> expected output fixtures of `src/app.tsx`
 * after the MetaProvider edit, each also run a second time (no change); shapes it
 * refuses, with the reason.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { addAuthHeader } from "../../../src/ast/solid-start-header.js";
import { addMetaProvider } from "../../../src/ast/solid-start-meta.js";

function edited(source: string): string {
  const first = addAuthHeader(source);
  if (!first.ok) throw new Error(first.reason);
  expect(addAuthHeader(first.text)).toEqual({ ok: true, text: first.text });
  return first.text;
}

/** The CLI's fixture of a SolidStart 2 app (its basic template's root), after the MetaProvider edit. */
const WITH_META = (() => {
  const result = addMetaProvider(readFileSync(fileURLToPath(new URL("../fixtures/solid-start-v2/src/app.tsx", import.meta.url)), "utf8"));
  if (!result.ok) throw new Error(result.reason);
  return result.text;
})();

describe("addAuthHeader (SolidStart)", () => {
  it("the root's JSX on lines of their own: the header first inside it, indented as its children, imported after the other imports", () => {
    expect(edited(WITH_META)).toBe(
      WITH_META.replace(`import { MetaProvider } from "@solidjs/meta";\n`, `import { MetaProvider } from "@solidjs/meta";\nimport { AuthHeader } from "./lib/auth-header";\n`).replace(
        "        <MetaProvider>\n",
        "        <MetaProvider>\n          <AuthHeader />\n",
      ),
    );
  });

  it("a root on one line stays on one line; the file's quotes are kept", () => {
    const bare = addMetaProvider(`import { Router } from '@solidjs/router';\nimport { Suspense } from 'solid-js';\n\nexport default () => <Router root={(props) => <Suspense>{props.children}</Suspense>} />;\n`);
    if (!bare.ok) throw new Error(bare.reason);
    expect(edited(bare.text)).toBe(
      `import { Router } from '@solidjs/router';\nimport { Suspense } from 'solid-js';\nimport { MetaProvider } from '@solidjs/meta';\nimport { AuthHeader } from './lib/auth-header';\n\nexport default () => <Router root={(props) => <MetaProvider><AuthHeader /><Suspense>{props.children}</Suspense></MetaProvider>} />;\n`,
    );
  });

  it("a header the app renders already, wherever, is left as it is", () => {
    const placed = WITH_META.replace(`import { MetaProvider } from "@solidjs/meta";\n`, `import { MetaProvider } from "@solidjs/meta";\nimport { AuthHeader } from "./lib/auth-header";\n`).replace("<nav>", "<nav>\n              <AuthHeader />");
    expect(addAuthHeader(placed)).toEqual({ ok: true, text: placed });
  });

  it("refused, with what to add by hand: a root that is not an inline function, a single element, a file that does not parse", () => {
    const named = addAuthHeader(`import { Router } from "@solidjs/router";\nimport Layout from "./Layout";\nexport default () => <Router root={Layout} />;\n`);
    expect(named).toEqual({ ok: false, reason: expect.stringMatching(/not an inline function: add `import \{ AuthHeader \} from "\.\/lib\/auth-header";` and `<AuthHeader \/>` at the top of your root layout by hand$/) });
    const single = addAuthHeader(`import { Router } from "@solidjs/router";\nexport default () => <Router root={(props) => <Layout {...props} />} />;\n`);
    expect(single).toEqual({ ok: false, reason: expect.stringContaining("a single element with no children") });
    expect(addAuthHeader(`export default () => <Router root={(props) => <div>{props.children}</Router>;\n`)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^it does not parse as TypeScript/),
      syntaxError: expect.objectContaining({ language: "TypeScript", line: 1 }),
    });
  });
});
