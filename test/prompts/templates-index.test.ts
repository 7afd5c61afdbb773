import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SHARED_FRAGMENTS, TEMPLATE_FILES, TEMPLATE_NAMES, templateFile } from "../../src/prompts/templates.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

const ASSETS = join(REPO_ROOT, "assets", "prompts");
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [relative(ASSETS, join(dir, e.name))]));

test("every file in assets/prompts is in the embedded index, and vice versa, with the same text", () => {
  const files = walk(ASSETS).sort();
  expect(Object.keys(TEMPLATE_FILES).sort()).toEqual(files);
  for (const f of files) expect(TEMPLATE_FILES[f]).toBe(readFileSync(join(ASSETS, f), "utf8"));
});

test("every template name maps to an indexed file; every [[shared:…]] used exists", () => {
  for (const name of TEMPLATE_NAMES) expect(TEMPLATE_FILES[templateFile(name)!]).toBeDefined();
  for (const text of Object.values(TEMPLATE_FILES))
    for (const m of text.matchAll(/\[\[shared:([A-Za-z0-9_-]+)\]\]/g)) expect(SHARED_FRAGMENTS[m[1]!]).toBeDefined();
});
