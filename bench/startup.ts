/**
 * Cold-start time of the compiled binary: `agentmux --version` and `agentmux config` (which
 * loads and validates the layered config), medians over repeated runs.
 *   bun bench/startup.ts [runs]
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = join(import.meta.dir, "..", "dist", "agentmux");
const runs = Number(process.argv[2] ?? 30);
const project = realpathSync(mkdtempSync(join(tmpdir(), "amx-bench-startup-")));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
}

function time(args: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const t0 = performance.now();
    const r = Bun.spawnSync([BIN, ...args], { cwd: project, stdout: "ignore", stderr: "pipe" });
    const ms = performance.now() - t0;
    if (r.exitCode !== 0) throw new Error(`${BIN} ${args.join(" ")} failed: ${r.stderr}`);
    if (i >= 3) out.push(ms); // the first runs warm the page cache
  }
  return out;
}

const version = time(["--version"]);
const config = time(["config"]);
console.log(
  `runs: ${runs}; --version p90 ${median(
    version
      .slice()
      .sort((a, b) => a - b)
      .slice(Math.floor(runs * 0.8)),
  )} ms`,
);
console.log(JSON.stringify({ bench: "startup", version_ms: median(version), config_ms: median(config) }));
