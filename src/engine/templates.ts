/**
 * Reading the handlebars templates shipped in the package's `templates/` folder.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TemplateSource } from "../generators/templates.js";

// dist/engine/ and src/engine/ both sit two levels below the package root.
const TEMPLATES = fileURLToPath(new URL("../../templates/", import.meta.url));

export const packageTemplates: TemplateSource = (path) => readFileSync(TEMPLATES + path, "utf8");
