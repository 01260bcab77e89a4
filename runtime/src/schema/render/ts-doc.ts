/** A doc comment for generated TypeScript: one line when it fits, else wrapped at about 100 columns. */
export function jsDoc(text: string, indent: string): string {
  const single = `${indent}/** ${text} */`;
  if (single.length <= 100) return single;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent.length + 3 + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return [`${indent}/**`, ...lines.map((each) => `${indent} * ${each}`), `${indent} */`].join("\n");
}
