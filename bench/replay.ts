/**
 * Replay benchmark (issue #3): how long it takes to rebuild state from 100,000 tool events —
 * read tool_events.jsonl (readToolLines), turn each line into an event (toolLineToEvent, which
 * reads the artifacts a tool vouched for) and apply the pure transition.
 *
 *   bun bench/replay.ts            → last line: {"bench":"replay","events":100000,"replay_ms":…}
 *   REPLAY_TOPICS=20000 bun bench/replay.ts   (more distinct research topics: a bigger state)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { readToolLines } from "../src/bus/tool-lines.ts";
import { toolLineToEvent } from "../src/bus/tool-events.ts";
import { initialState } from "../src/session/initial-state.ts";
import { transition } from "../src/orchestrator/transition.ts";
import type { Settings } from "../src/orchestrator/types.ts";
import type { Event } from "../src/schema/events.ts";
import { ROLES } from "../src/schema/catalog.ts";
import { F, doneArtifact, reviewYaml } from "../src/session/paths.ts";

const TOTAL = 100_000;
const TOPICS = Number(process.env.REPLAY_TOPICS ?? 2_000);

const dir = mkdtempSync(join(tmpdir(), "amx-bench-replay-"));
const sessionDir = join(dir, ".agentmux", ".sessions", "20240101-000000-bench");
mkdirSync(join(sessionDir, "04_planning"), { recursive: true });
mkdirSync(join(sessionDir, "06_implementation"), { recursive: true });
mkdirSync(join(sessionDir, "07_review"), { recursive: true });

// — the artifacts the realistic part of the run vouches for —
const plan = {
  version: 2, plan_overview: "bench", needs_design: false,
  groups: [{ group_id: "g1", mode: "parallel", plans: [{ index: 1, name: "a" }, { index: 2, name: "b" }] }, { group_id: "g2", mode: "serial", plans: [{ index: 3, name: "c" }] }],
  subplans: [1, 2, 3].map((n) => ({ index: n, title: `P${n}`, scope: "s", owned_files: [`src/p${n}.ts`], dependencies: "none", implementation_approach: "a", acceptance_criteria: "c", tasks: ["t"] })),
};
writeFileSync(join(sessionDir, F.planYaml), stringify(plan));
for (const n of [1, 2, 3]) writeFileSync(join(sessionDir, doneArtifact(n)), JSON.stringify({ status: "SUCCESS", tasks_completed: ["t"], files_created: [`src/p${n}.ts`], files_modified: [], tests: { files: 1, cases: 1 } }));
writeFileSync(join(sessionDir, reviewYaml("reviewer_logic")), stringify({ verdict: "pass", summary: "ok", findings: [] }));

// — tool_events.jsonl: research pairs, ignored duplicates, then the rest of a real run —
let t = Date.UTC(2024, 0, 1);
const line = (tool: string, payload: object) => JSON.stringify({ tool, timestamp: new Date((t += 10)).toISOString(), payload });
const dispatch = (topic: string) => line("research_dispatch_code", { topic, context: "c", questions: ["q"], scope_hints: null, research_type: "code" });
const done = (topic: string) => line("submit_research_done", { topic, type: "code" });
const tail = [
  line("submit_architecture", { reviewers: ["reviewer_logic"] }),
  line("submit_plan", {}),
  line("submit_done", { subplan_index: 2 }),
  line("submit_done", { subplan_index: 2 }),
  line("submit_done", { subplan_index: 1 }),
  line("submit_done", { subplan_index: 3 }),
  line("submit_review", { role: "reviewer_logic" }),
];
const lines: string[] = [];
for (let i = 0; i < TOPICS; i++) lines.push(dispatch(`topic-${i}`), done(`topic-${i}`));
for (let i = 0; lines.length < TOTAL - tail.length; i++) {
  const topic = `topic-${i % TOPICS}`;
  lines.push(i % 2 ? dispatch(topic) : done(topic)); // a finished topic: both are ignored
}
lines.push(...tail);
writeFileSync(join(sessionDir, F.toolEvents), lines.join("\n") + "\n");

const settings: Settings = {
  max_review_iterations: 3, skip_final_approval: true, commit_on_loop_cap: false, single_coder: false, keep_session: false,
  role_agents: Object.fromEntries(ROLES.map((r) => [r, { provider: "sim", model: null }])),
};
let state = initialState({ featureDir: sessionDir, sessionName: "bench", featureName: "bench", projectDir: dir, productManager: false, at: new Date(t).toISOString() });
state = transition(state, { type: "start", at: new Date(t).toISOString() }, settings).state;

// — the measured replay —
const t0 = performance.now();
const read = readToolLines(join(sessionDir, F.toolEvents), 0);
const t1 = performance.now();
const evs: Event[] = [];
for (const l of read) evs.push(await toolLineToEvent(l.value!, sessionDir));
const t2 = performance.now();
let effects = 0;
for (const e of evs) {
  const r = transition(state, e, settings);
  state = r.state;
  effects += r.effects.length;
}
const t3 = performance.now();

rmSync(dir, { recursive: true, force: true });
if (read.length !== TOTAL) throw new Error(`expected ${TOTAL} lines, read ${read.length}`);
if (state.phase !== "reviewing" || !state.awaiting_summary) throw new Error(`the replayed run should await the summary, got ${state.phase}`);
const ms = (x: number) => Math.round(x * 10) / 10;
console.error(`read ${ms(t1 - t0)} ms, to events ${ms(t2 - t1)} ms, transitions ${ms(t3 - t2)} ms; ${TOPICS} topics, ${Object.keys(state.agents ?? {}).length} agents in state, ${effects} effects`);
console.log(JSON.stringify({ bench: "replay", events: read.length, replay_ms: ms(t3 - t0), read_ms: ms(t1 - t0), to_events_ms: ms(t2 - t1), transition_ms: ms(t3 - t2), topics: TOPICS, target_ms: 1000 }));
