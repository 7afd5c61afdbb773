/**
 * The benchmarks (bench/*.ts) are run by hand and their figures are never asserted here; this
 * only checks that each one still runs on a tiny input and ends with one JSON line holding its
 * fields — the ratios measured in the same run included (#15.4).
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BINARY, REPO_ROOT } from "../helpers/tmp.ts";

function lastJson(stdout: string): Record<string, unknown> {
  const last = stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(last) as Record<string, unknown>;
}

async function bench(name: string, args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const p = Bun.spawn([process.execPath, join(REPO_ROOT, "bench", `${name}.ts`), ...args], {
    cwd: REPO_ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect(code, `bench/${name}.ts exited ${code}:\n${out}\n${err}`).toBe(0);
  return lastJson(out);
}

const finite = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v > 0;

test("bench/replay.ts prints replay_ms, its floor and replay_ratio measured in the same run", async () => {
  const r = await bench("replay", [], { REPLAY_EVENTS: "2000", REPLAY_ROUNDS: "1" });
  expect(r).toMatchObject({ bench: "replay", events: 2000 });
  for (const k of ["replay_ms", "floor_ms", "replay_ratio"]) expect(finite(r[k]), k).toBe(true);
  expect(r.replay_ratio).toBeCloseTo((r.replay_ms as number) / (r.floor_ms as number), 0);
}, 120_000);

test("bench/run-api.ts prints poll_us, derive_us, its floor and poll_ratio measured in the same run", async () => {
  const r = await bench("run-api", [], { RUN_API_ITERATIONS: "20" });
  expect(r).toMatchObject({ bench: "run-api", iterations: 20 });
  for (const k of ["poll_us", "derive_us", "floor_us", "poll_ratio"]) expect(finite(r[k]), k).toBe(true);
  expect(r.sessions as number).toBeGreaterThanOrEqual(4);
}, 120_000);

test("bench/config.ts prints load_ms, tenth_load_ms and scaling_ratio measured in the same run", async () => {
  const r = await bench("config", [], { CONFIG_PROVIDERS: "200" });
  expect(r).toMatchObject({ bench: "config", providers: 200 });
  for (const k of ["load_ms", "tenth_load_ms", "scaling_ratio"]) expect(typeof r[k], k).toBe("number");
}, 120_000);

test.skipIf(!existsSync(BINARY))(
  "bench/tui.ts prints status_10k_ms, its floor and status_ratio",
  async () => {
    const r = await bench("tui", [], { BENCH_RUNS: "1" });
    expect(r.bench).toBe("tui");
    for (const k of ["monitor_first_render_ms", "home_first_render_ms", "update_ms", "status_10k_ms", "status_floor_ms", "status_ratio"])
      expect(finite(r[k]), k).toBe(true);
  },
  180_000,
);

test.skipIf(!existsSync(BINARY))(
  "bench/pipeline.ts prints overhead_ms and per_handoff_ms (overhead over the prompts delivered)",
  async () => {
    const r = await bench("pipeline", ["1"], {});
    expect(r.bench).toBe("pipeline");
    for (const k of ["wall_ms", "overhead_ms", "per_handoff_ms", "handoffs"]) expect(finite(r[k]), k).toBe(true);
    expect(Math.abs((r.per_handoff_ms as number) - (r.overhead_ms as number) / (r.handoffs as number))).toBeLessThanOrEqual(1);
  },
  180_000,
);

test.skipIf(!existsSync(BINARY))(
  "bench/footprint.ts sees five live agents and prints the RSS of agentmux's own processes",
  async () => {
    const r = await bench("footprint", ["1"], { BENCH_THINK_MS: "1000" });
    expect(r).toMatchObject({ bench: "footprint", agents: 5, runs: 1 });
    for (const k of ["agentmux_rss_mb", "pss_mb"]) expect(finite(r[k]), k).toBe(true);
    expect(Number.isFinite(r.per_agent_mb), "per_agent_mb").toBe(true); // can be ≤ 0: no process per agent
    // the launcher, the monitor and the orchestrator were sampled; the agents were not counted
    expect(Object.keys(r.processes as object)).toEqual(expect.arrayContaining(["demo", "monitor", "orchestrate"]));
    expect(Object.keys(r.processes as object)).not.toContain("sim-agent");
  },
  180_000,
);

test.skipIf(!existsSync(BINARY))(
  "bench/checks.ts prints the wall times without checks, with them parallel to the reviewers and serial, and their ratios",
  async () => {
    const r = await bench("checks", ["1", "0"], {});
    expect(r).toMatchObject({ bench: "checks", runs: 1, think_ms: 0 });
    for (const k of [
      "wall_ms_none",
      "wall_ms_parallel",
      "wall_ms_serial",
      "wall_ms_bug_parallel",
      "wall_ms_bug_serial",
      "checks_cost",
      "serial_vs_parallel",
      "bug_serial_vs_parallel",
    ])
      expect(finite(r[k]), k).toBe(true);
    expect(r.checks_cost).toBeCloseTo((r.wall_ms_parallel as number) / (r.wall_ms_none as number), 1);
  },
  300_000,
);

test("bench/peer-check.ts prints what the process-tree check adds to a request, fresh and kept alive, against the same endpoint without it", async () => {
  const r = await bench("peer-check", ["20"], {});
  expect(r.bench).toBe("peer-check");
  for (const k of ["processes", "fresh_ms", "fresh_without_ms", "kept_ms", "kept_without_ms"]) expect(finite(r[k]), k).toBe(true);
  expect(r.fresh_added_ms).toBeCloseTo((r.fresh_ms as number) - (r.fresh_without_ms as number), 2);
}, 120_000);

test("bench/web.ts prints the update latency, the list time and the server's memory", async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run bun build.ts`);
  const r = await bench("web", [], { WEB_SESSIONS: "3", WEB_ROUNDS: "3" });
  expect(r).toMatchObject({ bench: "web", sessions: 3 });
  for (const k of ["update_p50_ms", "update_p95_ms", "list_ms", "serve_rss_mb"]) expect(finite(r[k]), k).toBe(true);
}, 120_000);

test("bench/bounded.ts prints wall_ms, its /dev/null floor, rss_growth_mb and the capped log's size", async () => {
  const r = await bench("bounded", ["5"], {});
  expect(r).toMatchObject({ bench: "bounded", output_mb: 5, truncated: true });
  for (const k of ["wall_ms", "baseline_ms", "throughput_mb_s", "log_bytes"]) expect(finite(r[k]), k).toBe(true);
  expect(r.log_bytes as number).toBeLessThan(2_000_000);
}, 120_000);
