/**
 * Memory footprint of agentmux's own processes during a run: the demo pipeline, headless, with
 * simulated agents — five parallel coders (sim switch coders=5), then three reviewers — so that five agents
 * are live at once (pre-starts off, see `once`). Every 25 ms it reads /proc: each process whose
 * executable is this bench's private copy of dist/agentmux, by its command (launcher = demo, orchestrate, monitor,
 * mcp-server, …); `sim-agent` processes are the agents themselves and are only counted.
 *   bun bench/footprint.ts [runs=3]
 *   BENCH_THINK_MS   the agents' think time (default 1500)
 *   BENCH_BINARY     another build to measure (default dist/agentmux), e.g. main's, for a before/after
 *
 * agentmux_rss_mb  the largest sum of VmRSS over agentmux's processes seen in one sample, median
 *                  over the runs (RSS counts the binary's shared pages in every process: what
 *                  `ps` and a user see; pss_mb, the proportional share, is printed too)
 * per_agent_mb     what each extra live agent costs: (total at the sample with the most live
 *                  agents − total at the last sample with one live agent before it) ÷ the
 *                  difference in agents, median over the runs
 * processes        per command, the largest VmHWM (its own peak RSS) over the runs, MB
 * at_peak          per command, its processes' RSS in the sample of agentmux_rss_mb (median run), MB
 */
