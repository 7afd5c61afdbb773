import { expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/tmp.ts";

test("a process restarted on the interpreter takes the option out of its environment: what it starts gets its JIT back (#15.2)", () => {
  // the restarted image, as execve leaves it: the option set, and its own pid as the restart mark
  const script = `
    process.env.BUN_JSC_useJIT = "0";
    process.env.AGENTMUX_INTERPRETED = String(process.pid);
    const { restartWithoutJit } = await import(${JSON.stringify(join(REPO_ROOT, "src/effects/process/lean.ts"))});
    restartWithoutJit(["never-run"]);
    const child = Bun.spawnSync(["env"]).stdout.toString();
    console.log(JSON.stringify({ own: process.env.BUN_JSC_useJIT ?? null, child: /^(BUN_JSC_useJIT|AGENTMUX_INTERPRETED)=/m.test(child) }));`;
  const p = Bun.spawnSync([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
  expect(p.exitCode, p.stderr.toString()).toBe(0);
  expect(JSON.parse(p.stdout.toString())).toEqual({ own: null, child: false });
});

test("a user's own BUN_JSC_useJIT is left alone: no restart", () => {
  const script = `
    const { restartWithoutJit } = await import(${JSON.stringify(join(REPO_ROOT, "src/effects/process/lean.ts"))});
    restartWithoutJit(["never-run"]);
    console.log(JSON.stringify({ jit: process.env.BUN_JSC_useJIT }));`;
  const p = Bun.spawnSync([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", env: { ...process.env, BUN_JSC_useJIT: "1" } });
  expect(p.exitCode, p.stderr.toString()).toBe(0);
  expect(JSON.parse(p.stdout.toString())).toEqual({ jit: "1" });
});
