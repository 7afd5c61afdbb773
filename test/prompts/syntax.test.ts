import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { isAgentmuxError, type AgentmuxError } from "../../src/errors.ts";
import { MAX_SHARED_DEPTH } from "../../src/prompts/expand.ts";
import { renderPrompt, renderText } from "../../src/prompts/render.ts";
import { removeDir } from "../helpers/tmp.ts";
import { caseFor, makeSession, options, type Fixture } from "./fixture.ts";

let f: Fixture;
afterEach(() => removeDir(f.root));

function failure(run: () => unknown): AgentmuxError {
  try {
    run();
  } catch (e) {
    if (isAgentmuxError(e)) return e;
    throw e;
  }
  throw new Error("expected an AgentmuxError");
}
const text = (source: string, template = "coder", extra = {}, fragments?: Record<string, string>) =>
  renderText(source, options(f, { ...caseFor(template), ...extra }), fragments);

describe("syntax", () => {
  test("braces, $ and unknown [[ forms are literal", () => {
    f = makeSession();
    const src = "a {b} ${c} $d [[nope]] [[ shared:x ]] [[placeholder:]] [[include:]] x";
    expect(text(src)).toBe(src);
  });

  test("placeholders come from built-ins and vars; include paths may contain placeholders", () => {
    f = makeSession();
    const out = text("[[placeholder:project_dir]]|[[placeholder:plan_index]]|[[include:04_planning/tasks_[[placeholder:plan_index]].md]]");
    expect(out).toBe(`${f.workDir}|2|<file path="04_planning/tasks_2.md">\n# Tasks: Token store\n- [ ] TASK2-MARKER write the store\n</file>`);
  });

  test("placeholder values are not re-expanded", () => {
    f = makeSession();
    expect(text("[[placeholder:plan_index]]", "coder", { vars: { plan_index: "[[include:state.json]]" } })).toBe("[[include:state.json]]");
  });

  test("include-optional of a missing file is empty", () => {
    f = makeSession();
    expect(text("<[[include-optional:nope/missing.md]]>")).toBe("<>");
  });

  test("shared fragments expand recursively", () => {
    f = makeSession();
    expect(text("[[shared:a]]", "coder", {}, { a: "A([[shared:b]])", b: "B [[placeholder:plan_index]]" })).toBe("A(B 2)");
  });
});

describe("errors name the template and the item", () => {
  test("unknown placeholder", () => {
    f = makeSession();
    const e = failure(() => renderPrompt(options(f, { ...caseFor("coder"), vars: {} })));
    expect(e.where).toBe('prompt template "coder"');
    expect(e.message).toContain("[[placeholder:plan_index]]");
  });

  test("missing include names the file", () => {
    f = makeSession();
    rmSync(join(f.sessionDir, "04_planning/plan_2.md"));
    const e = failure(() => renderPrompt(options(f, caseFor("coder"))));
    expect(e.where).toBe('prompt template "coder"');
    expect(e.message).toContain('"04_planning/plan_2.md"');
    expect(e.code).toBe("session");
  });

  test("missing plan in single-coder mode names the file", () => {
    f = makeSession();
    const e = failure(() => renderPrompt(options(f, { ...caseFor("coder-whole"), vars: { plan_indices: "1,2,3" } })));
    expect(e.message).toContain('"04_planning/plan_3.md"');
    const bad = failure(() => renderPrompt(options(f, { ...caseFor("coder-whole"), vars: { plan_indices: "1,x" } })));
    expect(bad.message).toContain('vars.plan_indices must hold positive integers, got "x"');
  });

  test("shared recursion beyond the depth limit names the chain", () => {
    f = makeSession();
    const e = failure(() => text("[[shared:loop]]", "planner", {}, { loop: "again [[shared:loop]]" }));
    expect(e.where).toBe('prompt template "planner"');
    expect(e.message).toContain(`deeper than ${MAX_SHARED_DEPTH}`);
    expect(e.message).toContain("loop → loop");
    // exactly the limit is fine
    const chain: Record<string, string> = {};
    for (let i = 1; i <= MAX_SHARED_DEPTH; i++) chain[`f${i}`] = i === MAX_SHARED_DEPTH ? "end" : `[[shared:f${i + 1}]]`;
    expect(text("[[shared:f1]]", "planner", {}, chain)).toBe("end");
  });

  test("unknown shared fragment", () => {
    f = makeSession();
    const e = failure(() => text("[[shared:ghost]]", "architect", {}, {}));
    expect(e.message).toContain("[[shared:ghost]]");
    expect(e.where).toBe('prompt template "architect"');
  });

  test("a tool the role may not call is refused (the architect cannot be told to call submit_done)", () => {
    f = makeSession();
    const e = failure(() => text("call [[tool:submit_done]]", "architect"));
    expect(e.message).toContain('"submit_done"');
    expect(e.message).toContain('role "architect"');
    expect(failure(() => text("[[tool:submit_everything]]")).message).toContain("[[tool:submit_everything]]");
  });

  test("include paths may not leave the session folder", () => {
    f = makeSession();
    expect(failure(() => text("[[include:../../config.yaml]]")).message).toContain("leaves the session folder");
  });

  test("unknown template", () => {
    f = makeSession();
    const e = failure(() => renderPrompt(options(f, { ...caseFor("coder"), template: "docs" })));
    expect(e.where).toBe('prompt template "docs"');
  });
});
