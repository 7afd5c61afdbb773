import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readLog } from "../../src/session/log.ts";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { git, isolatedBinary, killTmuxServer, type RunResult } from "../e2e/harness.ts";
import { waitFor } from "../helpers/wait.ts";
import {
  alive,
  branchTree,
  fsckProblems,
  jsonEvents,
  orchestratorPid,
  readState,
  release,
  sessionDir,
  spawnBinary,
  startDemo,
  tmux,
  toolLines,
  unparsableFiles,
  waitAgentsSettled,
  waitForState,
} from "./harness.ts";

/**
 * The fault matrix: the orchestrator is SIGKILLed right after one event of the demo pipeline
 * (two parallel coders, a serial coder, three reviewers, a review that fails once), then
 * `agentmux resume` must finish the run with the same commit tree as an uninterrupted run,
 * every tool event applied once, and no half-written file. The agents whose prompts a case
 * names in `hold` stay at work until the test releases them after the kill (the sim's `hold=`
 * switch), so each window stays open however slow the machine is.
 *
 * No call is lost: the run's MCP endpoint lives in the orchestrator, so a call that was
 * accepted before the kill is in tool_events.jsonl and is applied when the run resumes, and a
 * call an orphaned agent makes while the orchestrator is dead is answered "agentmux is not
 * running … call it again when asked" and recorded nowhere — the resumed run prompts that agent
 * again and it resubmits its finished work (the calls and the tree equal the reference run's).
 */
const SCENARIO = "parallel,review_fail_once,reviewers=logic+quality+expert,commit_message";
const BRANCH = "feature/greeting-module";
const REVIEWS = ["review_logic_prompt", "review_quality_prompt", "review_expert_prompt"];

/**
 * `hold`: the prompts whose agents stay at work until released after the kill; `orphanCall`: a held
 * agent then finishes and calls its tool while the orchestrator is dead.
 */
type Case = { name: string; when: (s: any, dir: string) => boolean; hold?: string[]; orphanCall?: boolean };
const prestartsByRole = (dir: string) => readLog(dir).filter((r) => r.event === "agent_prestarted" && r.data?.by_role === true && !r.error).length;
const completed = (s: any) => Object.values(s.active_reviews ?? {}).filter((v) => v === "completed").length;

const CASES: Case[] = [
  // the coder pre-started by role (from the architect on) dies with the killed run's tmux session
  {
    name: "mid-plan (planner working)",
    when: (s, dir) => s.phase === "planning" && s.agents?.planner?.status === "working" && prestartsByRole(dir) >= 1,
    hold: ["planner_prompt"],
  },
  {
    name: "right after plan_submitted",
    when: (s) => s.phase === "implementing" && s.last_event === "plan_written" && s.completed_subplans.length === 0,
    hold: ["coder_prompt_1", "coder_prompt_2"],
  },
  {
    name: "while both parallel coders work",
    when: (s) =>
      s.phase === "implementing" &&
      s.agents?.["coder:1"]?.status === "working" &&
      s.agents?.["coder:2"]?.status === "working" &&
      s.completed_subplans.length === 0,
    hold: ["coder_prompt_1", "coder_prompt_2"],
    orphanCall: true,
  },
  {
    name: "between the two parallel coders' submit_done",
    when: (s) => s.phase === "implementing" && s.completed_subplans.length === 1,
    hold: ["coder_prompt_2"],
  },
  { name: "after the serial group's submit_done", when: (s) => s.phase === "reviewing" && s.review_iteration === 0 && completed(s) === 0, hold: REVIEWS },
  {
    name: "during review (one reviewer submitted)",
    when: (s) => s.phase === "reviewing" && s.review_iteration === 0 && completed(s) === 1,
    hold: REVIEWS.slice(1),
  },
  { name: "after the failing verdict (fixing)", when: (s) => s.phase === "fixing", hold: ["fix_prompt"] },
  { name: "while the fixer works", when: (s) => s.phase === "fixing" && s.agents?.coder?.status === "working", hold: ["fix_prompt"], orphanCall: true },
  { name: "after the summary request", when: (s) => s.phase === "reviewing" && s.awaiting_summary === true, hold: ["summary_prompt"] },
  // no agent works at completing (the headless approval is agentmux's own): the window is the commit
  { name: "at completing (approval being written)", when: (s) => s.phase === "completing" },
];

