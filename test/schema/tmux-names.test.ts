import { expect, test } from "bun:test";
import { isTmuxSessionNameOf, socketNameProblem, tmuxSessionName, TMUX_NAME_TRIES } from "../../src/schema/tmux-names.ts";

test("a run's tmux session: agentmux-<id>, then agentmux-<id>-2… when another project's run holds the name", () => {
  expect(tmuxSessionName("20261123-101500-add-x")).toBe("agentmux-20261123-101500-add-x");
  expect(tmuxSessionName("fix", 2)).toBe("agentmux-fix-2");
  for (let n = 1; n <= TMUX_NAME_TRIES; n++) expect(isTmuxSessionNameOf("fix", tmuxSessionName("fix", n))).toBe(true);
});

test("state.json (agent-writable) cannot name any other tmux session as the run's", () => {
  for (const name of [
    "agentmux-fix-1",
    "agentmux-fix-0",
    "agentmux-fix-02",
    `agentmux-fix-${TMUX_NAME_TRIES + 1}`,
    "agentmux-fix-2x",
    "agentmux-fixer",
    "agentmux-other",
    "my-work",
    "agentmux-fix-",
    "agentmux-fix-2-2",
    "",
  ]) {
    expect({ name, ok: isTmuxSessionNameOf("fix", name) }).toEqual({ name, ok: false });
  }
  // an id that itself ends in -2 (a second run of one id in one project) keeps its own names
  expect(isTmuxSessionNameOf("fix-2", "agentmux-fix-2")).toBe(true);
  expect(isTmuxSessionNameOf("fix-2", "agentmux-fix")).toBe(false);
});

test("socket names: plain names only", () => {
  expect(socketNameProblem("agentmux")).toBeUndefined();
  expect(socketNameProblem("a/b")).toContain("'/'");
  expect(socketNameProblem("")).toBe("is empty");
  expect(socketNameProblem("-x")).toContain("starts with");
});
