/**
 * `addMetaProvider`: input -> expected output fixtures for the shapes a
 * SolidStart `src/app.tsx` takes, each also run a second time (no change);
 * shapes it refuses (a file that does not parse among them), with the reason.
 */
import { describe, expect, it } from "vitest";
import { addMetaProvider } from "../../../src/ast/solid-start-meta.js";

function wrapped(source: string): string {
  const first = addMetaProvider(source);
  if (!first.ok) throw new Error(first.reason);
  const second = addMetaProvider(first.text);
  expect(second).toEqual({ ok: true, text: first.text });
  return first.text;
}

function refused(source: string): string {
  const result = addMetaProvider(source);
  if (result.ok) throw new Error(`expected a refusal, got:\n${result.text}`);
  expect(result.reason).toContain('by hand: the auth pages set their titles with <Title> from @solidjs/meta');
  return result.reason;
}

describe("addMetaProvider", () => {
  it("a root on one line (SolidStart's bare app): MetaProvider around its JSX on that line, imported after the other imports", () => {
    const input = `import { Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { Suspense } from "solid-js";

export default function App() {
  return (
    <Router root={(props) => <Suspense>{props.children}</Suspense>}>
      <FileRoutes />
    </Router>
  );
}
`;
    expect(wrapped(input)).toBe(`import { Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { Suspense } from "solid-js";
import { MetaProvider } from "@solidjs/meta";

export default function App() {
  return (
    <Router root={(props) => <MetaProvider><Suspense>{props.children}</Suspense></MetaProvider>}>
      <FileRoutes />
    </Router>
  );
}
`);
  });

  it("a root returning JSX on lines of its own: MetaProvider on lines of their own, the JSX one step deeper", () => {
    const input = `import { Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { Suspense } from "solid-js";

export default function App() {
  return (
    <Router
      root={(props) => (
        <>
          <nav>
            <a href="/">Index</a>
          </nav>

          <Suspense>{props.children}</Suspense>
        </>
      )}
    >
      <FileRoutes />
    </Router>
  );
}
`;
    expect(wrapped(input)).toBe(`import { Router } from "@solidjs/router";
import { FileRoutes } from "@solidjs/start/router";
import { Suspense } from "solid-js";
import { MetaProvider } from "@solidjs/meta";

export default function App() {
  return (
    <Router
      root={(props) => (
        <MetaProvider>
          <>
            <nav>
              <a href="/">Index</a>
            </nav>

            <Suspense>{props.children}</Suspense>
          </>
        </MetaProvider>
      )}
    >
      <FileRoutes />
    </Router>
  );
}
`);
  });

  it("the file's own indentation (tabs) and quotes; a multi-line template literal keeps its text", () => {
    const input = `import { Router } from '@solidjs/router';

export default function App() {
\treturn (
\t\t<Router
\t\t\troot={(props) => (
\t\t\t\t<main class={\`app
dark\`}>
\t\t\t\t\t{props.children}
\t\t\t\t</main>
\t\t\t)}
\t\t/>
\t);
}
`;
    expect(wrapped(input)).toBe(`import { Router } from '@solidjs/router';
import { MetaProvider } from '@solidjs/meta';

export default function App() {
\treturn (
\t\t<Router
\t\t\troot={(props) => (
\t\t\t\t<MetaProvider>
\t\t\t\t\t<main class={\`app
dark\`}>
\t\t\t\t\t\t{props.children}
\t\t\t\t\t</main>
\t\t\t\t</MetaProvider>
\t\t\t)}
\t\t/>
\t);
}
`);
  });

  it("a root with a block body: the JSX of its one return statement", () => {
    const input = `import { Router as AppRouter } from "@solidjs/router";

export default () => (
    <AppRouter
        root={function Layout(props) {
            const year = new Date().getFullYear();
            const footer = () => <footer>{year}</footer>;
            return (
                <div>
                    {props.children}
                    {footer()}
                </div>
            );
        }}
    >
        <FileRoutes />
    </AppRouter>
);
`;
    expect(wrapped(input)).toBe(`import { Router as AppRouter } from "@solidjs/router";
import { MetaProvider } from "@solidjs/meta";

export default () => (
    <AppRouter
        root={function Layout(props) {
            const year = new Date().getFullYear();
            const footer = () => <footer>{year}</footer>;
            return (
                <MetaProvider>
                    <div>
                        {props.children}
                        {footer()}
                    </div>
                </MetaProvider>
            );
        }}
    >
        <FileRoutes />
    </AppRouter>
);
`);
  });

  it("@solidjs/meta imported already: MetaProvider joins that import, or its alias is used", () => {
    const withTitle = `import { Title } from "@solidjs/meta";
import { Router } from "@solidjs/router";

export default () => <Router root={(props) => <><Title>App</Title>{props.children}</>} />;
`;
    expect(wrapped(withTitle)).toBe(`import { MetaProvider, Title } from "@solidjs/meta";
import { Router } from "@solidjs/router";

export default () => <Router root={(props) => <MetaProvider><><Title>App</Title>{props.children}</></MetaProvider>} />;
`);
    const aliased = `import { MetaProvider as Head } from "@solidjs/meta";
import { Router } from "@solidjs/router";

export default () => <Router root={(props) => <main>{props.children}</main>} />;
`;
    expect(wrapped(aliased)).toBe(`import { MetaProvider as Head } from "@solidjs/meta";
import { Router } from "@solidjs/router";

export default () => <Router root={(props) => <Head><main>{props.children}</main></Head>} />;
`);
  });

  it("a MetaProvider rendered anywhere already (around the Router too): unchanged", () => {
    const outside = `import { MetaProvider } from "@solidjs/meta";
import { Router } from "@solidjs/router";

export default () => (
  <MetaProvider>
    <Router root={Layout}>
      <FileRoutes />
    </Router>
  </MetaProvider>
);
`;
    expect(addMetaProvider(outside)).toEqual({ ok: true, text: outside });
  });

  it("refuses a root that is not an inline function returning JSX, with what to add by hand", () => {
    const app = (router: string, extra = "") => `import { Router } from "@solidjs/router";\n${extra}\nexport default () => ${router};\n`;
    expect(refused(app("<Router root={Layout}><FileRoutes /></Router>"))).toBe(
      "its <Router>'s root is `Layout`, not an inline function: wrap what your app's root layout returns in <MetaProvider>...</MetaProvider> (`import { MetaProvider } from \"@solidjs/meta\";`) by hand: the auth pages set their titles with <Title> from @solidjs/meta, and do not render without it",
    );
    expect(refused(app("<Router><FileRoutes /></Router>"))).toMatch(/^its <Router> has no root=\{\.\.\.\} layout: /);
    expect(refused(app("<Router root={(props) => props.children}><FileRoutes /></Router>"))).toMatch(/^its <Router>'s root function does not return JSX in one place: /);
    expect(refused(app("<Router root={(props) => { if (props.x) return <a />; return <b />; }} />"))).toMatch(/does not return JSX in one place/);
    expect(refused(app("<><Router root={(p) => <a />} /><Router root={(p) => <b />} /></>"))).toMatch(/^it renders <Router> more than once: /);
    expect(refused(`import { Router } from "somewhere-else";\nexport default () => <Router root={(p) => <a />} />;\n`)).toMatch(/^it renders no <Router> from @solidjs\/router: /);
    expect(refused(app("<Router root={(p) => <MetaProvider>{p.children}</MetaProvider>} />", 'import { MetaProvider } from "./meta";'))).toMatch(
      /^it has a MetaProvider that is not @solidjs\/meta's: /,
    );
  });

  it("refuses a file that does not parse, with where it breaks", () => {
    const result = addMetaProvider(`import { Router } from "@solidjs/router";\nexport default () => <Router root={(props) => <main>{props.children}</main>}>;\n`);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^it does not parse as TypeScript \(line \d+, column \d+: /), syntaxError: expect.objectContaining({ language: "TypeScript", line: expect.any(Number), column: expect.any(Number) }) });
  });
});
