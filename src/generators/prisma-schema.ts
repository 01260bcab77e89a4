/**
 * Reading a Prisma schema (`schema.prisma`, or the files of a schema folder):
 * its datasource (provider, and the env key of its URL), and the names its
 * models, views and enums take in the schema and in the database. Enough to
 * place the auth models and to see what they would collide with; not a full
 * parser (the Prisma CLI validates the schema when it migrates).
 */

export interface PrismaSchemaFacts {
  datasource?: { provider?: string; urlEnv?: string; url?: string };
  /** Models and views: their name in the schema, and their table (`@@map`, else the name). */
  models: { name: string; table: string }[];
  enums: string[];
}

const BLOCK = /^[ \t]*(model|view|enum|type|datasource|generator)[ \t]+(\w+)[ \t]*\{([\s\S]*?)^[ \t]*\}/gm;

export function readPrismaSchema(text: string): PrismaSchemaFacts {
  const facts: PrismaSchemaFacts = { models: [], enums: [] };
  for (const [, kind, name, body] of withoutComments(text).matchAll(BLOCK)) {
    if (kind === "model" || kind === "view") facts.models.push({ name: name!, table: /@@map\(\s*(?:name:\s*)?"([^"]+)"/.exec(body!)?.[1] ?? name! });
    else if (kind === "enum") facts.enums.push(name!);
    else if (kind === "datasource") {
      const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(body!)?.[1];
      const urlEnv = /^\s*url\s*=\s*env\(\s*"([^"]+)"\s*\)/m.exec(body!)?.[1];
      const url = /^\s*url\s*=\s*"([^"]*)"/m.exec(body!)?.[1];
      facts.datasource = { ...(provider ? { provider } : {}), ...(urlEnv ? { urlEnv } : {}), ...(url ? { url } : {}) };
    }
  }
  return facts;
}

/** `//` comments (and `///` doc comments) removed, outside strings: a URL in quotes keeps its `//`. */
function withoutComments(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        if (line[i] === '"' && line[i - 1] !== "\\") quoted = !quoted;
        else if (!quoted && line[i] === "/" && line[i + 1] === "/") return line.slice(0, i);
      }
      return line;
    })
    .join("\n");
}

/** The prefix the auth models take in a schema that already uses their names (most have a `User`): `AuthUser`, `AuthSession`, ... */
export const AUTH_MODEL_PREFIX = "Auth";

/**
 * The auth models with every model name prefixed, where a model is declared
 * and where a field has it as its type. Their tables (`@@map`), columns and
 * keys stay as they are: only the names the app's Prisma Client uses change.
 */
export function prefixedModels(models: string, prefix = AUTH_MODEL_PREFIX): string {
  const names = readPrismaSchema(models).models.map((model) => model.name);
  const renamed = (name: string) => (names.includes(name) ? `${prefix}${name}` : name);
  return models
    .replace(/^(model[ \t]+)(\w+)/gm, (_line, keyword: string, name: string) => `${keyword}${renamed(name)}`)
    .replace(/^([ \t]+\w+[ \t]+)([A-Z]\w*)(\[\]|\?)?(?=[ \t]|$)/gm, (_line, field: string, type: string, modifier = "") => `${field}${renamed(type)}${modifier}`);
}

/** The lines that open and close the auth models auth-init appends to a one-file schema. */
export const AUTH_MODELS_BEGIN = "// gatehouse: the auth tables of @gatehouse/runtime (begin). `auth doctor` compares this block with the installed runtime's orm/prisma file.";
export const AUTH_MODELS_END = "// gatehouse: the auth tables of @gatehouse/runtime (end)";

/** Where the marked block is: from its opening line to the end of its closing line; undefined when the text has none. */
function markedBlock(text: string): { begin: number; end: number } | undefined {
  const begin = text.indexOf(AUTH_MODELS_BEGIN);
  const end = text.indexOf(AUTH_MODELS_END);
  return begin === -1 || end < begin ? undefined : { begin, end: end + AUTH_MODELS_END.length };
}

/** The block of auth models in a schema file, as appended by auth-init; undefined when it has none. */
export function authModelsBlock(text: string): string | undefined {
  const block = markedBlock(text);
  return block && text.slice(block.begin + AUTH_MODELS_BEGIN.length, block.end - AUTH_MODELS_END.length).replace(/^\n/, "");
}

/** A schema file without the auth models auth-init appended to it. */
export function withoutAuthModels(text: string): string {
  const block = markedBlock(text);
  return block ? `${text.slice(0, block.begin)}${text.slice(block.end)}` : text;
}

/** The schema with the auth models appended between the markers, or the block there replaced by them. */
export function withAuthModels(text: string, models: string): string {
  const lines = `${AUTH_MODELS_BEGIN}\n${models.replace(/\s*$/, "\n")}${AUTH_MODELS_END}\n`;
  const block = markedBlock(text);
  if (block) return `${text.slice(0, block.begin)}${lines}${text.slice(block.end).replace(/^\n/, "")}`;
  const head = text.replace(/\s*$/, "");
  return `${head}${head ? "\n\n" : ""}${lines}`;
}
