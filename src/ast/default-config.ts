/**
 * The object a tool's config module exports, `export default defineConfig({...})`
 * or `export default {...}` (also through a variable), as drizzle.config.ts and
 * prisma.config.ts write it, and the literals in it. Only literals are read: a
 * value computed at run time is reported as unknown rather than guessed.
 */
import { Node, type ObjectLiteralExpression, type SourceFile } from "ts-morph";
import { parseOrSyntaxError, unwrap, type SourceText, type SyntaxErrorAt } from "./source.js";

export type DefaultConfigRead = { ok: true; config: ObjectLiteralExpression } | { ok: false; reason: string; syntaxError?: SyntaxErrorAt };

export function readDefaultConfig(entry: SourceText): DefaultConfigRead {
  const parsed = parseOrSyntaxError(entry);
  if ("syntaxError" in parsed) return { ok: false, reason: "it does not parse", syntaxError: parsed.syntaxError };
  const config = configObject(parsed.file);
  if (!config) return { ok: false, reason: "it has no `export default defineConfig({ ... })` whose object gatehouse can read" };
  return { ok: true, config };
}

function configObject(file: SourceFile): ObjectLiteralExpression | undefined {
  const assignment = file.getExportAssignment((e) => !e.isExportEquals());
  let value = unwrap(assignment?.getExpression());
  if (value && Node.isIdentifier(value)) value = unwrap(file.getVariableDeclaration(value.getText())?.getInitializer());
  if (value && Node.isCallExpression(value)) value = unwrap(value.getArguments()[0]);
  return value && Node.isObjectLiteralExpression(value) ? value : undefined;
}

/** The value of `name: ...` in the object; undefined when absent or not a plain property. */
export function property(object: ObjectLiteralExpression, name: string): Node | undefined {
  const found = object.getProperty(name);
  return found && Node.isPropertyAssignment(found) ? unwrap(found.getInitializer()) : undefined;
}

export function stringValue(node: Node | undefined): string | undefined {
  return node && Node.isStringLiteral(node) ? node.getLiteralValue() : node && Node.isNoSubstitutionTemplateLiteral(node) ? node.getLiteralValue() : undefined;
}

/** A string or an array of strings, as literals; undefined for anything else. */
export function stringList(node: Node): string[] | undefined {
  const one = stringValue(node);
  if (one !== undefined) return [one];
  if (!Node.isArrayLiteralExpression(node)) return undefined;
  const values = node.getElements().map((element) => stringValue(unwrap(element)));
  return values.every((value) => value !== undefined) ? (values as string[]) : undefined;
}
