/**
 * What the project's checks cost a run, and which order is faster (#26.8).
 *   bun bench/checks.ts [runs=3] [think_ms=200]
 *
 * The demo's project and request (src/cli/demo.ts), run headless through the binary
 * (`agentmux run --ci`), with the simulated agents thinking `think_ms` per step:
 *   none       no checks configured
 *   parallel   `npm test` as a required check, defaults.checks_order: with_reviewers (the default):
 *              the check runs while the reviewer reads, the verdict waits for both
 *   serial     the same with before_reviewers: the reviewer starts once the check passed
 * and the same two orders with scenario check_bug (the coder's bug fails the check once, the
 * fixer mends it): bug_parallel, bug_serial. Variants take turns run by run, so a slower moment
 * of the machine does not land on one variant only. wall_ms: launcher start → exit, median.
 *
 * Ratios: checks_cost = parallel / none (what running the tests adds to a passing run);
 * serial_vs_parallel = serial / parallel (passing); bug_serial_vs_parallel likewise for a run
 * whose first check fails (serial spends no review on code whose tests fail).
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { DEMO_REQUEST, createScratchRepo } from "../src/cli/demo.ts";

const BIN = join(import.meta.dir, "..", "dist", "agentmux");
const runs = Number(process.argv[2] ?? 3);
const thinkMs = Number(process.argv[3] ?? 200);

type Variant = { name: string; checks: boolean; order?: "with_reviewers" | "before_reviewers"; scenario: string[] };
const VARIANTS: Variant[] = [
  { name: "none", checks: false, scenario: [] },
  { name: "parallel", checks: true, order: "with_reviewers", scenario: [] },
  { name: "serial", checks: true, order: "before_reviewers", scenario: [] },
  { name: "bug_parallel", checks: true, order: "with_reviewers", scenario: ["check_bug"] },
  { name: "bug_serial", checks: true, order: "before_reviewers", scenario: ["check_bug"] },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function once(v: Variant, i: number): Promise<number> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "amx-bench-checks-")));
  const repo = join(root, "repo");
  mkdirSync(repo);
  const socket = `amx-bench-checks-${process.pid}-${v.name}-${i}`;
  const env = { ...process.env, CI: "true", AGENTMUX_TMUX_SOCKET: socket, TMUX: "", TMUX_TMPDIR: root, NO_COLOR: "1" };
  try {
    await createScratchRepo(repo);
    mkdirSync(join(repo, ".agentmux"), { recursive: true });
    writeFileSync(
      join(repo, ".agentmux", "config.yaml"),
      stringify({
        version: 2,
        defaults: { provider: "sim", completion: { skip_final_approval: true }, ...(v.order ? { checks_order: v.order } : {}) },
        github: { pull_request: false, push: false },
        sim: { think_ms: thinkMs, scenario: v.scenario },
        ...(v.checks ? { checks: { test: { command: "npm test", timeout_s: 120 } } } : {}),
      }),
    );
    const t0 = performance.now();
    const p = Bun.spawn([BIN, "run", "--ci", DEMO_REQUEST], { cwd: repo, stdout: "pipe", stderr: "pipe", env });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    const wall = performance.now() - t0;
    if (code !== 0) throw new Error(`${v.name} run ${i + 1} failed (exit ${code}):\n${stdout}\n${stderr}`);
    if (v.checks && !/✓ check test passed/.test(stdout)) throw new Error(`${v.name} run ${i + 1}: the check never passed:\n${stdout}`);
    return wall;
  } finally {
    Bun.spawnSync(["tmux", "-L", socket, "kill-server"], { stdout: "ignore", stderr: "ignore", env });
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`bun build.ts\` first`);
  const walls: Record<string, number[]> = Object.fromEntries(VARIANTS.map((v) => [v.name, []]));
  for (let i = 0; i < runs; i++) {
    for (const v of VARIANTS) {
      const wall = await once(v, i);
      walls[v.name]!.push(wall);
      console.log(`run ${i + 1} ${v.name.padEnd(12)} ${Math.round(wall)} ms`);
    }
  }
  const m = (name: string) => Math.round(median(walls[name]!));
  const ratio = (a: string, b: string) => Math.round((median(walls[a]!) / median(walls[b]!)) * 100) / 100;
  console.log(
    JSON.stringify({
      bench: "checks",
      runs,
      think_ms: thinkMs,
      wall_ms_none: m("none"),
      wall_ms_parallel: m("parallel"),
      wall_ms_serial: m("serial"),
      wall_ms_bug_parallel: m("bug_parallel"),
      wall_ms_bug_serial: m("bug_serial"),
      checks_cost: ratio("parallel", "none"),
      serial_vs_parallel: ratio("serial", "parallel"),
      bug_serial_vs_parallel: ratio("bug_serial", "bug_parallel"),
    }),
  );
}
