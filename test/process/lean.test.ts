import { expect, test } from "bun:test";
import { LEAN_OPTIONS, leanSpawnEnv, restartLean } from "../../src/effects/process/lean.ts";
import { selfCommand } from "../../src/effects/process/self.ts";
import { COMMANDS } from "../../src/cli/commands.ts";

type Exec = { file: string; argv: string[]; env: Record<string, string> };
const recorder = () => {
  const calls: Exec[] = [];
  return { calls, exec: (file: string, argv: string[], env: Record<string, string>) => void calls.push({ file, argv, env }) };
};
const HOT_ONLY = { BUN_JSC_thresholdForJITAfterWarmUp: "1000000", BUN_JSC_thresholdForJITSoon: "1000000" };

test("a process not yet restarted replaces itself with the same command line, its options and its pid as the restart mark (#15.2)", () => {
  const { calls, exec } = recorder();
  restartLean(["monitor", "/s"], "interpreter", { PATH: "/bin" }, 42, exec);
  restartLean(["orchestrate", "/s"], "hot-only", { PATH: "/bin" }, 43, exec, true);
  expect(calls).toEqual([
    { file: selfCommand()[0]!, argv: [...selfCommand(), "monitor", "/s"], env: { PATH: "/bin", BUN_JSC_useJIT: "0", AGENTMUX_LEAN: "42" } },
    { file: selfCommand()[0]!, argv: [...selfCommand(), "orchestrate", "/s"], env: { PATH: "/bin", ...HOT_ONLY, AGENTMUX_LEAN: "43" } },
  ]);
  expect(LEAN_OPTIONS["hot-only"]).toEqual(HOT_ONLY);
});

test("the restarted image takes its options and the mark out of its environment (what it starts runs as it would have) and does not restart again", () => {
  const { calls, exec } = recorder();
  const env: Record<string, string | undefined> = { PATH: "/bin", BUN_JSC_useJIT: "0", AGENTMUX_LEAN: "42" };
  restartLean(["monitor"], "interpreter", env, 42, exec);
  const hot: Record<string, string | undefined> = { PATH: "/bin", ...HOT_ONLY, AGENTMUX_LEAN: "43" };
  restartLean(["run", "x"], "hot-only", hot, 43, exec, true);
  expect(calls).toEqual([]);
  expect(env).toEqual({ PATH: "/bin" });
  expect(hot).toEqual({ PATH: "/bin" });
});

test("a mark left by another process (a parent's) is not this process's: it restarts; an option the user set means no restart", () => {
  const { calls, exec } = recorder();
  restartLean(["mcp-server"], "interpreter", { AGENTMUX_LEAN: "7" }, 42, exec);
  expect(calls.map((c) => c.env.AGENTMUX_LEAN)).toEqual(["42"]);
  const user: Record<string, string | undefined> = { BUN_JSC_useJIT: "1" };
  restartLean(["mcp-server"], "interpreter", user, 42, exec);
  const tuned: Record<string, string | undefined> = { BUN_JSC_thresholdForJITSoon: "50" };
  restartLean(["run", "x"], "hot-only", tuned, 42, exec, true);
  expect(calls).toHaveLength(1);
  expect(user).toEqual({ BUN_JSC_useJIT: "1" });
  expect(tuned).toEqual({ BUN_JSC_thresholdForJITSoon: "50" });
});

test("hot-only is for the compiled binary: from source (a second transpile per process) nothing restarts", () => {
  const { calls, exec } = recorder();
  restartLean(["run", "x"], "hot-only", { PATH: "/bin" }, 42, exec, false);
  expect(calls).toEqual([]);
});

test("which commands run lean: the waiting ones on the interpreter, the launcher's and the orchestrator's hot-only, the short ones as they are", () => {
  const lean = Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, c.lean ?? null]));
  expect(lean).toMatchObject({
    monitor: "interpreter",
    "mcp-server": "interpreter",
    run: "hot-only",
    demo: "hot-only",
    issue: "hot-only",
    resume: "hot-only",
    attach: "hot-only",
    orchestrate: "hot-only",
    "github-action": "hot-only",
  });
  for (const short of ["status", "sessions", "config", "validate", "doctor", "completions", "clean", "init"]) expect(lean[short]).toBeNull();
});

test("a child its parent starts lean (the orchestrator: a restart would close its report pipe) is marked so, takes the options out of its environment and never restarts", () => {
  expect(leanSpawnEnv("hot-only", { PATH: "/bin" }, true)).toEqual({ ...HOT_ONLY, AGENTMUX_LEAN: "spawned" });
  expect(leanSpawnEnv("hot-only", { PATH: "/bin" }, false)).toEqual({});
  expect(leanSpawnEnv("hot-only", { BUN_JSC_thresholdForJITSoon: "5" }, true)).toEqual({});
  const { calls, exec } = recorder();
  const env: Record<string, string | undefined> = { PATH: "/bin", ...leanSpawnEnv("hot-only", { PATH: "/bin" }, true) };
  restartLean(["orchestrate", "/s"], "hot-only", env, 99, exec, true);
  expect(calls).toEqual([]);
  expect(env).toEqual({ PATH: "/bin" });
});
