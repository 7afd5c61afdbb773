import { expect, test } from "bun:test";
import { goodbyeText } from "../../src/launcher/outcome.ts";
import { stateIn } from "../tui/fixtures.ts";

// after `agentmux resume` the end of the run said "Elapsed 7s" for a run that had worked for
// minutes before it was canceled: it counted from the resume only, while the monitor's clock and
// `agentmux status` count the whole run
test("the goodbye's Elapsed counts the run's earlier lifetimes (before a resume) too", () => {
  const s = stateIn("done", { active_ms: 120_000, commit_hash: "abc1234" });
  const text = goodbyeText({ kind: "success", code: 0, state: s }, s, Date.now() - 7_000, false);
  expect(text).toMatch(/Elapsed\s+2m 7s/);
});

test("a run that was never resumed: the time since it started", () => {
  const s = stateIn("done", { commit_hash: "abc1234" });
  const text = goodbyeText({ kind: "success", code: 0, state: s }, s, Date.now() - 7_000, false);
  expect(text).toMatch(/Elapsed\s+7s/);
});

test("agentmux attach after a resume: the earlier lifetimes plus this one since it started, not since the run was created", () => {
  const now = Date.now();
  const s = stateIn("done", {
    active_ms: 60_000,
    active_since: new Date(now - 30_000).toISOString(),
    created_at: new Date(now - 3_600_000).toISOString(),
    commit_hash: "abc1234",
  });
  const text = goodbyeText({ kind: "success", code: 0, state: s }, s, now - 3_600_000, false);
  expect(text).toMatch(/Elapsed\s+1m 30s/);
});
