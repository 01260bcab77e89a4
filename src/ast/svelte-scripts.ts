/**
 * The `<script>` blocks of a `.svelte` file, so the TypeScript edits can run on
 * their code and the result be put back in place; the markup is never touched.
 */

export interface SvelteScript {
  /** Where the code between `<script ...>` and `</script>` starts and ends in the file. */
  start: number;
  end: number;
  code: string;
  /** 0-based line of `start` in the file, to report lines in the file's terms. */
  lineOffset: number;
}

const SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script\s*>/g;

export function svelteScripts(text: string): SvelteScript[] {
  const scripts: SvelteScript[] = [];
  for (const match of text.matchAll(SCRIPT)) {
    const start = match.index + match[0].indexOf(">") + 1;
    const code = match[1]!;
    scripts.push({ start, end: start + code.length, code, lineOffset: text.slice(0, start).split("\n").length - 1 });
  }
  return scripts;
}

/** The file with each script's code replaced (a replacement per script, in order). */
export function replaceScripts(text: string, scripts: readonly SvelteScript[], codes: readonly string[]): string {
  let out = text;
  for (let i = scripts.length - 1; i >= 0; i--) out = out.slice(0, scripts[i]!.start) + codes[i]! + out.slice(scripts[i]!.end);
  return out;
}
