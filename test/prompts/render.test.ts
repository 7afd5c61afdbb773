import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { PROMPT_REFERENCE, renderPrompt } from "../../src/prompts/render.ts";
import { promptPathIn } from "../../src/sim/tasks/route.ts";
import { TEMPLATE_NAMES } from "../../src/prompts/templates.ts";
import { removeDir } from "../helpers/tmp.ts";
import { CASES, caseFor, makeSession, options, TEXT, type Fixture } from "./fixture.ts";

let f: Fixture;
afterEach(() => removeDir(f.root));
const render = (template: string, extra = {}) => renderPrompt(options(f, caseFor(template), extra));

describe("every template", () => {
  test("the fixture cases cover every template name", () => {
    f = makeSession();
    expect(CASES.map((c) => c.template).sort()).toEqual([...TEMPLATE_NAMES].sort());
  });

  for (const c of CASES) {
    test(`${c.template} renders with no unresolved [[…]] token`, () => {
      f = makeSession();
      const out = renderPrompt(options(f, c));
      expect(out.match(/\[\[(shared|placeholder|include|include-optional|tool):/g)).toBeNull();
      expect(out.length).toBeGreaterThan(500);
      // the CLI-specific tool name is used, never a bare tool name in call instructions
      for (const m of out.matchAll(/`(mcp__agentmux__)?(submit_[a-z_]+|research_dispatch_[a-z]+)`/g)) expect(m[1]).toBe("mcp__agentmux__");
    });
  }
});

describe("#31: a large request", () => {
  test("a 1 MB request and an architecture quoting it are named in every prompt, not copied: no prompt is even 200 KB", () => {
    f = makeSession();
    const request = "# Requirements\n\n" + "Build the thing. ".repeat(65_000);
    f.write("requirements.md", request);
    f.write("02_architecting/architecture.md", "# Arch\n\n" + request);
    for (const c of CASES) {
      const out = renderPrompt(options(f, c));
      expect({ template: c.template, small: out.length < 200 * 1024 }).toEqual({ template: c.template, small: true });
    }
    const architect = render("architect");
    expect(architect).toContain(
      `<file path="requirements.md" size="1.0 MB">\n(too large to include here: read it from ${join(f.sessionDir, "requirements.md")})\n</file>`.replace(
        "1.0 MB",
        "1.1 MB",
      ),
    );
    // a small file is still inlined
    f.write("requirements.md", "# Requirements\n\nsmall REQ-MARKER\n");
    expect(render("architect")).toContain("small REQ-MARKER");
  });
});

describe("phase prompts", () => {
  test("context names the session folder, work dir, roles and the state.json rule", () => {
    f = makeSession();
    const out = render("context");
    expect(out).toContain(f.sessionDir);
    expect(out).toContain(f.workDir);
    expect(out).toContain("20260101-120000-rate-limiting");
    expect(out).toContain("`reviewer_expert`");
    expect(out).toMatch(/Never edit `state\.json`/);
  });

  test("coder prompt inlines plan and tasks, names done_N.json and the CLI's submit tool", () => {
    f = makeSession();
    const out = render("coder");
    expect(out).toContain(`<file path="04_planning/plan_2.md">\n${TEXT.plan2}\n</file>`);
    expect(out).toContain(`<file path="04_planning/tasks_2.md">\n${TEXT.tasks2}\n</file>`);
    expect(out).not.toContain("PLAN1-MARKER");
    expect(out).toContain("06_implementation/done_2.json");
    expect(out).toContain("`mcp__agentmux__submit_done` with `subplan_index: 2`");
    expect(out).toContain(f.workDir);
    expect(out).toContain("DESIGN-MARKER");
    // the artifact is written before the tool call
    expect(out.indexOf("Write `06_implementation/done_2.json`")).toBeLessThan(out.indexOf("Call `mcp__agentmux__submit_done`"));
  });

  test("the tool name follows the CLI's naming", () => {
    f = makeSession();
    const out = render("coder", { toolName: (t: string) => `agentmux_${t}` });
    expect(out).toContain("`agentmux_submit_done` with `subplan_index: 2`");
    expect(out).not.toContain("mcp__agentmux__");
  });

  test("coder-whole inlines every plan with its own submit step, and the sub-agent tool when given", () => {
    f = makeSession();
    const out = render("coder-whole", { subAgentTool: "Task" });
    for (const m of ["PLAN1-MARKER", "PLAN2-MARKER", "TASK1-MARKER", "TASK2-MARKER"]) expect(out).toContain(m);
    expect(out).toContain("`06_implementation/done_1.json`, then call `mcp__agentmux__submit_done` with `subplan_index: 1`");
    expect(out).toContain("`06_implementation/done_2.json`, then call `mcp__agentmux__submit_done` with `subplan_index: 2`");
    expect(out).toContain("sub-agent with `Task`");
    expect(render("coder-whole")).not.toContain("sub-agent with");
  });

  test("the change prompt contains the requested changes inline", () => {
    f = makeSession();
    const out = render("change");
    expect(out).toContain(`<file path="08_completion/changes.md">\n${TEXT.changes}\n</file>`);
    expect(out).toContain("`mcp__agentmux__submit_plan`");
    expect(out).toContain("PLAN-OVERVIEW-MARKER");
  });

  test("review-followup inlines the previous findings and the previous review of that role", () => {
    f = makeSession();
    const out = render("review-followup");
    expect(out).toContain(`<file path="07_review/fix_request.md">\n${TEXT.fixRequest}\n</file>`);
    expect(out).toContain('<file path="07_review/review_1_reviewer_logic.md">');
    expect(out).toContain("07_review/review_reviewer_logic.yaml");
    expect(out).toContain("`mcp__agentmux__submit_review` with `role: reviewer_logic`");
    expect(out).toMatch(/new agent/);
  });

  test("reviewers write their own YAML, must not modify files, and call submit_review with their role", () => {
    f = makeSession();
    for (const role of ["reviewer_logic", "reviewer_quality", "reviewer_expert"]) {
      const out = render(role);
      expect(out).toContain(`07_review/review_${role}.yaml`);
      expect(out).toContain(`\`mcp__agentmux__submit_review\` with \`role: ${role}\``);
      expect(out).toContain("Do not modify project files");
      expect(out).toContain("ARCH-MARKER");
    }
  });

  test("architect nominates reviewers through submit_architecture; PM and planner use the ask tool", () => {
    f = makeSession();
    const arch = render("architect");
    expect(arch).toContain("02_architecting/architecture.md");
    for (const r of ["reviewer_logic", "reviewer_quality", "reviewer_expert"]) expect(arch).toContain(`\`${r}\``);
    expect(arch).toContain("`mcp__agentmux__submit_architecture`");
    for (const t of ["product-manager", "architect", "planner", "change"]) expect(render(t)).toContain("the `AskUserQuestion` tool");
    expect(render("planner", { askTool: null })).toContain("a direct question in your reply");
  });

  test("fix and summary prompts", () => {
    f = makeSession();
    const fix = render("fix");
    expect(fix).toContain("FIX-REQUEST-MARKER");
    expect(fix).toContain("06_implementation/done_1.json");
    expect(fix).toContain("`mcp__agentmux__submit_done` with `subplan_index: 1`");
    const summary = render("summary");
    expect(summary).toContain("08_completion/summary.md");
    for (const h of ["What was implemented", "Key decisions", "Deviations from plan"]) expect(summary).toContain(h);
    expect(summary).toContain("REVIEW-MD-MARKER");
  });

  test("researchers get their request and research dir, and the submit call with topic and type", () => {
    f = makeSession();
    const web = render("web-researcher");
    expect(web).toContain('<file path="03_research/web-auth-flow/request.md">');
    expect(web).toContain(`${f.sessionDir}/03_research/web-auth-flow/`);
    expect(web).toContain("`mcp__agentmux__submit_research_done` with `topic: auth-flow` and\n`type: web`");
    expect(web).toMatch(/never ask questions/);
    expect(render("code-researcher")).toContain("`type: code`");
  });

  test("session file text stays literal: braces, $ and [[ inside included files are not expanded", () => {
    f = makeSession();
    f.write("08_completion/changes.md", "Use ${HOME} and {name}; keep [[placeholder:nope]] and [[include:state.json]] as text");
    const out = render("change");
    expect(out).toContain("Use ${HOME} and {name}; keep [[placeholder:nope]] and [[include:state.json]] as text");
  });

  test("a missing designer file is optional for the coder but plan files are required", () => {
    f = makeSession();
    rmSync(join(f.sessionDir, "05_design/design.md"));
    expect(render("coder")).not.toContain("DESIGN-MARKER");
  });
});

test("PROMPT_REFERENCE is one line that starts with a plain word and quotes the path", () => {
  const line = PROMPT_REFERENCE("/tmp/s/06_implementation/coder_prompt_1.md");
  expect(line).toBe('Read and follow the instructions in "/tmp/s/06_implementation/coder_prompt_1.md"');
  expect(line).not.toContain("\n");
  expect(line[0]).toMatch(/[A-Za-z]/);
  // a path with spaces, quotes, a newline and unicode stays one line and parses back exactly
  const odd = '/tmp/a b/it\'s "q"\nx 日本 #{x}/coder_prompt_1.md';
  const quoted = PROMPT_REFERENCE(odd);
  expect(quoted).not.toContain("\n");
  expect(promptPathIn(quoted)).toBe(odd);
});
