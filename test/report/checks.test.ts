import { expect, test } from "bun:test";
import type { State } from "../../src/schema/state.ts";
import type { Settings } from "../../src/orchestrator/types.ts";
import { RunEvent } from "../../src/schema/run-api/event.ts";
import { events } from "../../src/report/events.ts";
import { checksSnapshot, checkSummaryLines, checksTable } from "../../src/report/checks.ts";
import { snapshot } from "../../src/report/snapshot.ts";
import { RunSnapshot } from "../../src/schema/run-api/snapshot.ts";
import { plainLine } from "../../src/launcher/progress.ts";
import { prBody } from "../../src/effects/gh.ts";
import { statusView } from "../../src/views/status.ts";
import { checkSection } from "../../src/views/monitor.ts";
import { toPlain } from "../../src/views/line.ts";
import { goodbyeLines } from "../../src/views/goodbye.ts";
import { progressComment } from "../../src/views/progress-comment.ts";
import { apply, clock, events as eventsOf, FEATURE_DIR, freshState, makePlan, settings } from "../orchestrator/fixtures.ts";

const NOW = Date.UTC(2024, 0, 1, 1);
const s: Settings = settings({
  checks: {
    test: { command: "npm test", when: ["after_implementation"], required: true },
    lint: { command: "npm run lint", when: ["after_implementation"], required: false },
  },
});
const snap = (state: State) => snapshot({ dir: FEATURE_DIR, state, id: "s1", live: true, toolEvents: 3, now: NOW });

/** Every state of a run whose test fails once (with a finding), lint advisory, then passes after the fix. */
function states(): State[] {
  const ev = eventsOf(clock());
  const out: State[] = [];
  let state = freshState();
  for (const e of [
    ev.start(),
    ev.arch(["reviewer_logic"]),
    ev.plan(makePlan([{ mode: "serial", plans: [1] }])),
    ev.done(1),
    ev.checkStarted(1, "test"),
    ev.checkFinished(1, "test", {
      status: "failed",
      exit_code: 1,
      failures: 2,
      findings: [{ check: "test", file: "src/a.js", line: 4, message: "expected 1" }],
    }),
    ev.checkFinished(1, "lint", { status: "failed", exit_code: 1, failures: 3, required: false }),
    ev.review("reviewer_logic", "pass"),
    ev.done(1),
    ev.checkFinished(2, "test", { duration_ms: 12_400 }),
    ev.checkFinished(2, "lint", { required: false }),
  ]) {
    state = apply(state, e, s).state;
    out.push(state);
  }
  return out;
}

test("the snapshot's checks block: every check of every round, what blocks in the latest, and it matches the schema", () => {
  const all = states();
  const failing = snap(all[6]!);
  expect(() => RunSnapshot.parse(failing)).not.toThrow();
  expect(failing.checks.round).toBe(0);
  expect(failing.checks.blocking).toEqual(["test"]);
  expect(failing.checks.results).toMatchObject([
    {
      name: "test",
      round: 0,
      run: 1,
      state: "failed",
      blocking: true,
      failures: 2,
      findings: [{ file: "src/a.js", line: 4 }],
      log: "06_checks/run_1/test.log",
    },
    { name: "lint", round: 0, state: "failed", blocking: false, required: false },
  ]);
  expect(snap(all[4]!).checks.results[0]).toMatchObject({ name: "test", state: "running" });
  const last = snap(all.at(-1)!);
  expect(last.checks).toMatchObject({ round: 1, blocking: [] });
  expect(last.checks.results.map((c) => `${c.name}@${c.round}:${c.state}`)).toEqual(["test@0:failed", "lint@0:failed", "test@1:passed", "lint@1:passed"]);
});

test("a follower gets one check event per finished check, and the plain progress line says it", () => {
  let prev: RunSnapshot | null = null;
  const evs = states().flatMap((st) => {
    const next = snap(st);
    const out = events(prev, next);
    prev = next;
    return out.filter((e) => e.kind === "check").map((e) => ({ e, line: plainLine(e, next) }));
  });
  for (const { e } of evs) expect(() => RunEvent.parse(e)).not.toThrow();
  expect(evs.map(({ e }) => e.kind === "check" && `${e.name}@${e.run}:${e.status}`)).toEqual([
    "test@1:failed",
    "lint@1:failed",
    "test@2:passed",
    "lint@2:passed",
  ]);
  expect(evs[0]!.line).toMatch(/✗ check test failed \(2 failures\) in 1\.2 s \(06_checks\/run_1\/test\.log\)$/);
  expect(evs[1]!.line).toContain("! check lint failed (3 failures) in 1.2 s — advisory");
  expect(evs[2]!.line).toMatch(/✓ check test passed in 12\.4 s$/);
});

