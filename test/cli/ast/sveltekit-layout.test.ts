/**
 * The root layout edit (`src/routes/+layout.svelte`) as input/output fixtures,
 * each also run twice: the header's import and element are added, nothing else
 * of the layout changes; a layout it cannot place them in is left alone.
 */
import { describe, expect, it } from "vitest";
import { addAuthHeader } from "../../../src/ast/sveltekit-layout.js";

function edited(source: string): string {
  const result = addAuthHeader(source);
  if (!result.ok) throw new Error(result.reason);
  expect(addAuthHeader(result.text)).toEqual({ ok: true, text: result.text });
  return result.text;
}

/** The layout `sv create --template minimal` writes. */
const SV_MINIMAL = `<script lang="ts">
\timport favicon from '$lib/assets/favicon.svg';

\tlet { children } = $props();
</script>

<svelte:head>
\t<link rel="icon" href={favicon} />
</svelte:head>

{@render children()}
`;

describe("addAuthHeader", () => {
  it("sv's minimal layout: the import after the last one, the header right above the children", () => {
    expect(edited(SV_MINIMAL)).toBe(`<script lang="ts">
\timport favicon from '$lib/assets/favicon.svg';
\timport AuthHeader from '$lib/AuthHeader.svelte';

\tlet { children } = $props();
</script>

<svelte:head>
\t<link rel="icon" href={favicon} />
</svelte:head>

<AuthHeader />
{@render children()}
`);
  });

  it("children inside the app's own markup: the header goes above the top-level element that holds them, indentation and quotes kept", () => {
    const input = `<script>
    import "../app.css";
    import Nav from "./Nav.svelte";
    let { children } = $props();
</script>

<div class="app">
    <Nav />
    <main>{@render children?.()}</main>
</div>
`;
    expect(edited(input)).toBe(`<script>
    import "../app.css";
    import Nav from "./Nav.svelte";
    import AuthHeader from "$lib/AuthHeader.svelte";
    let { children } = $props();
</script>

<AuthHeader />
<div class="app">
    <Nav />
    <main>{@render children?.()}</main>
</div>
`);
  });

  it("a script without imports gets the import first; a layout without a script gets one", () => {
    expect(edited(`<script lang="ts">\n\tlet { children } = $props();\n</script>\n\n{@render children()}\n`)).toBe(
      `<script lang="ts">\n\timport AuthHeader from '$lib/AuthHeader.svelte';\n\n\tlet { children } = $props();\n</script>\n\n<AuthHeader />\n{@render children()}\n`,
    );
    expect(edited(`{#if true}\n\t{@render children()}\n{/if}\n`)).toBe(`<script>\n\timport AuthHeader from '$lib/AuthHeader.svelte';\n</script>\n\n<AuthHeader />\n{#if true}\n\t{@render children()}\n{/if}\n`);
  });

  it("a layout with the header already, wherever the user put it, is left as it is", () => {
    const placed = `<script lang="ts">\n\timport AuthHeader from '$lib/AuthHeader.svelte';\n\tlet { children } = $props();\n</script>\n\n<nav><AuthHeader /></nav>\n{@render children()}\n`;
    expect(addAuthHeader(placed)).toEqual({ ok: true, text: placed });
  });

  it("a layout that does not parse is refused with where it breaks; one that never renders children, with what to add by hand", () => {
    const broken = addAuthHeader(`<script lang="ts">\n\tlet { children } = $props();\n</script>\n\n<div>\n{@render children()}\n`);
    expect(broken).toEqual({
      ok: false,
      reason: expect.stringMatching(/^it does not parse as Svelte \(line 5, column 1: /),
      syntaxError: { language: "Svelte", line: 5, column: 1, message: "`<div>` was left open" },
    });
    const slotless = addAuthHeader(`<h1>Hello</h1>\n`);
    expect(slotless).toEqual({ ok: false, reason: expect.stringContaining("it does not render `children`") });
  });
});
