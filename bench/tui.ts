/**
 * TUI benchmark (compiled binary in a private tmux server, binary copied away from node_modules):
 *   monitor_first_render_ms  spawn `agentmux monitor <dir>` → its first frame is on screen
 *   home_first_render_ms     spawn `agentmux` (home) → the sessions table is on screen
 *   update_ms                state.json rewritten → the monitor shows the new phase
 *   status_10k_ms            `agentmux status <id>` on a session with 10,000 tool events (wall time)
 *   status_floor_ms          its floor, alternating with it: a fresh process of the same bun that
 *                            reads the same tool_events.jsonl and JSON.parses each line
 *   status_ratio             status_10k_ms ÷ status_floor_ms: what compares between runs
 * Medians over BENCH_RUNS runs (default 7). Last line: one JSON object.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomic } from "../src/effects/fs/atomic.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../test/helpers/tmp.ts";
import { stateIn, writeSession } from "../test/tui/fixtures.ts";
import { isolatedBinary, Screen } from "../test/tui/tmux-screen.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;
const bin = isolatedBinary();
const project = makeTmpDir("amx-bench-tui-");
const dir = writeSession(
  project,
  "20250301-100000-bench",
  stateIn("implementing", {
    agents: { "coder:1": { role: "coder", label: "coder 1", status: "working", provider: "claude", model: "sonnet", since: "x" } },
  }),
);
const line = JSON.stringify({ tool: "submit_done", timestamp: "2025-03-01T10:00:00Z", payload: { subplan_index: 1 } }) + "\n";
writeFileSync(join(dir, "tool_events.jsonl"), line.repeat(10_000));
for (let i = 0; i < 500; i++)
  appendFileSync(join(dir, "created_files.log"), `2025-03-01 10:${String(i % 60).padStart(2, "0")}:00  06_implementation/done_${i}\n`);

async function timed(argv: string[], ready: (s: string) => boolean, size = { width: 44, height: 40 }) {
  const socket = privateSocket();
  const scr = new Screen(socket);
  const t0 = performance.now();
  await scr.start(argv, project, size, { AGENTMUX_TMUX_SOCKET: socket });
  await scr.until("first frame", ready);
  return { ms: performance.now() - t0, scr, socket };
}

const monitor: number[] = [];
const home: number[] = [];
const update: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const m = await timed([bin, "monitor", dir], (s) => s.includes("▶ implementing"));
  monitor.push(m.ms);
  const next = i % 2 ? "reviewing" : "planning";
  const t0 = performance.now();
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn(next), feature_dir: dir });
  await m.scr.until("update", (s) => s.includes(`▶ ${next}`));
  update.push(performance.now() - t0);
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("implementing"), feature_dir: dir });
  killTmuxServer(m.socket);
  const h = await timed([bin], (s) => s.includes("20250301-100000-bench"), { width: 120, height: 30 });
  home.push(h.ms);
  killTmuxServer(h.socket);
}

// the floor of a status command: a fresh process of the same runtime that reads the same
// tool_events.jsonl and JSON.parses each line; alternating with status, so both see the same load
const FLOOR = `let n = 0; for (const l of require("node:fs").readFileSync(${JSON.stringify(join(dir, "tool_events.jsonl"))}, "utf8").split("\\n")) if (l) n += JSON.parse(l) ? 1 : 0; if (n !== 10000) process.exit(3);`;
const status: number[] = [];
const floor: number[] = [];
for (let i = 0; i < RUNS + 3; i++) {
  let t0 = performance.now();
  const p = Bun.spawnSync([bin, "status", "20250301-100000-bench"], {
    cwd: project,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, AGENTMUX_TMUX_SOCKET: privateSocket() },
  });
  const ms = performance.now() - t0;
  if (p.exitCode !== 0 || !p.stdout.toString().includes("Tool calls 10000")) throw new Error(`status failed: ${p.stderr}`);
  t0 = performance.now();
  const f = Bun.spawnSync([process.execPath, "-e", FLOOR], { cwd: project, stdout: "pipe", stderr: "pipe" });
  const floorMs = performance.now() - t0;
  if (f.exitCode !== 0) throw new Error(`the floor failed: ${f.stderr}`);
  if (i >= 3) (status.push(ms), floor.push(floorMs)); // the first runs warm the page cache
}
removeDir(project);
removeDir(join(bin, ".."));
console.log(`monitor first render: ${monitor.map(round).join(", ")} ms`);
console.log(`home first render:    ${home.map(round).join(", ")} ms`);
console.log(`update:               ${update.map(round).join(", ")} ms`);
console.log(`status (10k events):  ${status.map(round).join(", ")} ms`);
console.log(`floor (10k events):   ${floor.map(round).join(", ")} ms`);
console.log(
  JSON.stringify({
    bench: "tui",
    monitor_first_render_ms: round(median(monitor)),
    home_first_render_ms: round(median(home)),
    update_ms: round(median(update)),
    status_10k_ms: round(median(status)),
    status_floor_ms: round(median(floor)),
    status_ratio: Math.round((median(status) / median(floor)) * 100) / 100,
  }),
);
