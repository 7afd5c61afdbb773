/**
 * What the bounded runner (src/effects/process/bounded.ts, house rule 15) costs on a command
 * that floods its output, and that memory stays bounded.
 *   bun bench/bounded.ts [mb=400]
 *
 * Runs `head -c <mb> MB of a repeated log line` through runBounded with the default caps and
 * reports: wall_ms, throughput_mb_s, rss_growth_mb (this process's resident memory after minus
 * before: the output is never held whole), log_bytes (the capped file), and the same command
 * writing to /dev/null as the floor (baseline_ms).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBounded } from "../src/effects/process/bounded.ts";

const mb = Number(process.argv[2] ?? 400);
const bytes = mb * 1_000_000;
const dir = mkdtempSync(join(tmpdir(), "amx-bench-bounded-"));
const command = `yes 'npm WARN deprecated left-pad@1.3.0: use String.prototype.padStart()' | head -c ${bytes}`;
try {
  const t0 = performance.now();
  Bun.spawnSync(["sh", "-c", `${command} > /dev/null`]);
  const baselineMs = performance.now() - t0;
  const rssBefore = process.memoryUsage().rss;
  const t1 = performance.now();
  const r = await runBounded({ argv: ["sh", "-c", command], cwd: dir, timeoutMs: 600_000, logPath: join(dir, "out.log"), leftovers: "kill" });
  const wallMs = performance.now() - t1;
  const rssGrowth = process.memoryUsage().rss - rssBefore;
  if (r.exitCode !== 0 || r.bytes !== bytes) throw new Error(`unexpected result: exit ${r.exitCode}, ${r.bytes} bytes`);
  console.log(
    JSON.stringify({
      bench: "bounded",
      output_mb: mb,
      wall_ms: Math.round(wallMs),
      baseline_ms: Math.round(baselineMs),
      throughput_mb_s: Math.round(mb / (wallMs / 1000)),
      rss_growth_mb: Math.round(rssGrowth / 1e6),
      log_bytes: statSync(join(dir, "out.log")).size,
      truncated: r.truncated,
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
