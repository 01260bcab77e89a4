/**
 * Just enough HTML reading for the pages an authorization server renders: forms with hidden
 * inputs, links, and the visible text of an error page. Regex-based on purpose: the markup
 * comes from oidc-provider's fixed templates (or our own rogue IdP), not from the open web.
 */

/** A `<form>` with its resolved action and the name/value of every named `<input>`. */
export interface ParsedForm {
  action: string;
  method: string;
  fields: Record<string, string>;
}

/** Every form of the page, actions resolved against `pageUrl`. */
export function parseForms(html: string, pageUrl: URL): ParsedForm[] {
  const forms: ParsedForm[] = [];
  for (const [, formAttributes = "", inner = ""] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attributes = parseAttributes(formAttributes);
    const fields: Record<string, string> = {};
    for (const [, inputAttributes = ""] of inner.matchAll(/<input\b([^>]*)>/gi)) {
      const input = parseAttributes(inputAttributes);
      if (input.name !== undefined) fields[input.name] = input.value ?? "";
    }
    forms.push({
      action: new URL(attributes.action ?? pageUrl.href, pageUrl).href,
      method: (attributes.method ?? "get").toLowerCase(),
      fields,
    });
  }
  return forms;
}

/** Every `<a href>` of the page, resolved against `pageUrl`. */
export function parseLinks(html: string, pageUrl: URL): string[] {
  return [...html.matchAll(/<a\b([^>]*)>/gi)]
    .map(([, attributes = ""]) => parseAttributes(attributes).href)
    .filter((href): href is string => href !== undefined)
    .map((href) => new URL(href, pageUrl).href);
}

/** The page's text without markup, styles or scripts, whitespace collapsed (for error messages). */
export function visibleText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(style|script|title)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}

function parseAttributes(source: string): Record<string, string | undefined> {
  const attributes: Record<string, string | undefined> = {};
  for (const [, name = "", doubleQuoted, singleQuoted, bare] of source.matchAll(
    /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
  )) {
    const raw = doubleQuoted ?? singleQuoted ?? bare;
    attributes[name.toLowerCase()] = raw === undefined ? "" : decodeEntities(raw);
  }
  return attributes;
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}
