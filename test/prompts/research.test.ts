import { afterEach, expect, test } from "bun:test";
import { renderPrompt } from "../../src/prompts/render.ts";
import { SessionFileInvalid } from "../../src/session/errors.ts";
import { removeDir } from "../helpers/tmp.ts";
import { caseFor, makeSession, options, type Fixture } from "./fixture.ts";

let f: Fixture;
afterEach(() => removeDir(f.root));

function state(research: Record<string, string>, web: Record<string, string>) {
  f.write("state.json", JSON.stringify({ phase: "planning", research_tasks: research, web_research_tasks: web }));
}

test("research handoff: done topics with a summary, sorted by folder, summary before detail", () => {
  f = makeSession();
  state({ zeta: "done", alpha: "done", pending: "dispatched", "no-summary": "done" }, { beta: "done" });
  f.write("03_research/code-zeta/summary.md", "ZETA-SUMMARY");
  f.write("03_research/code-alpha/summary.md", "ALPHA-SUMMARY");
  f.write("03_research/code-alpha/detail.md", "ALPHA-DETAIL");
  f.write("03_research/code-pending/summary.md", "PENDING-SUMMARY");
  f.write("03_research/code-no-summary/detail.md", "ORPHAN-DETAIL");
  f.write("03_research/web-beta/summary.md", "BETA-SUMMARY");
  const out = renderPrompt(options(f, caseFor("planner")));
  const order = ["ALPHA-SUMMARY", "ALPHA-DETAIL", "ZETA-SUMMARY", "BETA-SUMMARY"].map((m) => out.indexOf(m));
  expect(order.every((i) => i >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  expect(out).toContain('<file path="03_research/code-alpha/summary.md">\nALPHA-SUMMARY\n</file>');
  expect(out).toContain('<file path="03_research/web-beta/summary.md">');
  expect(out).not.toContain("PENDING-SUMMARY");
  expect(out).not.toContain("ORPHAN-DETAIL");
  expect(out).not.toContain("No research topics");
});

test("research handoff reaches architect, planner, change and coder prompts", () => {
  f = makeSession();
  state({ cache: "done" }, {});
  f.write("03_research/code-cache/summary.md", "CACHE-SUMMARY");
  for (const t of ["architect", "planner", "change", "coder", "coder-whole"]) expect(renderPrompt(options(f, caseFor(t)))).toContain("CACHE-SUMMARY");
});

test("no state.json or no done topics → a plain statement", () => {
  f = makeSession();
  expect(renderPrompt(options(f, caseFor("architect")))).toContain("No research topics have been completed for this session.");
});

test("a malformed state.json is an error naming the file and field", () => {
  f = makeSession();
  f.write("state.json", JSON.stringify({ research_tasks: { x: "finished" } }));
  const bad = (() => {
    try {
      renderPrompt(options(f, caseFor("architect")));
    } catch (e) {
      return e;
    }
  })();
  expect(bad).toBeInstanceOf(SessionFileInvalid);
  expect((bad as InstanceType<typeof SessionFileInvalid>).data).toMatchObject({ name: "state.json", problems: [{ path: "research_tasks.x" }] });
  expect((bad as Error).message).toStartWith('research_tasks.x: must be one of "dispatched", "done", got "finished"');
  f.write("state.json", "{ not json");
  expect(() => renderPrompt(options(f, caseFor("architect")))).toThrow(/JSON syntax error at line 1, column 3/);
});
