/**
 * Replay benchmark (issue #3): how long it takes to rebuild state from 100,000 tool events —
 * read tool_events.jsonl (readToolLines, as the orchestrator's resume does), turn each
 * line into an event (toolLineToEvent: checks the line's seal, role and phase, reads the snapshot
 * a tool vouched for) and apply the pure transition, line by line as the orchestrator does (the
 * phase check needs the state) — against the floor, measured in the same process and alternating
 * with it: reading the same file and JSON.parse of each of its lines, on one thread.
 * replay_ratio = replay ÷ floor (medians over REPLAY_ROUNDS, default 3) is what compares between
 * runs on a loaded machine; the absolute figures swing with the load.
 *
 *   bun bench/replay.ts            → last line: {"bench":"replay","events":100000,"replay_ms":…,"replay_ratio":…}
 *   REPLAY_TOPICS=20000 bun bench/replay.ts   (more distinct research topics: a bigger state)
 *   REPLAY_EVENTS=3000 REPLAY_TOPICS=30 bun bench/replay.ts   (a long real run: what a resume meets)
 *   REPLAY_EVENTS=2000 REPLAY_ROUNDS=1 bun bench/replay.ts   (a quick check that it runs)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { readToolLines, type ToolLine } from "../src/bus/tool-lines.ts";
import { toolLineToEvent } from "../src/bus/tool-events.ts";
import { initialState } from "../src/session/initial-state.ts";
import { transition } from "../src/orchestrator/transition.ts";
import type { Settings } from "../src/orchestrator/types.ts";
import { ROLES, type Role } from "../src/schema/catalog.ts";
import { loadSealKey, sealLine } from "../src/bus/tool-seal.ts";
import { writeSnapshot } from "../src/mcp/snapshot.ts";
import { F, doneArtifact, reviewYaml } from "../src/protocol/paths.ts";

const TOTAL = Number(process.env.REPLAY_EVENTS ?? 100_000);
const TOPICS = Number(process.env.REPLAY_TOPICS ?? Math.min(2_000, Math.floor(TOTAL / 10)));
const ROUNDS = Number(process.env.REPLAY_ROUNDS ?? 3);

const dir = mkdtempSync(join(tmpdir(), "amx-bench-replay-"));
const sessionDir = join(dir, ".agentmux", ".sessions", "20240101-000000-bench");
mkdirSync(join(sessionDir, "04_planning"), { recursive: true });
mkdirSync(join(sessionDir, "06_implementation"), { recursive: true });
mkdirSync(join(sessionDir, "07_review"), { recursive: true });

// — the artifacts the realistic part of the run vouches for —
const plan = {
  version: 2,
  plan_overview: "bench",
  needs_design: false,
  groups: [
    {
      group_id: "g1",
      mode: "parallel",
      plans: [
        { index: 1, name: "a" },
        { index: 2, name: "b" },
      ],
    },
    { group_id: "g2", mode: "serial", plans: [{ index: 3, name: "c" }] },
  ],
  subplans: [1, 2, 3].map((n) => ({
    index: n,
    title: `P${n}`,
    scope: "s",
    owned_files: [`src/p${n}.ts`],
    dependencies: "none",
    implementation_approach: "a",
    acceptance_criteria: "c",
    tasks: ["t"],
  })),
};
writeFileSync(join(sessionDir, F.planYaml), stringify(plan));
for (const n of [1, 2, 3])
  writeFileSync(
    join(sessionDir, doneArtifact(n)),
    JSON.stringify({ status: "SUCCESS", tasks_completed: ["t"], files_created: [`src/p${n}.ts`], files_modified: [], tests: { files: 1, cases: 1 } }),
  );
writeFileSync(join(sessionDir, reviewYaml("reviewer_logic")), stringify({ verdict: "pass", summary: "ok", findings: [] }));

// — tool_events.jsonl as the endpoint writes it (sealed, with snapshots): research pairs,
// ignored duplicates, then the rest of a real run —
const key = loadSealKey(sessionDir);
const snap = (rel: string) => writeSnapshot(sessionDir, readFileSync(join(sessionDir, rel)), rel);
const ROLE_OF: Record<string, Role> = {
  research_dispatch_code: "architect",
  submit_research_done: "code-researcher",
  submit_architecture: "architect",
  submit_plan: "planner",
  submit_done: "coder",
  submit_review: "reviewer_logic",
};
let t = Date.UTC(2024, 0, 1);
let seq = 0;
const line = (tool: string, payload: object) =>
  sealLine(key, JSON.stringify({ tool, timestamp: new Date((t += 10)).toISOString(), payload, agent: ROLE_OF[tool], role: ROLE_OF[tool], seq: ++seq }));
const dispatch = (topic: string) => line("research_dispatch_code", { topic, context: "c", questions: ["q"], scope_hints: null, research_type: "code" });
const done = (topic: string) => line("submit_research_done", { topic, type: "code" });
const tail = () => [
  line("submit_architecture", { reviewers: ["reviewer_logic"] }),
  line("submit_plan", { snapshot: snap(F.planYaml) }),
  line("submit_done", { subplan_index: 2, snapshot: snap(doneArtifact(2)) }),
  line("submit_done", { subplan_index: 2, snapshot: snap(doneArtifact(2)) }),
  line("submit_done", { subplan_index: 1, snapshot: snap(doneArtifact(1)) }),
  line("submit_done", { subplan_index: 3, snapshot: snap(doneArtifact(3)) }),
  line("submit_review", { role: "reviewer_logic", snapshot: snap(reviewYaml("reviewer_logic")) }),
];
const lines: string[] = [];
for (let i = 0; i < TOPICS; i++) lines.push(dispatch(`topic-${i}`), done(`topic-${i}`));
for (let i = 0; lines.length < TOTAL - 7; i++) {
  const topic = `topic-${i % TOPICS}`;
  lines.push(i % 2 ? dispatch(topic) : done(topic)); // a finished topic: both are ignored
}
lines.push(...tail()); // sealed last: their seqs follow the research lines
writeFileSync(join(sessionDir, F.toolEvents), lines.join("\n") + "\n");

const settings: Settings = {
  max_review_iterations: 3,
  skip_final_approval: true,
  commit_on_loop_cap: false,
  single_coder: false,
  keep_session: false,
  role_agents: Object.fromEntries(ROLES.map((r) => [r, { provider: "sim", model: null }])),
};
const started = transition(
  initialState({ featureDir: sessionDir, sessionName: "bench", featureName: "bench", projectDir: dir, productManager: false, at: new Date(t).toISOString() }),
  { type: "start", at: new Date(t).toISOString() },
  settings,
).state;
const toolEvents = join(sessionDir, F.toolEvents);

/** The floor: the least any replay must do — read the same file and JSON.parse each line. */
function floor(): number {
  const t0 = performance.now();
  let n = 0;
  for (const l of readFileSync(toolEvents, "utf8").split("\n")) if (l) n += JSON.parse(l) ? 1 : 0;
  const ms = performance.now() - t0;
  if (n !== TOTAL) throw new Error(`floor: expected ${TOTAL} lines, parsed ${n}`);
  return ms;
}

