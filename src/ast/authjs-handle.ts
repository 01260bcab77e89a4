/**
 * `@auth/sveltekit` before 1.0 returned the `handle` hook itself
 * (`export const handle = SvelteKitAuth({...})`); 1.x and gatehouse return
 * `{ handle, signIn, signOut }`. A moved file written the old way gets the
 * destructuring (`export const { handle } = SvelteKitAuth({...})`), under the
 * name the app chose. Text in, text out; a file without the old form is returned
 * as it is.
 */
import { Node, SyntaxKind } from "ts-morph";
import { parse, type SourceText } from "./source.js";

const SVELTEKIT_MODULE = "@gatehouse/runtime/sveltekit";

export function destructureOldHandle(entry: SourceText): string {
  if (!entry.text.includes("SvelteKitAuth")) return entry.text;
  const parsed = parse(entry);
  if (!parsed) return entry.text;
  const { file } = parsed;
  const local = file
    .getImportDeclarations()
    .filter((declaration) => declaration.getModuleSpecifierValue() === SVELTEKIT_MODULE)
    .flatMap((declaration) => declaration.getNamedImports())
    .find((named) => named.getName() === "SvelteKitAuth");
  if (!local) return entry.text;
  const localName = local.getAliasNode()?.getText() ?? "SvelteKitAuth";

  const edits: { start: number; end: number; text: string }[] = [];
  for (const variable of file.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
    const name = variable.getNameNode();
    const call = variable.getInitializer();
    if (!Node.isIdentifier(name) || !Node.isCallExpression(call) || call.getExpression().getText() !== localName) continue;
    edits.push({ start: name.getStart(), end: name.getEnd(), text: name.getText() === "handle" ? "{ handle }" : `{ handle: ${name.getText()} }` });
  }
  let text = entry.text;
  for (const edit of edits.reverse()) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}
