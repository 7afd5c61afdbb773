import { expect, test } from "bun:test";
import { AgentmuxError } from "../../src/errors.ts";
import { parseScenario } from "../../src/sim/scenario.ts";
import { KeyDecoder } from "../../src/sim/terminal/keys.ts";
import { view, inputText } from "../../src/sim/terminal/screen.ts";
import { moduleSlug, requestLine } from "../../src/sim/naming.ts";
import { promptPathIn, taskFor } from "../../src/sim/tasks/route.ts";
import { assertValidPlan, defaultPlan } from "../../src/sim/tasks/plan-builder.ts";

test("KeyDecoder: a bracketed paste split across chunks is one paste event; keys around it decode", () => {
  const d = new KeyDecoder();
  const events = [...d.feed("ab\x1b[20"), ...d.feed("0~hello\rwor"), ...d.feed("ld\x1b[20"), ...d.feed("1~\r\x7f\x1b[A\x03")];
  expect(events).toEqual([{ t: "text", s: "ab" }, { t: "paste", s: "hello\rworld" }, { t: "enter" }, { t: "backspace" }, { t: "ctrl-c" }]);
});

test("parseScenario: switches, values, short reviewer names; bad input names the variable", () => {
  expect(parseScenario("parallel, reviewers=logic+expert,slow_start=250,crash=coder")).toEqual({
    parallel: true,
    reviewers: ["reviewer_logic", "reviewer_expert"],
    slow_start: 250,
    crash: "coder",
  });
  expect(parseScenario("")).toEqual({});
  expect(parseScenario("coders=4")).toEqual({ coders: 4 });
  for (const bad of ["unknown_switch", "slow_start=soon", "reviewers=logic+nobody", "coders=1", "coders=many"]) {
    let err: unknown;
    try {
      parseScenario(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AgentmuxError);
    expect((err as AgentmuxError).where).toBe("AGENTMUX_SIM_SCENARIO");
  }
});

test("parseScenario: a role switch names a known role or agent key; a mistyped or missing role is an error that says what to write", () => {
  expect(parseScenario("crash_once=coder:1,stall=code-researcher,ask=reviewer_logic")).toEqual({
    crash_once: "coder:1",
    stall: "code-researcher",
    ask: "reviewer_logic",
  });
  const problem = (text: string) => {
    try {
      parseScenario(text);
    } catch (e) {
      return (e as AgentmuxError).message;
    }
    return "accepted";
  };
  // a mistyped role was accepted and the scenario silently never fired
  expect(problem("forget_submit=coderr")).toContain('forget_submit: unknown role "coderr"');
  expect(problem("rate_limit=planer")).toContain("architect, planner");
  expect(problem("forget_submit")).toContain("forget_submit needs a role: forget_submit=<role>");
});

test("view: header first, status on the last row, input box above it; long input becomes a placeholder", () => {
  const frame = view({ mode: "main", role: "coder", workDir: "/w", transcript: ["one", "two"], input: "hi", busy: true }, 40, 10);
  expect(frame).toContain("\x1b[1;1H\x1b[1msim agent · coder");
  expect(frame).toContain("\x1b[10;1H[sim] working");
  expect(frame).toContain("\x1b[9;1H› hi");
  expect(inputText("x".repeat(1000), 40, 6)).toBe("› [Pasted text: 1000 chars]");
});

test("naming: the module slug comes from the request, skipping filler words and generic headings", () => {
  expect(requestLine("# Requirements\n\nAdd a greeting helper\n")).toBe("Add a greeting helper");
  expect(moduleSlug("Add a greeting helper")).toBe("greeting");
  expect(moduleSlug("Implement rate limiting for the API")).toBe("rate");
  expect(moduleSlug("")).toBe("feature");
});

test("route: tasks come from session-relative prompt paths only", () => {
  expect(taskFor("06_implementation/coder_prompt_12.md", "")?.name).toBe("coder 12");
  expect(taskFor("07_review/review_expert_prompt.md", "")?.name).toBe("reviewer_expert");
  expect(taskFor("03_research/web-auth-flow/prompt.md", "")?.name).toBe("researcher web-auth-flow");
  expect(taskFor("07_review/review_other_prompt.md", "")).toBeNull();
  expect(taskFor("notes.md", "")).toBeNull();
  expect(promptPathIn("Read and follow the instructions in /a/b/x.md")).toBe("/a/b/x.md");
  expect(promptPathIn('Read and follow the instructions in "/a b/it\'s \\"q\\"/x.md"')).toBe('/a b/it\'s "q"/x.md');
  expect(promptPathIn('Research on t is complete. Read "/s p/03_research/code-t/summary.md" and continue.')).toBe("/s p/03_research/code-t/summary.md");
  expect(promptPathIn("Research on t is complete.")).toBeNull();
});

test("defaultPlan with coders=4: subplans 1–4 in one parallel group on disjoint files, then the entry point depending on all four", () => {
  const plan = defaultPlan("greeting", "Add a greeting", { coders: 4 });
  assertValidPlan(plan);
  expect(plan.groups.map((g) => [g.mode, g.plans.map((p) => p.index)])).toEqual([
    ["parallel", [1, 2, 3, 4]],
    ["serial", [5]],
  ]);
  const files = plan.subplans.slice(0, 4).flatMap((s) => s.owned_files);
  expect(new Set(files).size).toBe(8);
  expect(plan.subplans[4]!.dependencies).toEqual(["subplan 1", "subplan 2", "subplan 3", "subplan 4"]);
  expect(defaultPlan("greeting", "Add a greeting", { parallel: true }).groups[0]!.plans.map((p) => p.index)).toEqual([1, 2]);
});
