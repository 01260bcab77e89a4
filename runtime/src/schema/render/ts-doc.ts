/** The words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A doc comment for generated TypeScript: one line when it fits, else wrapped at about 100 columns. */
export function jsDoc(text: string, indent: string): string {
  const single = `${indent}/** ${text} */`;
  if (single.length <= 100) return single;
  const lines = wrapWords(text, 100 - indent.length - 3);
  return [`${indent}/**`, ...lines.map((each) => `${indent} * ${each}`), `${indent} */`].join("\n");
}
