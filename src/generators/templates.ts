/**
 * Rendering the handlebars templates of new files. Templates hold code, not HTML:
 * nothing is escaped, and a variable the data lacks is an error (a typo in a
 * template must fail the tests, not print an empty string into someone's app).
 */
import Handlebars from "handlebars";

/** Reads a template's text by its path under `templates/` (the engine supplies it). */
export type TemplateSource = (path: string) => string;

export type TemplateData = Record<string, unknown>;

const compiled = new Map<string, HandlebarsTemplateDelegate>();

export function render(source: TemplateSource, path: string, data: TemplateData): string {
  let template = compiled.get(path);
  if (!template) {
    template = Handlebars.compile(source(path), { noEscape: true, strict: true });
    compiled.set(path, template);
  }
  return template(data);
}
