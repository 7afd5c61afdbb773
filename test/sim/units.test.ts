import { expect, test } from "bun:test";
import { AgentmuxError } from "../../src/errors.ts";
import { parseScenario } from "../../src/sim/scenario.ts";
import { KeyDecoder } from "../../src/sim/terminal/keys.ts";
import { view, inputText } from "../../src/sim/terminal/screen.ts";
import { moduleSlug, requestLine } from "../../src/sim/naming.ts";
import { promptPathIn, taskFor } from "../../src/sim/tasks/route.ts";

test("KeyDecoder: a bracketed paste split across chunks is one paste event; keys around it decode", () => {
  const d = new KeyDecoder();
  const events = [
    ...d.feed("ab\x1b[20"),
    ...d.feed("0~hello\rwor"),
    ...d.feed("ld\x1b[20"),
    ...d.feed("1~\r\x7f\x1b[A\x03"),
  ];
  expect(events).toEqual([
    { t: "text", s: "ab" },
    { t: "paste", s: "hello\rworld" },
    { t: "enter" },
    { t: "backspace" },
    { t: "ctrl-c" },
  ]);
});

test("parseScenario: switches, values, short reviewer names; bad input names the variable", () => {
  expect(parseScenario("parallel, reviewers=logic+expert,slow_start=250,crash=coder")).toEqual({
    parallel: true,
    reviewers: ["reviewer_logic", "reviewer_expert"],
    slow_start: 250,
    crash: "coder",
  });
  expect(parseScenario("")).toEqual({});
  for (const bad of ["unknown_switch", "slow_start=soon", "reviewers=logic+nobody"]) {
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
