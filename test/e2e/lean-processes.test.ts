import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, processesMentioning, runBinary } from "./harness.ts";

/**
 * #15.2: the compiled launcher and orchestrator restart themselves once with JIT only for hot
 * code, the monitor on the interpreter (bench/footprint.ts measures what that saves), and none
 * of those options reaches an agent: an agent CLI built on bun must run as it would anyway.
 */
let bin: string;
const socket = privateSocket();
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => killTmuxServer(socket));

/** The environment a process was started with (execve's, not what it changed since). */
const environ = (pid: number | string) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
const jscOptions = (pid: number | string) => environ(pid).filter((v) => v.startsWith("BUN_JSC_"));
const HOT_ONLY = ["BUN_JSC_thresholdForJITAfterWarmUp=1000000", "BUN_JSC_thresholdForJITSoon=1000000"];

test("launcher and orchestrator run hot-only, the monitor without JIT, the agents with what they were given", async () => {
  const root = makeTmpDir("amx-lean-");
  const repo = join(root, "repo");
  const run = runBinary(bin, ["demo", "--ci", "--json", "--dir", repo, "--scenario", "stall=coder"], { socket, env: { AGENTMUX_DEBUG: "1" } });
  const sessions = join(repo, ".agentmux", ".sessions");
  const dir = await waitFor(
    "the coder to be working",
    () => {
      if (!existsSync(sessions)) return null;
      const id = readdirSync(sessions).find((n) => !n.startsWith("."));
      if (!id) return null;
      const s = JSON.parse(readFileSync(join(sessions, id, "state.json"), "utf8"));
      return s.agents?.coder?.status === "working" ? join(sessions, id) : null;
    },
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  try {
    const runtime = JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8"));
    const pidOf = (command: string) =>
      Number(
        processesMentioning(`${bin} ${command}`)
          .find((l) => l.includes(repo))
          ?.split(" ")[0],
      );
    const launcher = pidOf("demo");
    const monitor = pidOf("monitor");
    expect(jscOptions(launcher).sort()).toEqual(HOT_ONLY);
    expect(jscOptions(runtime.orchestrator_pid).sort()).toEqual(HOT_ONLY);
    expect(jscOptions(monitor)).toEqual(["BUN_JSC_useJIT=0"]);
    const agents: number[] = Object.values(runtime.pids);
    expect(agents.length).toBeGreaterThan(0);
    for (const pid of agents) expect(jscOptions(pid)).toEqual([]);
    // the orchestrator is started lean, never restarted: a restart (execve) would close the
    // pipe on fd 3 its result goes back on
    expect(environ(runtime.orchestrator_pid)).toContain("AGENTMUX_LEAN=spawned");
    expect(readlinkSync(`/proc/${runtime.orchestrator_pid}/fd/3`)).toMatch(/^(pipe|socket):/);
    expect(Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${runtime.orchestrator_pid}/status`, "utf8"))?.[1])).toBe(launcher);
  } finally {
    writeFileSync(join(dir, ".runtime", "cancel_request"), JSON.stringify({ at: new Date().toISOString(), by: "monitor" }));
  }
  const r = await run;
  expect(r.code).toBe(130);
  expect(r.stdout).toContain("debug: orchestrator report received");
}, 120_000);
