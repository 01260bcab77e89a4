/**
 * Puts the auth header (`<AuthHeader />` from `src/lib/auth-header.tsx`) in a
 * SolidStart app's root layout: as the first child of the JSX that the root of
 * `<Router root={(props) => ...}>` in `src/app.tsx` returns (the MetaProvider
 * auth-init wraps it in, or the app's own element), so it shows above every
 * page. The edit is a splice of the original text; the rest of the file keeps
 * its formatting byte for byte. Idempotent; a shape it cannot edit safely is
 * refused with what to add by hand.
 */
import { Node } from "ts-morph";
import { apply, importedName, jsxTagNames, newImportSplice, rootJsx, type Splice } from "./solid-start-meta.js";
import { doesNotParse, importQuote, parseOrSyntaxError, type EditResult } from "./source.js";

export const AUTH_HEADER = "AuthHeader";
const MODULE = "./lib/auth-header";

export function addAuthHeader(source: string): EditResult {
  const quote = importQuote(source);
  const importLine = `import { ${AUTH_HEADER} } from ${quote}${MODULE}${quote};`;
  const byHand = `add \`${importLine}\` and \`<${AUTH_HEADER} />\` at the top of your root layout by hand`;
  const parsed = parseOrSyntaxError({ path: "app.tsx", text: source });
  if ("syntaxError" in parsed) return doesNotParse(parsed.syntaxError);
  const { file } = parsed;
  const name = importedName(file, MODULE, AUTH_HEADER);
  if (name !== undefined && jsxTagNames(file).includes(name)) return { ok: true, text: source };

  const root = rootJsx(file);
  if (typeof root === "string") return { ok: false, reason: `${root}: ${byHand}` };
  if (!Node.isJsxElement(root) && !Node.isJsxFragment(root)) return { ok: false, reason: `its root layout is a single element with no children: ${byHand}` };

  const opening = Node.isJsxElement(root) ? root.getOpeningElement() : root.getOpeningFragment();
  const at = opening.getEnd();
  // On a line of its own, indented as the first child is; inline when the children are.
  const firstChild = root.getJsxChildren().find((child) => child.getText().trim() !== "");
  const gap = firstChild ? source.slice(at, firstChild.getStart()) : "";
  const element = `<${name ?? AUTH_HEADER} />`;
  const indent = gap.includes("\n") ? gap.slice(gap.lastIndexOf("\n") + 1) : undefined;
  const splices: Splice[] = [{ at, until: at, text: indent === undefined ? element : `\n${indent}${element}` }];
  if (name === undefined) splices.push(newImportSplice(file, importLine));
  return { ok: true, text: apply(source, splices) };
}
