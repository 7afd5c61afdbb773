/**
 * Handoff with the real agent CLIs (opt-in, #15.4): from an agent's tool call to the next
 * agent's prompt accepted. The architect runs on the CLI under test against the mock model of
 * test/real-cli (which answers the architect prompt with submit_architecture); as soon as that
 * line is in tool_events.jsonl the bench does what the orchestrator does — launch the planner
 * through agentmux's AgentRuntime and deliver its prompt (ready gate, MCP-ready wait, verified
 * submit) — and times it until the delivery is accepted.
 *
 *   cold_ms        the planner's CLI is started at the handoff (what a run does today)
 *   prestarted_ms  the planner was pre-started (AgentRuntime.prestart, as the orchestrator does
 *                  while the architect works), its MCP client connected and its input prepared by
 *                  the handoff, where launch takes the pane over: the prompt delivery alone
 *                  (#15.3); target ≤ 500
 * Medians over the runs, per CLI (BENCH_VERBOSE=1 also prints, per handoff, the launch and the
 * delivery's steps from the log: ready gate, paste shown, submit delay, submit taken). Needs the CLIs (scripts/install-real-clis.sh) and, like the
 * real-CLI suite, an ordinary user with HOME outside /tmp:
 *   runuser -u amx-real-cli -- env HOME=/home/amx-real-cli PATH=$PATH REAL_CLI_PREFIX=/work/real-cli \
 *     node_modules/.bin/bun bench/handoff.ts [runs=3] [claude,codex,gemini]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { readToolLines } from "../src/bus/tool-lines.ts";
import { F } from "../src/protocol/paths.ts";
import { killTmuxServer, removeDir } from "../test/helpers/tmp.ts";
import { waitFor } from "../test/helpers/wait.ts";
import { CLIS, findCli, type CliDef } from "../test/real-cli/clis.ts";
import { launchArchitect, prepareRun, type Run } from "../test/real-cli/harness.ts";

const runs = Number(process.argv[2] ?? 3);
const only = process.argv[3]?.split(",");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function handoff(cli: CliDef, bin: string, prestart: boolean): Promise<number> {
  const run: Run = await prepareRun(cli, bin);
  try {
    const planner = join(run.sessionDir, F.plannerPrompt);
    mkdirSync(dirname(planner), { recursive: true });
    writeFileSync(planner, "# Planner\n\nWrite 04_planning/plan.yaml, then call submit_plan.\n");
    await launchArchitect(run, cli);
    if (prestart) {
      // pre-started as the orchestrator does while the architect works (#15.3); ready as it would
      // be at the handoff: its MCP client connected to the run's endpoint
      run.runtime.prestart({ agent: "planner", role: "planner" });
      await waitFor("the pre-started planner's MCP connection", () => run.mcp.tokens.ready("planner"), { timeoutMs: 120_000, intervalMs: 20 });
      // and its input ready, as the pool prepares it: a real phase lasts minutes, longer than any
      // CLI's start (claude's MCP client connects about a second before its input box shows)
      await waitFor("the pre-started planner prepared", () => run.log.some((l) => /pre-started planner (ready for its prompt|not ready yet)/.test(l)), {
        timeoutMs: 120_000,
        intervalMs: 20,
      });
    }
    run.runtime.sendPrompt("architect", F.architectPrompt);
    const events = join(run.sessionDir, F.toolEvents);
    const line = await waitFor("submit_architecture", () => readToolLines(events, 0).find((l) => l.value?.tool === "submit_architecture")?.value ?? null, {
      timeoutMs: 180_000,
      intervalMs: 5,
    });
    const toolAt = Date.parse(line.timestamp);
    // the handoff: a cold start, or the pre-started pane taken over
    await run.runtime.launch("planner", "planner", "[planner] plan");
    run.runtime.sendPrompt("planner", F.plannerPrompt);
    const delivered = await waitFor("the planner's prompt accepted", () => run.writer.results.find((r) => r.text.includes(F.plannerPrompt)) ?? null, {
      timeoutMs: 180_000,
      intervalMs: 5,
    });
    const ms = Date.now() - toolAt;
    // where the time went: the launch (a take-over when pre-started) and the delivery's steps
    const steps = run.log
      .filter((l) => /launched planner|pre-started planner|delivered to|planner: MCP ready/.test(l))
      .map((l) => l.replace(/: \/.*$/, "").slice(0, 200));
    if (process.env.BENCH_VERBOSE) console.log(`${cli.name} ${prestart ? "pre-started" : "cold"} ${ms} ms after the tool call:\n  ${steps.join("\n  ")}`);
    if (!delivered.result.ok) throw new Error(`${cli.name}: the planner's prompt was not accepted: ${JSON.stringify(delivered.result)}\n${run.log.join("\n")}`);
    return ms;
  } finally {
    run.stopMonitor();
    run.turns.stop();
    for (const a of ["architect", "planner"]) await run.runtime.kill(a).catch(() => {});
    run.tmux.closeControlClient();
    killTmuxServer(run.socket);
    run.mcp.stop(); // the run's endpoint: left listening, the bench never exited
    run.mock.stop();
    removeDir(run.root);
  }
}

if (import.meta.main) {
  if (process.getuid?.() === 0 || homedir().startsWith("/tmp/"))
    throw new Error("run as an ordinary user with HOME outside /tmp (see the header): the CLIs treat root and /tmp specially");
  const out: Record<string, { cold_ms: number; prestarted_ms: number; runs: number }> = {};
  for (const cli of CLIS.filter((c) => !only || only.includes(c.name))) {
    const bin = findCli(cli.name);
    if (!bin) {
      console.log(`${cli.name}: not installed (scripts/install-real-clis.sh), skipped`);
      continue;
    }
    const cold: number[] = [];
    const pre: number[] = [];
    for (let i = 0; i < runs; i++) {
      cold.push(await handoff(cli, bin, false));
      pre.push(await handoff(cli, bin, true));
      console.log(`${cli.name} run ${i + 1}: cold ${cold.at(-1)} ms, pre-started ${pre.at(-1)} ms`);
    }
    out[cli.name] = { cold_ms: median(cold), prestarted_ms: median(pre), runs };
  }
  console.log(JSON.stringify({ bench: "handoff", ...out }));
}
