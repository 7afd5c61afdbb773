import { expect, test } from "bun:test";
import { restartWithoutJit } from "../../src/effects/process/lean.ts";
import { selfCommand } from "../../src/effects/process/self.ts";

type Exec = { file: string; argv: string[]; env: Record<string, string> };
const recorder = () => {
  const calls: Exec[] = [];
  return { calls, exec: (file: string, argv: string[], env: Record<string, string>) => void calls.push({ file, argv, env }) };
};

test("a process not yet restarted replaces itself with the same command line, BUN_JSC_useJIT=0 and its pid as the restart mark (#15.2)", () => {
  const { calls, exec } = recorder();
  restartWithoutJit(["monitor", "/s"], { PATH: "/bin" }, 42, exec);
  expect(calls).toEqual([{ file: selfCommand()[0]!, argv: [...selfCommand(), "monitor", "/s"], env: { PATH: "/bin", BUN_JSC_useJIT: "0", AGENTMUX_INTERPRETED: "42" } }]);
});

test("the restarted image takes the option and the mark out of its environment (what it starts gets its JIT) and does not restart again", () => {
  const { calls, exec } = recorder();
  const env: Record<string, string | undefined> = { PATH: "/bin", BUN_JSC_useJIT: "0", AGENTMUX_INTERPRETED: "42" };
  restartWithoutJit(["monitor"], env, 42, exec);
  expect(calls).toEqual([]);
  expect(env).toEqual({ PATH: "/bin" });
});

test("a mark left by another process (a parent's) is not this process's: it restarts; a user's own BUN_JSC_useJIT means no restart", () => {
  const { calls, exec } = recorder();
  restartWithoutJit(["mcp-server"], { AGENTMUX_INTERPRETED: "7" }, 42, exec);
  expect(calls.map((c) => c.env.AGENTMUX_INTERPRETED)).toEqual(["42"]);
  const user: Record<string, string | undefined> = { BUN_JSC_useJIT: "1" };
  restartWithoutJit(["mcp-server"], user, 42, exec);
  expect(calls).toHaveLength(1);
  expect(user).toEqual({ BUN_JSC_useJIT: "1" });
});
