/**
 * The whole demo pipeline, headless, with zero agent think time and two parallel coders plus a
 * review that fails once; what agentmux itself costs around the agents' own work.
 *   bun bench/pipeline.ts [runs=3]
 *
 * wall_ms      launcher start → launcher exit (`agentmux demo --ci`), median over the runs.
 * overhead_ms  wall minus the time at least one agent was doing its own work, median. An agent
 *              works from "prompt accepted" (the orchestrator.log line `delivered to %N`, mapped
 *              to its agent by the `launched <agent> … in %N` line) to its result: its own tool
 *              line in tool_events.jsonl (architect → submit_architecture, planner → submit_plan,
 *              coder:N → submit_done N, the serial coder / fixer → the next submit_done, a
 *              reviewer → its submit_review) or, for the summary prompt, summary.md's mtime.
 *              Parallel agents overlap, so the UNION of those intervals is subtracted, not their
 *              sum (subtracting the sum would count two coders working at once twice and hide
 *              overhead); agent_sum_ms is printed too. An agent's own start-up (before its
 *              prompt is accepted) counts as overhead: it is the price of driving a CLI in tmux.
 * per_handoff_ms  overhead_ms ÷ the prompts delivered in the run (every prompt is a handoff: from
 *              the start or an agent's result to the next prompt accepted), median over the runs;
 *              unlike overhead_ms it stays comparable when a change adds or removes a prompt.
 * peak_rss_mb  the orchestrator process's VmHWM (/proc/<pid>/status, polled every 20 ms until it
 *              exits), max over the runs.
 *
 * BENCH_CONFIG=<file>: a config applied last (e.g. `tmux:\n  control_mode: true`).
 *
 *   bun bench/pipeline.ts [runs=3] forget
 * The same pipeline where the architect ends its turn once without submit_architecture
 * (scenario forget_submit=architect). nudge_after_settle_ms: from the moment the architect's
 * screen stopped changing (its turn over) to the reminder accepted in its pane, as the
 * orchestrator logs it ("reminder 1/2 accepted by architect N ms after its screen settled");
 * median over the runs (target ≤ 2000 ms). nudge_after_detect_ms: from the turn end being seen.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = join(import.meta.dir, "..", "dist", "agentmux");
const runs = Number(process.argv[2] ?? 3);
const FORGET = process.argv[3] === "forget";
const SCENARIO = FORGET ? "parallel,review_fail_once,forget_submit=architect" : "parallel,review_fail_once";

type Interval = { agent: string; from: number; to: number };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function vmHwmKb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Agent work intervals of one finished session (see the header for the definition). */
export function agentIntervals(sessionDir: string): Interval[] {
  const log = readFileSync(join(sessionDir, "orchestrator.log"), "utf8").split("\n");
  const tools = readFileSync(join(sessionDir, "tool_events.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const summaryPath = join(sessionDir, "08_completion/summary.md");
  const summaryAt = existsSync(summaryPath) ? statSync(summaryPath).mtimeMs : NaN;
  const paneAgent = new Map<string, string>();
  const out: Interval[] = [];
  for (const raw of log) {
    // orchestrator.log is JSON lines ({ts, msg, …}); older logs were "<ISO time> <message>"
    let at = Date.parse(raw.slice(0, 24));
    let line = raw;
    if (raw.startsWith("{")) {
      const rec = JSON.parse(raw) as { ts: string; msg: string };
      at = Date.parse(rec.ts);
      line = `${rec.ts} ${rec.msg}`;
    }
    const launched = /launched (\S+) \(.*?\) in (%\d+)/.exec(line);
    if (launched) paneAgent.set(launched[2]!, launched[1]!);
    const delivered = /delivered to (%\d+) in (\d+) ms/.exec(line);
    if (!delivered) continue;
    const agent = paneAgent.get(delivered[1]!);
    if (!agent) throw new Error(`no agent launched in ${delivered[1]} before: ${line}`);
    const mine = (t: any) => {
      if (agent === "architect") return t.tool === "submit_architecture";
      if (agent === "planner") return t.tool === "submit_plan";
      if (agent.startsWith("coder:")) return t.tool === "submit_done" && t.payload?.subplan_index === Number(agent.slice(6));
      if (agent === "coder") return t.tool === "submit_done";
      return t.tool === "submit_review" && t.payload?.role === agent;
    };
    // A fast agent may answer before the orchestrator has finished verifying the delivery:
    // its result is searched from the start of the delivery, and its work counts from the
    // logged acceptance or from its result, whichever is earlier (then it counts as zero).
    const began = at - Number(delivered[2]);
    const tool = tools.find((t) => Date.parse(t.timestamp) >= began && mine(t));
    const to = tool ? Date.parse(tool.timestamp) : agent.startsWith("reviewer") && summaryAt >= began ? summaryAt : NaN;
    if (!Number.isFinite(to)) throw new Error(`no result found for ${agent} prompted at ${line.slice(0, 24)}`);
    out.push({ agent, from: Math.min(at, to), to });
  }
  return out;
}

function unionMs(xs: Interval[]): number {
  const sorted = [...xs].sort((a, b) => a.from - b.from);
  let total = 0;
  let end = -Infinity;
  for (const x of sorted) {
    if (x.to <= end) continue;
    total += x.to - Math.max(x.from, end);
    end = x.to;
  }
  return total;
}

/** The logged reminder latencies of one session (ms after the screen settled, after the turn end was seen). */
export function nudgeLatencies(sessionDir: string): { settle: number; detect: number }[] {
  const log = readFileSync(join(sessionDir, "orchestrator.log"), "utf8");
  return [...log.matchAll(/reminder \d+\/\d+ accepted by \S+ (\d+) ms after its screen settled \((\d+) ms after the turn end was seen\)/g)].map((m) => ({
    settle: Number(m[1]),
    detect: Number(m[2]),
  }));
}

async function once(
  i: number,
): Promise<{ wall: number; agentUnion: number; agentSum: number; peakKb: number; agents: number; nudges: { settle: number; detect: number }[] }> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "amx-bench-pipeline-")));
  const repo = join(root, "repo");
  const socket = `amx-bench-pipeline-${process.pid}-${i}`;
  // the socket file inside the run's temp dir: tmux leaves it after kill-server, and it goes with the dir
  const env = { ...process.env, CI: "true", AGENTMUX_TMUX_SOCKET: socket, TMUX: "", TMUX_TMPDIR: root, NO_COLOR: "1" };
  const t0 = performance.now();
  const extra = process.env.BENCH_CONFIG ? ["--config", process.env.BENCH_CONFIG] : [];
  const p = Bun.spawn([BIN, "demo", "--ci", "--json", "--keep-session", "--dir", repo, "--scenario", SCENARIO, "--think-ms", "0", ...extra], {
    stdout: "pipe",
    stderr: "pipe",
    env,
  });
  let peakKb = 0;
  let pid: number | null = null;
  const sampler = setInterval(() => {
    const sessions = join(repo, ".agentmux/.sessions");
    if (pid === null && existsSync(sessions)) {
      const id = readdirSync(sessions)[0];
      try {
        pid = id ? parseInt(readFileSync(join(sessions, id, ".runtime/orchestrator.pid"), "utf8"), 10) || null : null;
      } catch {}
    }
    if (pid !== null) peakKb = Math.max(peakKb, vmHwmKb(pid) ?? 0);
  }, 20);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const wall = performance.now() - t0;
  clearInterval(sampler);
  Bun.spawnSync(["tmux", "-L", socket, "kill-server"], { stdout: "ignore", stderr: "ignore", env });
  let intervals: Interval[];
  let nudges: { settle: number; detect: number }[];
  try {
    if (code !== 0) throw new Error(`run ${i} failed (exit ${code}):\n${stdout}\n${stderr}`);
    const session = JSON.parse(
      stdout
        .split("\n")
        .filter((l) => l.startsWith('{"kind":"result"'))
        .pop()!,
    ).session;
    intervals = agentIntervals(join(repo, ".agentmux/.sessions", session));
    nudges = nudgeLatencies(join(repo, ".agentmux/.sessions", session));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { wall, agentUnion: unionMs(intervals), agentSum: intervals.reduce((n, x) => n + x.to - x.from, 0), peakKb, agents: intervals.length, nudges };
}