type Outcome = { killedAt: any; pendingAtResume: number; orphanScreens: string[]; killed: RunResult; resumed: RunResult; dir: string; repo: string };

let bin: string;
const sockets: string[] = [];
let reference: Promise<{ dir: string; repo: string; result: RunResult }>;
const outcomes = new Map<string, Promise<Outcome>>();

/** At most `n` runs at a time (2 cores: each run is an orchestrator plus up to three agents). */
function limiter(n: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await job();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

async function crashAndResume(c: Case): Promise<Outcome> {
  const run = startDemo(bin, { scenario: c.hold ? `${SCENARIO},hold=${c.hold.join("+")}` : SCENARIO, thinkMs: 0, sockets });
  const { dir } = await waitForState(run, c.name, c.when);
  const pid = orchestratorPid(dir);
  if (!pid) throw new Error(`${c.name}: no orchestrator pid file`);
  process.kill(pid, "SIGKILL");
  const killed = await run.done;
  await waitFor("the orchestrator to be gone", () => !alive(pid));
  const killedAt = readState(dir);
  // the held agents finish their work with no orchestrator, as orphaned agents do
  release(dir, c.hold ?? []);
  await waitAgentsSettled(run.socket);
  const orphanScreens = tmux(run.socket, "list-panes", "-a", "-F", "#{pane_id}")
    .out.split("\n")
    .filter(Boolean)
    .map((p) => tmux(run.socket, "capture-pane", "-p", "-J", "-S", "-200", "-t", p).out);
  const pendingAtResume = toolLines(dir).length - (killedAt.applied_tool_events ?? 0);
  const id = basename(dir);
  const resumed = await spawnBinary(bin, ["resume", id, "--ci", "--json"], { cwd: run.repo, socket: run.socket }).done;
  return { killedAt, pendingAtResume, orphanScreens, killed, resumed, dir, repo: run.repo };
}

beforeAll(() => {
  bin = isolatedBinary();
  const slot = limiter(3);
  reference = slot(async () => {
    const run = startDemo(bin, { scenario: SCENARIO, thinkMs: 0, sockets });
    const result = await run.done;
    return { dir: sessionDir(run.repo)!, repo: run.repo, result };
  });
  for (const c of CASES)
    outcomes.set(
      c.name,
      slot(() => crashAndResume(c)),
    );
});
afterAll(() => sockets.forEach(killTmuxServer));

const auditPlans = (dir: string) => readFileSync(join(dir, "06_implementation/audit.log"), "utf8").trim().split("\n");
const listDir = (dir: string, sub: string) => (existsSync(join(dir, sub)) ? readdirSync(join(dir, sub)).sort() : []);
const tasks = (dir: string) =>
  listDir(dir, "04_planning")
    .filter((f) => /^tasks_\d+\.md$/.test(f))
    .map((f) => readFileSync(join(dir, "04_planning", f), "utf8"));

describe("SIGKILL of the orchestrator, then agentmux resume (compiled binary, private tmux)", () => {
  test("the uninterrupted reference run", async () => {
    const ref = await reference;
    if (ref.result.code !== 0) console.error(ref.result.stdout, ref.result.stderr);
    expect(ref.result.code).toBe(0);
    expect(unparsableFiles(ref.dir)).toEqual([]);
    expect(fsckProblems(ref.repo)).toBe("");
  }, 240_000);

  for (const c of CASES) {
    test(`killed ${c.name}`, async () => {
      const o = await outcomes.get(c.name)!;
      const ref = await reference;
      // the kill landed where the case says, and the launcher reported the dead orchestrator
      expect(c.when(o.killedAt, o.dir)).toBe(true);
      expect(o.killed.code).not.toBe(0);
      if (o.resumed.code !== 0) console.error(c.name, o.resumed.stdout, o.resumed.stderr, readFileSync(join(o.dir, "orchestrator.log"), "utf8"));
      expect(o.resumed.code).toBe(0);
      // the dead orchestrator's tmux session (orphaned agents) was closed by resume
      expect(o.resumed.stdout).toContain("closing the stale tmux session");
      const result = jsonEvents(o.resumed.stdout).find((e) => e.kind === "result");
      expect(result?.outcome).toBe("success");
      const state = readState(o.dir);
      expect(state.phase).toBe("done");

      // the same work, committed once: identical tree, one commit on top of main
      expect(branchTree(o.repo, BRANCH)).toBe(branchTree(ref.repo, BRANCH));
      expect(git(o.repo, "rev-list", "--count", `main..${BRANCH}`)).toBe(git(ref.repo, "rev-list", "--count", `main..${BRANCH}`));

      // exactly-once application of tool events: every line applied, each once
      const lines = toolLines(o.dir);
      const size = Bun.file(join(o.dir, "tool_events.jsonl")).size;
      expect(state.tool_cursor).toBe(size);
      expect(state.applied_tool_events).toBe(lines.length);
      // no work was done twice: the same tool calls as the uninterrupted run
      // (snapshots are named by content, and done files carry their own timestamps: compared without them)
      const calls = (ls: any[]) => ls.map(({ tool, payload: { snapshot: _s, ...p } }) => `${tool} ${JSON.stringify(p)}`).sort();
      expect(calls(lines)).toEqual(calls(toolLines(ref.dir)));
      expect(JSON.parse(readFileSync(join(o.dir, "tool_event_state.json"), "utf8")).applied_offset).toBe(size);

      // orchestrator bookkeeping: no duplicated audit line, same plans audited as the reference,
      // no double check-off, the same done markers and review archives
      const audit = auditPlans(o.dir);
      expect(new Set(audit).size).toBe(audit.length);
      const planOf = (l: string) => l.replace(/^\S+ /, "");
      expect(audit.map(planOf).sort()).toEqual(auditPlans(ref.dir).map(planOf).sort());
      expect(tasks(o.dir)).toEqual(tasks(ref.dir));
      for (const t of tasks(o.dir)) expect(t).not.toMatch(/\[x\]\s*\[x\]/);
      expect(listDir(o.dir, "06_implementation").filter((f) => f.startsWith("done_"))).toEqual(
        listDir(ref.dir, "06_implementation").filter((f) => f.startsWith("done_")),
      );
      expect(listDir(o.dir, "07_review").filter((f) => /^review_\d+_/.test(f))).toEqual(listDir(ref.dir, "07_review").filter((f) => /^review_\d+_/.test(f)));
      expect(state.review_iteration).toBe(1);

      // tool calls made while no orchestrator ran are applied before the phase is re-entered
      const log = readLog(o.dir);
      const afterResume = log.slice(log.findLastIndex((r) => r.event === "orchestrator_started"));
      if (o.pendingAtResume > 0) {
        const applied = afterResume.findIndex((r) => r.event === "tool_calls_replayed");
        expect(afterResume[applied]?.data).toEqual({ count: o.pendingAtResume });
        expect(applied).toBeLessThan(afterResume.findIndex((r) => r.event === "transition" && r.data?.type === "resume"));
      }
      // pre-started panes: the killed run's went with its tmux session; the resumed run takes over only its own
      const takenOver = afterResume.filter((r) => r.event === "agent_launched" && r.data?.prestarted_ms !== undefined);
      for (const t of takenOver) {
        const id = String(t.data?.prestarted_as ?? t.agent);
        expect(afterResume.some((r) => r.event === "agent_prestarted" && r.agent === id && r.pane === t.pane)).toBe(true);
      }
      if (c.name.startsWith("mid-plan")) {
        // a coder was started by role again after the resume and taken over by a key the plan gave; whether the
        // second coder got a pre-start slot too (prestart.max_panes 2) depends on when the reviewer's, also by
        // role, began
        const byRole = takenOver.filter((t) => t.data?.prestarted_as !== undefined).map((t) => String(t.agent));
        const coders = byRole.filter((a) => a.startsWith("coder"));
        expect(coders.length).toBeGreaterThanOrEqual(1);
        expect(new Set(byRole).size).toBe(byRole.length);
        for (const agent of byRole) expect(["coder:1", "coder:2", "reviewer_logic"]).toContain(agent);
      }
      if (c.orphanCall) {
        // the orphan's call reached nobody: it was told so, and nothing was recorded for it ...
        expect(o.orphanScreens.join("\n")).toContain("agentmux is not running");
        // ... and after resume it was prompted again and resubmitted (calls and tree equal the reference's, above)
      }

      // no half-written file anywhere in the session folder, and an intact repository
      expect(unparsableFiles(o.dir)).toEqual([]);
      expect(fsckProblems(o.repo)).toBe("");
    }, 240_000);
  }
});
