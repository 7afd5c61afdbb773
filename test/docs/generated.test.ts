import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { configRows } from "../../src/onboarding/docs/configuration-doc.ts";
import { SESSION_FILES } from "../../src/protocol/files.ts";
import { TOOLS, WORKFLOW_EVENTS } from "../../src/schema/catalog.ts";
import { F } from "../../src/protocol/paths.ts";
import { PHASE_MOVES, START_PHASES } from "../../src/schema/moves.ts";
import { GENERATED_DOCS } from "../../scripts/gen-docs.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

const doc = (name: string) => readFileSync(join(REPO_ROOT, "docs", name), "utf8");

for (const [name, render] of Object.entries(GENERATED_DOCS)) {
  test(`docs/${name} is current (run: bun scripts/gen-docs.ts)`, () => {
    expect(doc(name)).toBe(render());
  });
}

test("every config key is documented with a type and a description", () => {
  const rows = configRows();
  expect(rows.length).toBeGreaterThan(50);
  expect(rows.filter((r) => !r.description).map((r) => r.key)).toEqual([]);
  const text = doc("configuration.md");
  for (const key of ["defaults.completion.skip_final_approval", "github.branch_prefix", "providers.<name>.submit.delay_ms", "roles.<role>.model"]) {
    expect(text).toContain(`| \`${key}\` |`);
  }
  expect(text).toContain("| `github.draft` | boolean | `true` |");
  for (const p of ["claude", "codex", "gemini", "opencode", "copilot", "qwen", "sim"]) expect(text).toContain(`| \`${p}\` |`);
});

test("protocol.md draws every allowed phase move of src/schema/moves.ts as a Mermaid state diagram", () => {
  const text = doc("protocol.md");
  const diagram = /```mermaid\nstateDiagram-v2\n([\s\S]*?)\n```/.exec(text)?.[1] ?? "";
  for (const m of PHASE_MOVES) expect(diagram).toMatch(new RegExp(`^  ${m.from} --> ${m.to}: .*\\b${m.event}\\b`, "m"));
  for (const p of START_PHASES) expect(diagram).toContain(`  [*] --> ${p.phase}: feature_created`);
  expect(diagram).not.toContain(";"); // a statement separator in Mermaid
});

test("protocol.md covers every session file, workflow event and MCP tool", () => {
  const text = doc("protocol.md");
  // every protocol path has a registry entry, and every entry is in the layout table
  for (const key of Object.keys(F)) expect(Object.keys(SESSION_FILES)).toContain(key);
  for (const f of Object.values(SESSION_FILES)) expect(text).toContain(`| \`${f.path}\` | ${f.syntax} |`);
  for (const e of Object.keys(WORKFLOW_EVENTS)) expect(text).toContain(`| \`${e}\` |`);
  for (const t of TOOLS) expect(text).toContain(`| \`${t}\` |`);
  expect(text).toContain("| `implementation_active_plan_ids` |");
  expect(text).toContain("| `exclude_files` |");
});
