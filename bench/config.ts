/**
 * Loading a config with very many providers (#18.20: 250,000 took 300 s): loadConfig — read,
 * parse with the duplicate-key, alias-bomb and `__proto__` checks, validate, merge, resolve —
 * at N and at N/10 in the same run. A linear loader gives scaling_ratio ≈ 10; a quadratic one
 * ≈ 100. Such a file is plain YAML (config/plain-yaml.ts), so Bun's native parser reads it (#31:
 * the yaml library's parse alone took about a minute at 250,000); `plain` says it took that way.
 * Usage: bun bench/config.ts   (CONFIG_PROVIDERS=250000 by default)
 * Last line: {"bench":"config","providers":250000,"plain":true,"load_ms":…,"load_cpu_ms":…,"tenth_load_ms":…,"scaling_ratio":…}
 * Measured (#31, a 2-core machine at load 16-25): before 72-112 s wall, 20.1 s CPU; after 20 s wall, 4.4 s CPU.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/load.ts";
import { isPlainYaml } from "../src/config/plain-yaml.ts";

function configText(providers: number): string {
  const lines = ["version: 2", "providers:"];
  for (let i = 0; i < providers; i++) lines.push(`  p${i}:`, `    command: cli-${i}`, `    args: ["--flag"]`);
  lines.push("roles:", `  coder:`, `    provider: p${providers - 1}`);
  return lines.join("\n") + "\n";
}

/** Wall and CPU milliseconds of one load (CPU: what a loaded machine's wall time hides). */
function load(dir: string, providers: number): { ms: number; cpu: number } {
  const file = join(dir, `config-${providers}.yaml`);
  writeFileSync(file, configText(providers));
  const t = performance.now();
  const c0 = process.cpuUsage();
  const loaded = loadConfig({ projectDir: dir, configPath: file, env: { HOME: dir, XDG_CONFIG_HOME: join(dir, "xdg") } });
  const ms = performance.now() - t;
  const c = process.cpuUsage(c0);
  if (loaded.config.roles.coder?.provider !== `p${providers - 1}`) throw new Error("the config did not load as written");
  return { ms, cpu: (c.user + c.system) / 1000 };
}

const providers = Number(process.env.CONFIG_PROVIDERS ?? 250_000);
const dir = mkdtempSync(join(tmpdir(), "amx-bench-config-"));
try {
  const tenth = load(dir, Math.max(1, Math.round(providers / 10)));
  const full = load(dir, providers);
  const round = (x: number) => Math.round(x * 10) / 10;
  const plain = isPlainYaml(configText(Math.min(providers, 1000)));
  console.log(
    JSON.stringify({
      bench: "config",
      providers,
      plain,
      load_ms: Math.round(full.ms),
      load_cpu_ms: Math.round(full.cpu),
      tenth_load_ms: Math.round(tenth.ms),
      scaling_ratio: round(full.ms / tenth.ms),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
