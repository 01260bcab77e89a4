/**
 * A minimal SolidStart 2 app (Vite + Nitro) for an empty folder, as a Plan of new
 * files. SolidStart's own scaffolder (`create-solid`) downloads its templates from
 * the internet, so the app comes from `templates/solid-start-app/` instead, pinned
 * to the versions this repository tests.
 */
import { addNewFile, emptyPlan, type Plan } from "../../plan/plan.js";
import { render, type TemplateSource } from "../templates.js";

const FILES: readonly { path: string; template: string }[] = [
  "package.json",
  "vite.config.ts",
  "tsconfig.json",
  "src/app.tsx",
  "src/entry-client.tsx",
  "src/entry-server.tsx",
  "src/global.d.ts",
  "src/routes/index.tsx",
].map((path) => ({ path, template: `solid-start-app/${path}.hbs` }));

export function planSolidStartApp(folderName: string, templates: TemplateSource): Plan {
  const plan = emptyPlan();
  const data = { name: packageName(folderName) };
  // npm leaves files named .gitignore out of published packages: the template has another name.
  for (const { path, template } of [...FILES, { path: ".gitignore", template: "solid-start-app/gitignore.hbs" }]) {
    addNewFile(plan, path, null, render(templates, template, data), "");
  }
  return plan;
}

/** The folder's name as an npm package name: lowercase, and only the characters npm allows. */
export function packageName(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name || "solid-start-app";
}