import { copyFileSync, chmodSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DIST = process.env.BENCH_BINARY ?? join(import.meta.dir, "..", "dist", "agentmux");
const runs = Number(process.argv[2] ?? 3);
const THINK_MS = process.env.BENCH_THINK_MS ?? "1500";
const SCENARIO = process.env.BENCH_SCENARIO ?? "coders=5,reviewers=logic+quality+expert";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

type Proc = { pid: number; ppid: number; command: string; rssKb: number; hwmKb: number; pssKb: number };

function statusKb(status: string, field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return m ? Number(m[1]) : 0;
}

/**
 * Every live process running `exe`, with its agentmux command (argv[1]) and its memory. A child
 * caught between its fork and its exec (the orchestrator starts tmux commands all the time)
 * still shows its parent's executable, command line and RSS: it is not counted, or one sample
 * would count the orchestrator twice.
 */
export function processesOf(exe: string, withPss = false): Proc[] {
  const all = ownProcesses(exe, withPss);
  const byPid = new Map(all.map((p) => [p.pid, p]));
  return all.filter((p) => byPid.get(p.ppid)?.command !== p.command);
}

function ownProcesses(exe: string, withPss: boolean): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/exe`) !== exe) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      const pssKb = withPss ? statusKb(readFileSync(`/proc/${name}/smaps_rollup`, "utf8"), "Pss") : 0;
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      out.push({ pid: Number(name), ppid, command: argv[1] || "?", rssKb: statusKb(status, "VmRSS"), hwmKb: statusKb(status, "VmHWM"), pssKb });
    } catch {
      // the process ended between readdir and read: it is simply not in this sample
    }
  }
  return out;
}

const isAgent = (p: Proc) => p.command === "sim-agent";

type Sample = { agents: number; rssKb: number; pssKb: number; mcpServers: number; byCommand: Record<string, number> };
type RunResult = { peak: Sample; perAgentKb: number; hwm: Map<string, number>; maxAgents: number };

async function once(bin: string, i: number): Promise<RunResult> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "amx-bench-footprint-")));
  const socket = `amx-bench-footprint-${process.pid}-${i}`;
  // the socket file inside the run's temp dir: tmux leaves it after kill-server, and it goes with the dir
  const env = { ...process.env, CI: "true", AGENTMUX_TMUX_SOCKET: socket, TMUX: "", TMUX_TMPDIR: root, NO_COLOR: "1" };
  const samples: Sample[] = [];
  const hwm = new Map<string, number>();
  try {
    // no pre-started agents: a pre-started CLI is the CLI's memory, not agentmux's, and whether one
    // is up yet when the coders peak would make the count of live agents a matter of timing
    const config = join(root, "no-prestart.yaml");
    writeFileSync(config, "prestart:\n  max_panes: 0\n");
    const p = Bun.spawn([bin, "demo", "--ci", "--dir", join(root, "repo"), "--config", config, "--scenario", SCENARIO, "--think-ms", THINK_MS], {
      stdout: "pipe",
      stderr: "pipe",
      env,
    });
    const sampler = setInterval(() => {
      const procs = processesOf(bin, true);
      const own = procs.filter((x) => !isAgent(x));
      for (const x of own) hwm.set(x.command, Math.max(hwm.get(x.command) ?? 0, x.hwmKb));
      samples.push({
        agents: procs.filter(isAgent).length,
        rssKb: own.reduce((n, x) => n + x.rssKb, 0),
        pssKb: own.reduce((n, x) => n + x.pssKb, 0),
        mcpServers: own.filter((x) => x.command === "mcp-server").length,
        byCommand: own.reduce<Record<string, number>>((m, x) => ((m[x.command] = (m[x.command] ?? 0) + x.rssKb), m), {}),
      });
    }, 25);
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    clearInterval(sampler);
    if (code !== 0) throw new Error(`run ${i + 1} failed (exit ${code}):\n${stdout}\n${stderr}`);
  } finally {
    Bun.spawnSync(["tmux", "-L", socket, "kill-server"], { stdout: "ignore", stderr: "ignore", env });
    rmSync(root, { recursive: true, force: true });
  }
  const maxAgents = Math.max(...samples.map((s) => s.agents));
  const at = samples.findIndex((s) => s.agents === maxAgents);
  const peak = samples.reduce((a, b) => (b.rssKb > a.rssKb ? b : a));
  // one live agent, before the most were live: the same run's base for "each extra agent"
  const before = samples.slice(0, at).findLast((s) => s.agents === 1);
  const most = samples.filter((s) => s.agents === maxAgents).reduce((a, b) => (b.rssKb > a.rssKb ? b : a));
  const perAgentKb = before && maxAgents > 1 ? (most.rssKb - before.rssKb) / (maxAgents - 1) : NaN;
  return { peak, perAgentKb, hwm, maxAgents };
}

if (import.meta.main) {
  const work = realpathSync(mkdtempSync(join(tmpdir(), "amx-bench-bin-")));
  const bin = join(work, "agentmux"); // a private copy: its processes are told apart by /proc/<pid>/exe
  copyFileSync(DIST, bin);
  chmodSync(bin, 0o755);
  try {
    const results: RunResult[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await once(bin, i);
      results.push(r);
      const per = [...r.hwm].map(([c, kb]) => `${c} ${mb(kb)}`).join(", ");
      console.log(
        `run ${i + 1}: peak ${mb(r.peak.rssKb)} MB RSS (${mb(r.peak.pssKb)} MB PSS) with ${r.peak.agents} live agents and ${r.peak.mcpServers} mcp-server processes; at most ${r.maxAgents} live agents; per extra agent ${mb(r.perAgentKb)} MB; at the peak (MB): ${Object.entries(
          r.peak.byCommand,
        )
          .map(([c, kb]) => `${c} ${mb(kb)}`)
          .join(", ")}; peak per process (VmHWM, MB): ${per}`,
      );
    }
    const mid = [...results].sort((a, b) => a.peak.rssKb - b.peak.rssKb)[Math.floor(results.length / 2)]!;
    const processes: Record<string, number> = {};
    for (const r of results) for (const [c, kb] of r.hwm) processes[c] = Math.max(processes[c] ?? 0, mb(kb));
    console.log(
      JSON.stringify({
        bench: "footprint",
        agents: Math.max(...results.map((r) => r.maxAgents)),
        agentmux_rss_mb: mb(median(results.map((r) => r.peak.rssKb))),
        per_agent_mb: mb(median(results.map((r) => r.perAgentKb))),
        pss_mb: mb(median(results.map((r) => r.peak.pssKb))),
        mcp_server_processes: Math.max(...results.map((r) => r.peak.mcpServers)),
        processes,
        at_peak: Object.fromEntries(Object.entries(mid.peak.byCommand).map(([c, kb]) => [c, mb(kb)])),
        runs,
      }),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