test("the monitor: a line per check per round; status lists them with the failing one's log", () => {
  const all = states();
  const monitor = checkSection(checksSnapshot(all.at(-1)!), NOW, 60).map(toPlain);
  expect(monitor).toEqual([
    expect.stringContaining(" CHECKS 2/2 "),
    " ✗ test 2 failures · impl",
    " ! lint 3 failures · advisory · impl",
    " ✓ test 12 s · fix 1",
    " ✓ lint 1.2 s · fix 1",
  ]);
  const view = statusView({ dir: FEATURE_DIR, state: all[6]!, id: "s1", live: true, toolEvents: 3, now: NOW }, 100).map(toPlain);
  const at = view.indexOf("Checks");
  expect(view.slice(at, at + 4)).toEqual(["Checks", "  ✗ test 2 failures", "     log: 06_checks/run_1/test.log", "  ! lint 3 failures · advisory"]);
});

test("the pull request body has a table of the latest round's checks; the commit message their lines", () => {
  const last = states().at(-1)!;
  const table = checksTable(last);
  expect(table.split("\n")).toEqual([
    "| Check | Result | Time | Command |",
    "|---|---|---|---|",
    "| test | ✓ passed | 12 s | `npm run test` |",
    "| lint | ✓ passed | 1.2 s | `npm run lint` |",
  ]);
  expect(prBody({ summary: "s", checks: table })).toContain(`## Checks\n\n${table}\n`);
  expect(prBody({ summary: "s" })).not.toContain("## Checks");
  expect(checkSummaryLines(states()[6]!)).toEqual(["✗ test: 2 failures", "! lint: 3 failures · advisory"]);
});

test("the goodbye screen lists the latest round's checks", () => {
  const lines = goodbyeLines("success", { feature: "f", commit: "abc1234", checks: checkSummaryLines(states().at(-1)!) }, 80).map(toPlain);
  const at = lines.findIndex((l) => l.startsWith("  Checks"));
  expect(lines.slice(at, at + 2)).toEqual(["  Checks    ✓ test: passed (12 s)", "            ✓ lint: passed (1.2 s)"]);
  expect(
    goodbyeLines("success", { feature: "f", commit: "abc1234", checks: [] }, 80)
      .map(toPlain)
      .some((l) => l.includes("Checks")),
  ).toBe(false);
});

test("the Action's progress comment lists the latest round's checks", () => {
  const failing = progressComment({ subject: "issue #4", state: states()[6]!, startedAt: NOW - 120_000, now: NOW });
  expect(failing).toContain("**Checks**\n- ❌ test: 2 failures (`npm run test`)\n- ⚠️ lint: 3 failures · advisory (`npm run lint`)\n");
  const passed = progressComment({ subject: "issue #4", state: states().at(-1)!, startedAt: NOW - 120_000, now: NOW });
  expect(passed).toContain("**Checks** (fix round 1)\n- ✅ test: 12 s\n- ✅ lint: 1.2 s\n");
  expect(progressComment({ subject: "issue #4", state: freshState(), startedAt: NOW, now: NOW })).not.toContain("**Checks**");
});

test("the check that moved the run comes before the phase it moved it to", () => {
  const ev = eventsOf(clock());
  let state = freshState();
  const seen: State[] = [];
  for (const e of [
    ev.start(),
    ev.arch(["reviewer_logic"]),
    ev.plan(makePlan([{ mode: "serial", plans: [1] }])),
    ev.done(1),
    ev.review("reviewer_logic", "pass"),
    ev.checkFinished(1, "lint", { required: false }),
    ev.checkFinished(1, "test", { status: "failed", exit_code: 1, failures: 1 }),
  ]) {
    state = apply(state, e, s).state;
    seen.push(state);
  }
  expect(state.phase).toBe("fixing");
  const kinds = events(snap(seen.at(-2)!), snap(seen.at(-1)!)).map((e) =>
    e.kind === "phase" ? `phase:${e.phase}` : e.kind === "check" ? `check:${e.name}` : e.kind,
  );
  expect(kinds.slice(0, 2)).toEqual(["check:test", "phase:fixing"]);
});

test("a replay from nothing (a resume's follower) puts each check among the phases where it happened, not before them all", () => {
  const all = states();
  const kinds = events(null, snap(all.at(-1)!))
    .filter((e) => e.kind === "phase" || e.kind === "check")
    .map((e) => (e.kind === "phase" ? `phase:${e.phase}` : `check:${e.name}`));
  expect(kinds.indexOf("check:test")).toBeGreaterThan(kinds.indexOf("phase:implementing"));
  expect(kinds.indexOf("phase:fixing")).toBeGreaterThan(kinds.indexOf("check:test"));
  const ats = events(null, snap(all.at(-1)!))
    .filter((e) => e.kind === "phase" || e.kind === "check")
    .map((e) => Date.parse(e.at));
  expect(ats).toEqual([...ats].sort((a, b) => a - b));
});

test("a finished check keeps when it started: started_at is its finish less its duration, not null", () => {
  const last = snap(states().at(-1)!);
  for (const c of last.checks.results) {
    expect(c.started_at).not.toBeNull();
    expect(Date.parse(c.finished_at!) - Date.parse(c.started_at!)).toBe(c.duration_ms!);
  }
});
