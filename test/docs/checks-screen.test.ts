import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/tmp.ts";

/** docs/checks.md's picture of the approval panel's Checks section, drawn from the binary by scripts/checks-screen.ts. */
test("checks-panel.svg: linked from docs/checks.md, drawn from the real panel over a failing required check", () => {
  expect(readFileSync(join(REPO_ROOT, "docs", "checks.md"), "utf8")).toContain("(images/checks-panel.svg)");
  const path = join(REPO_ROOT, "docs", "images", "checks-panel.svg");
  expect(existsSync(path)).toBe(true);
  const svg = readFileSync(path, "utf8");
  expect(svg).toContain('lengthAdjust="spacingAndGlyphs"');
  for (const s of ["Checks (c: output)", "blocks the commit", "check output", "approve"]) expect(svg).toContain(s);
});