/** Apply the lines as the orchestrator does; `timed` adds up the time spent turning lines into events. */
function apply(read: ToolLine[], timed: { toEvents: number } | null) {
  let state = started;
  let effects = 0;
  for (const l of read) {
    const a = timed ? performance.now() : 0;
    const o = toolLineToEvent(l.value!, l.text, { sessionDir, key, phase: state.phase, appliedSeq: state.tool_seq ?? 0 });
    if (timed) timed.toEvents += performance.now() - a;
    if ("skip" in o) continue;
    if (o.event.type === "tool_rejected") throw new Error(`line rejected: ${o.event.reason}`);
    const r = transition(state, o.event, settings);
    // as the orchestrator's loop: a changed state is the caller's own (see Result)
    state = r.state === state ? { ...state } : r.state;
    state.tool_seq = o.seq;
    effects += r.effects.length;
  }
  return { state, effects };
}

/**
 * The measured replay: read, to events, transitions — timed as a whole, with no timer per line
 * (200,000 clock reads cost about as much as the floor). How the loop's time splits between
 * turning lines into events and the transitions is estimated from a second, timed pass.
 */
function replay() {
  const t0 = performance.now();
  const read = readToolLines(toolEvents, 0);
  const t1 = performance.now();
  const { state, effects } = apply(read, null);
  const t2 = performance.now();
  if (read.length !== TOTAL) throw new Error(`expected ${TOTAL} lines, read ${read.length}`);
  if (state.phase !== "reviewing" || !state.awaiting_summary) throw new Error(`the replayed run should await the summary, got ${state.phase}`);
  const timed = { toEvents: 0 };
  const a = performance.now();
  apply(read, timed);
  const share = timed.toEvents / (performance.now() - a);
  return {
    total: t2 - t0,
    read: t1 - t0,
    toEvents: (t2 - t1) * share,
    transitions: (t2 - t1) * (1 - share),
    agents: Object.keys(state.agents ?? {}).length,
    effects,
  };
}

// floor and replay alternate in one process, so both see the same machine load
const floors: number[] = [];
const replays: ReturnType<typeof replay>[] = [];
try {
  for (let i = 0; i < ROUNDS; i++) {
    floors.push(floor());
    replays.push(replay());
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const ms = (x: number) => Math.round(x * 10) / 10;
const median = <T>(xs: T[], by: (x: T) => number) => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)]!;
const r = median(replays, (x) => x.total);
const floorMs = median(floors, (x) => x);
console.error(
  `replay ${replays.map((x) => ms(x.total)).join(", ")} ms; floor ${floors.map(ms).join(", ")} ms; median replay: read ${ms(r.read)} ms, to events ${ms(r.toEvents)} ms, transitions ${ms(r.transitions)} ms; ${TOPICS} topics, ${r.agents} agents in state, ${r.effects} effects`,
);
console.log(
  JSON.stringify({
    bench: "replay",
    events: TOTAL,
    replay_ms: ms(r.total),
    floor_ms: ms(floorMs),
    replay_ratio: Math.round((r.total / floorMs) * 100) / 100,
    read_ms: ms(r.read),
    to_events_ms: ms(r.toEvents),
    transition_ms: ms(r.transitions),
    topics: TOPICS,
    rounds: ROUNDS,
    target_ratio: 3,
  }),
);
