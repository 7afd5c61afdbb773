import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { readSnapshotInput } from "../../src/report/read.ts";
import { snapshot } from "../../src/report/snapshot.ts";
import { RunSnapshot } from "../../src/schema/run-api/snapshot.ts";
import { makeTmpDir } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "../tui/fixtures.ts";
import { sessionsJson } from "../../src/views/sessions.ts";

/**
 * Run API v3: what the monitor draws and the snapshot lacked (DESIGN rule 13), read from a real
 * session folder by report/read.ts: the files a person reads (created_files.log), the subplan
 * count, the tmux session's name and the monitor's pane.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("files: created_files.log's entries a person reads, oldest first, with ISO times; prompts and internals are left out", () => {
  const project = makeTmpDir("amx-run-files-");
  dirs.push(project);
  const dir = writeSession(project, "s1", stateIn("implementing", { subplan_count: 3, session_name: "agentmux-s1" }), {
    runtime: { tmux_session: "agentmux-s1", tmux_socket: "amx", panes: {}, control_pane: "%0" },
    created: [
      "2025-03-01 10:02:00  04_planning/plan.yaml",
      "2025-03-01 10:01:00  requirements.md",
      "2025-03-01 10:01:30  04_planning/planner_prompt.md",
      "2025-03-01 10:03:00  03_research/auth/summary.md",
      "not a log line",
      "2025-03-01 10:04:00  06_implementation/done_1",
    ],
  });
  const run = snapshot(readSnapshotInput(dir, { id: "s1", live: true, now: Date.parse("2025-03-01T12:00:00Z") }));
  expect(RunSnapshot.parse(run)).toEqual(run);
  const local = (t: string) => new Date(`2025-03-01T${t}`).toISOString();
  expect(run.files).toEqual([
    { path: "requirements.md", at: local("10:01:00") },
    { path: "04_planning/plan.yaml", at: local("10:02:00") },
    { path: "03_research/auth/summary.md", at: local("10:03:00") },
    { path: "06_implementation/done_1", at: local("10:04:00") },
  ]);
  expect({ subplans: run.subplan_count, name: run.session_name, tmux: run.tmux }).toEqual({
    subplans: 3,
    name: "agentmux-s1",
    tmux: { session: "agentmux-s1", socket: "amx", control_pane: "%0" },
  });
});

test("a session without created_files.log or a monitor pane: no files, control_pane null", () => {
  const project = makeTmpDir("amx-run-files-");
  dirs.push(project);
  const dir = writeSession(project, "s1", stateIn("architecting"), { runtime: { tmux_session: "t", panes: {} } });
  const run = snapshot(readSnapshotInput(dir, { id: "s1", live: false, now: Date.now() }));
  expect({ files: run.files, tmux: run.tmux }).toEqual({ files: [], tmux: { session: "t", socket: null, control_pane: null } });
});

test("last_status (v4): a stopped run's agent reads stopped, and what it was doing stays: the sessions list says it needs input", () => {
  const project = makeTmpDir("amx-run-files-");
  dirs.push(project);
  const asking = {
    role: "coder" as const,
    label: "coder 1",
    status: "needs_input" as const,
    provider: "claude",
    since: "x",
    question: { kind: "question" as const, text: "Which database?", at: "x" },
  };
  const dir = writeSession(project, "s1", stateIn("implementing", { agents: { "coder:1": asking } }));
  for (const live of [true, false]) {
    const run = snapshot(readSnapshotInput(dir, { id: "s1", live, now: Date.now() }));
    expect(run.agents.map((a) => [a.status, a.last_status])).toEqual([[live ? "needs_input" : "stopped", "needs_input"]]);
    const row = sessionsJson([
      { id: "s1", dir, state: readSnapshotInput(dir, { id: "s1", live, now: 0 }).state, live, ageMs: 0, updatedAt: Date.now(), socket: "x" },
    ])[0]!;
    expect({ live, needs: row.needs, phase: row.phase, session_name: row.session_name }).toEqual({
      live,
      needs: "needs_input",
      phase: "implementing",
      session_name: run.session_name,
    });
  }
});