if (import.meta.main) {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`bun build.ts\` first`);
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await once(i);
    results.push(r);
    console.log(
      `run ${i + 1}: wall ${Math.round(r.wall)} ms, agents working ${Math.round(r.agentUnion)} ms (sum ${Math.round(r.agentSum)} ms over ${r.agents} prompts), overhead ${Math.round(r.wall - r.agentUnion)} ms (${Math.round((r.wall - r.agentUnion) / r.agents)} ms per handoff), orchestrator peak RSS ${(r.peakKb / 1024).toFixed(1)} MB${FORGET ? `, reminders ${JSON.stringify(r.nudges)}` : ""}`,
    );
    if (FORGET && r.nudges.length !== 1) throw new Error(`run ${i + 1}: expected one reminder, the log has ${r.nudges.length}`);
  }
  console.log(
    JSON.stringify({
      bench: "pipeline",
      runs,
      wall_ms: Math.round(median(results.map((r) => r.wall))),
      overhead_ms: Math.round(median(results.map((r) => r.wall - r.agentUnion))),
      per_handoff_ms: Math.round(median(results.map((r) => (r.wall - r.agentUnion) / r.agents))),
      handoffs: median(results.map((r) => r.agents)),
      agent_union_ms: Math.round(median(results.map((r) => r.agentUnion))),
      agent_sum_ms: Math.round(median(results.map((r) => r.agentSum))),
      peak_rss_mb: Math.round((Math.max(...results.map((r) => r.peakKb)) / 1024) * 10) / 10,
      ...(FORGET
        ? {
            scenario: "forget_submit=architect",
            nudge_after_settle_ms: median(results.map((r) => r.nudges[0]!.settle)),
            nudge_after_settle_max_ms: Math.max(...results.map((r) => r.nudges[0]!.settle)),
            nudge_after_detect_ms: median(results.map((r) => r.nudges[0]!.detect)),
          }
        : {}),
    }),
  );
}
