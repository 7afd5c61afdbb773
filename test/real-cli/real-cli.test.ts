/**
 * Opt-in: the real claude, codex and gemini CLIs driven exactly as agentmux drives them
 * (AgentRuntime: buildLaunch + writeLaunchFiles + Layout.createPane + PaneWriter.deliver with
 * the provider's submit/ready/trust and the MCP ready-marker wait), each against a mock model
 * server on 127.0.0.1 from a throwaway HOME.
 *
 *   bash scripts/install-real-clis.sh && AGENTMUX_REAL_CLI=1 ./node_modules/.bin/bun test test/real-cli
 *
 * Skipped unless AGENTMUX_REAL_CLI=1 and the CLI is on PATH or in .real-cli/ (or REAL_CLI_PREFIX).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { settingsFrom } from "../../src/config/settings.ts";
import { readToolLines } from "../../src/bus/tool-lines.ts";
import { toolLineToEvent } from "../../src/bus/tool-events.ts";
import { transition } from "../../src/orchestrator/transition.ts";
import { deliverNudge } from "../../src/daemon/agent-io.ts";
import { toolNameFor } from "../../src/providers/resolve.ts";
import type { State } from "../../src/schema/state.ts";
import { F } from "../../src/protocol/paths.ts";
import { killTmuxServer, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { availability, ENABLED } from "./available.ts";
import { CLIS } from "./clis.ts";
import { UsageReader } from "../../src/providers/usage/read.ts";
import { adapterFor } from "../../src/providers/adapters/registry.ts";
import { launchArchitect, percentile, prepareRun, type Run } from "./harness.ts";

const PROMPTS = 20;

let runs: Run[] = [];
afterEach(async () => {
  for (const r of runs) {
    r.stopMonitor();
    r.turns.stop();
    await r.runtime.kill("architect").catch(() => {});
    r.mcp.stop();
    r.tmux.closeControlClient();
    killTmuxServer(r.socket);
    r.mock.stop();
    if (!process.env.AGENTMUX_REAL_CLI_KEEP) removeDir(r.root);
    else console.log(`kept ${r.root}`);
  }
  runs = [];
});

const dump = (run: Run) =>
  `\n--- agentmux log ---\n${run.log.join("\n")}\n--- mock requests ---\n${run.mock.requests.map((r) => `${r.seq} ${r.method} ${r.url} turn=${r.turn} user=${JSON.stringify(r.lastUserText.slice(-80))} tool=${r.toolResult !== null} offered=${r.offered.filter((o) => o.includes("agentmux") || o.includes("submit")).join(",")}`).join("\n")}`;

for (const cli of CLIS) {
  const { bin, why } = availability(cli);
  if (why && ENABLED) console.log(`[real-cli] ${cli.name}: skipped: ${why}`);

  describe.skipIf(!bin)(`real ${cli.name}`, () => {
    test(`${cli.name}: no dialog, ${PROMPTS}/${PROMPTS} prompts accepted, submit_architecture reaches agentmux and advances the phase`, async () => {
      const run = await prepareRun(cli, bin!);
      runs.push(run);
      await launchArchitect(run, cli);

      // 1: the architect prompt reference; the mock answers with the submit tool call
      const t0 = performance.now();
      run.take(run.runtime.sendPrompt("architect", F.architectPrompt));
      await waitFor("the first delivery", () => run.writer.results.length >= 1, { timeoutMs: 120_000, intervalMs: 50 });
      const first = run.writer.results[0]!;
      expect(first.result, dump(run)).toMatchObject({ ok: true });
      const firstMs = Math.round(performance.now() - t0);
      // the MCP-ready gate: the endpoint saw the CLI's initialize and tools/list before the first prompt
      expect(run.mcp.tokens.ready("architect")).toBe(true);

      const toolEvents = join(run.sessionDir, F.toolEvents);
      const lines = await waitFor(
        "a tool_events.jsonl line",
        () => {
          const got = readToolLines(toolEvents, 0).filter((l) => l.value);
          return got.length ? got : null;
        },
        { timeoutMs: 60_000, intervalMs: 50 },
      ).catch((e) => {
        throw new Error(`${(e as Error).message}${dump(run)}`);
      });
      expect(lines.length).toBe(1);
      expect(lines[0]!.value!.tool).toBe("submit_architecture");
      // sealed by the endpoint, naming the agent its token identified
      expect(lines[0]!.value).toMatchObject({ agent: "architect", role: "architect", seq: 1 });
      const applied = toolLineToEvent(lines[0]!.value!, lines[0]!.text, {
        sessionDir: run.sessionDir,
        key: run.mcp.sealKey,
        phase: run.state.phase,
        appliedSeq: 0,
      });
      if ("skip" in applied) throw new Error("the line was skipped");
      const event = applied.event;
      expect(event.type).toBe("architecture_submitted");
      const next = transition(run.state, event, settingsFrom(run.config));
      expect(next.state.phase).toBe("planning");
      expect(next.effects.some((e) => e.type === "launch_agent" && e.role === "planner")).toBe(true);

      // the model saw agentmux's tool, and got the tool's result back
      const firstTurn = run.mock.turnsWith(F.architectPrompt);
      expect(firstTurn.length, dump(run)).toBe(1);
      expect(firstTurn[0]!.offered.some((o) => o.includes("submit_architecture"))).toBe(true);
      const result = await waitFor("the tool result sent back to the model", () => run.mock.requests.find((r) => r.turn && r.toolResult !== null), {
        timeoutMs: 60_000,
        intervalMs: 50,
      });
      expect(result.toolResult).toContain("Architecture accepted");

      // 2..20: plain prompts through the same verified path, one after another
      for (let i = 2; i <= PROMPTS; i++) {
        const marker = `amx-${cli.name}-marker-${String(i).padStart(2, "0")}`;
        run.take(run.runtime.notify("architect", `Reply with one word for check ${marker}`));
        await waitFor(`delivery ${i}`, () => run.writer.results.length >= i, { timeoutMs: 60_000, intervalMs: 20 });
        expect(run.writer.results[i - 1]!.result, `delivery ${i}${dump(run)}`).toMatchObject({ ok: true });
        await waitFor(`the mock answering ${marker}`, () => run.mock.turnsWith(marker).length > 0, { timeoutMs: 60_000, intervalMs: 20 }).catch((e) => {
          throw new Error(`${(e as Error).message}${dump(run)}`);
        });
      }
      // a last look for late duplicates: the final prompt's turn has finished on screen
      const finalMarker = `amx-${cli.name}-marker-${PROMPTS}`;
      await waitFor(
        "the last answer on screen",
        async () => (await run.tmux.run(["capture-pane", "-p", "-J", "-t", run.runtime.paneOf("architect")!])).includes(`MOCK-REPLY ok ${finalMarker}`),
        { timeoutMs: 30_000, intervalMs: 50 },
      );

      const delivered = run.writer.results.map((r) => r.result);
      expect(delivered.filter((r) => r.ok).length).toBe(PROMPTS);
      for (let i = 2; i <= PROMPTS; i++) {
        const marker = `amx-${cli.name}-marker-${String(i).padStart(2, "0")}`;
        const turns = run.mock.turnsWith(marker);
        expect(turns.length, `${marker} reached the model ${turns.length} times${dump(run)}`).toBe(1);
        expect(turns[0]!.lastUserText.trim()).toBe(`Reply with one word for check ${marker}`);
      }
      // no dialog but those agentmux answers itself (copilot's folder trust: it has no switch for it)
      const answers = run.config.providers[cli.name]!.trust.map((t) => new RegExp(t.detect, "m"));
      const left = run.dialogs.filter((d) => !answers.some((re) => re.test(d.screen)));
      expect(left, left.map((d) => `${d.text} at ${d.atMs} ms:\n${d.screen}`).join("\n")).toEqual([]);
      expect(readToolLines(toolEvents, 0).length).toBe(1);

      const ms = delivered.slice(1).map((r) => (r.ok ? r.ms : NaN));
      const attempts = delivered.map((r) => (r.ok ? r.attempts : 0));
      console.log(
        `[real-cli] ${cli.name} ${readFileSync(join(run.root, "mock-requests.jsonl"), "utf8").split("\n").length - 1} mock requests; ` +
          `launch→ready ${run.readyAtMs} ms, launch→MCP ready ${run.mcpReadyAtMs} ms, first prompt (ready+settle+MCP+submit) ${firstMs} ms, ` +
          `delivery p50 ${percentile(ms, 50)} ms p90 ${percentile(ms, 90)} max ${Math.max(...ms)} ms, submit attempts ${JSON.stringify(attempts)}`,
      );
    }, 300_000);

    test(`${cli.name}: a turn that ends without the submit tool is seen, reminded by name, and the reminder gets the submit (#12.1, #12.2)`, async () => {
      const run = await prepareRun(cli, bin!, { forgetFirstSubmit: true });
      runs.push(run);
      await launchArchitect(run, cli);
      run.turns.start();
      const settings = settingsFrom(run.config, { headless: true });
      let state: State = {
        ...run.state,
        agents: { architect: { role: "architect", label: "[architect] architecture", status: "working", since: run.state.updated_at, provider: cli.name } },
      };
      run.take(run.runtime.sendPrompt("architect", F.architectPrompt));
      const ended = await waitFor("the turn end without a submit", () => run.events.find((e) => e.type === "agent_turn_ended"), {
        timeoutMs: 180_000,
        intervalMs: 50,
      }).catch((e) => {
        throw new Error(`${(e as Error).message}${dump(run)}`);
      });
      const seenAt = performance.now();
      expect(run.mock.requests.some((r) => r.turn && r.answer?.kind === "text" && r.answer.text.startsWith("MOCK-FORGOT"))).toBe(true);
      expect(readToolLines(join(run.sessionDir, F.toolEvents), 0)).toEqual([]);
      // the pure orchestrator decides; the daemon's reminder path delivers
      const r = transition(state, ended, settings);
      state = r.state;
      expect(state.agents!.architect).toMatchObject({ status: "idle_without_submit", idle_turns: 1 });
      const nudge = r.effects.find((e) => e.type === "nudge_agent");
      expect(nudge).toMatchObject({ tool: "submit_architecture", attempt: 1, decide: true });
      deliverNudge(run.runtime, nudge as Extract<(typeof r.effects)[number], { type: "nudge_agent" }>);
      const lines = await waitFor(
        "submit_architecture after the reminder",
        () => {
          const got = readToolLines(join(run.sessionDir, F.toolEvents), 0).filter((l) => l.value?.tool === "submit_architecture");
          return got.length ? got : null;
        },
        { timeoutMs: 120_000, intervalMs: 50 },
      ).catch((e) => {
        throw new Error(`${(e as Error).message}${dump(run)}`);
      });
      const submitMs = Math.round(performance.now() - seenAt);
      expect(lines.length).toBe(1);
      const reminder = run.mock.requests.find((q) => q.turn && q.lastUserText.includes("Your task is not complete until you call"));
      expect(reminder!.lastUserText).toContain(`\`${toolNameFor(cli.name, "submit_architecture")}\``);
      const accepted = run.log.find((l) => l.includes("reminder 1/2 accepted by architect"));
      console.log(
        `[real-cli] ${cli.name} forgotten submit: ${accepted?.replace(/^\d+ /, "") ?? "(no latency logged)"}; reminder → submit_architecture ${submitMs} ms`,
      );
    }, 400_000);

    test(`${cli.name}: the mock's token counts reach agentmux's usage figures through the CLI's own records (#14.2)`, async () => {
      const run = await prepareRun(cli, bin!);
      runs.push(run);
      await launchArchitect(run, cli);
      run.take(run.runtime.sendPrompt("architect", F.architectPrompt));
      const provider = run.config.providers[cli.name]!;
      const reader = new UsageReader();
      const read = () => {
        const id = run.events.findLast((e) => e.type === "conversation_captured" && e.agent === "architect");
        return id?.type === "conversation_captured" ? reader.read(id.id, provider.usage, { sessionDir: run.sessionDir, env: provider.env }) : null;
      };
      // the submit's tool result goes back to the model: two answered turns
      await waitFor("the tool result sent back to the model", () => run.mock.requests.find((r) => r.turn && r.toolResult !== null), {
        timeoutMs: 120_000,
        intervalMs: 50,
      });
      const turns = () => run.mock.requests.filter((r) => r.turn).length;
      // every answer the mock gives says: input 10 tokens; output 12 (anthropic) or 5 (openai, gemini)
      const out = cli.name === "claude" ? 12 : 5;
      const u = await waitFor(
        "the figures of both turns",
        () => {
          const x = read();
          return x && x.output >= 2 * out ? x : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      ).catch((e) => {
        throw new Error(`${(e as Error).message}: read ${JSON.stringify(read())}${dump(run)}`);
      });
      const answered = u.output / out;
      expect(Number.isInteger(answered), dump(run)).toBe(true);
      expect(answered).toBeLessThanOrEqual(turns());
      expect(u.input + u.cached + u.cache_write).toBe(10 * answered);
      expect(u.source as string).toBe(cli.name);
    }, 300_000);

    // the hook the adapter wires for this launch only (claude's Stop, codex's notify, copilot's
    // agentStop plugin, qwen's Stop, opencode's session.idle plugin) appends the launch's id
    test.skipIf(!adapterFor(cli.name)?.turnEndHook)(
      `${cli.name}: the CLI's own turn-end signal reports this launch's id once the turn is over (#27.2)`,
      async () => {
        const run = await prepareRun(cli, bin!);
        runs.push(run);
        await launchArchitect(run, cli);
        run.runtime.sendPrompt("architect", F.architectPrompt);
        const file = join(run.sessionDir, F.turnEnds);
        const ids = await waitFor(
          "a turn-end id from the CLI's hook",
          () => {
            const got = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
            return got.length ? got : null;
          },
          { timeoutMs: 120_000, intervalMs: 100 },
        ).catch((e) => {
          throw new Error(`${(e as Error).message}${dump(run)}`);
        });
        // the turn's end, not the prompt's arrival: the submit's result had gone back to the model
        expect(
          run.mock.requests.some((r) => r.turn && r.toolResult !== null),
          dump(run),
        ).toBe(true);
        expect(ids.map((id) => run.runtime.agentOfTurnId(id))).toEqual(ids.map(() => "architect"));
      },
      300_000,
    );

    // claude and codex are told not to retry (CLAUDE_CODE_MAX_RETRIES=0, request_max_retries=0)
    // and show their error, which agentmux must read as a limit; gemini retries by itself (the
    // mock answers every retry within limitMs with 429 too) and only its spinner shows.
    test(`${cli.name}: a 429 at the start of the turn ${cli.on429 === "shown" ? "is seen as a usage limit and waited out" : "is retried by the CLI itself"}, and the run goes on (#12.4)`, async () => {
      const run = await prepareRun(cli, bin!, { limitFirstTurn: true, limitMs: cli.on429 === "retried" ? 10_000 : 60_000 });
      runs.push(run);
      await launchArchitect(run, cli);
      run.turns.start();
      const settings = settingsFrom(run.config, { headless: true });
      let state: State = {
        ...run.state,
        agents: {
          architect: {
            role: "architect",
            label: "[architect] architecture",
            status: "working",
            since: run.state.updated_at,
            provider: cli.name,
            prompt: { path: F.architectPrompt, template: "architect", vars: {} },
          },
        },
      };
      const t0 = performance.now();
      run.take(run.runtime.sendPrompt("architect", F.architectPrompt));
      const submitted = () => readToolLines(join(run.sessionDir, F.toolEvents), 0).some((l) => l.value?.tool === "submit_architecture");
      const limited = () => run.mock.requests.filter((r) => r.answer?.kind === "text" && r.answer.text === "MOCK-429");
      if (cli.on429 === "retried") {
        await waitFor("submit_architecture once the limit lifts", submitted, { timeoutMs: 180_000, intervalMs: 50 }).catch((e) => {
          throw new Error(`${(e as Error).message}${dump(run)}`);
        });
        // agentmux saw the agent working all along: no turn end, no limit, nothing to recover
        expect(
          run.events.filter((e) => e.type === "agent_turn_ended" || e.type === "agent_rate_limited" || e.type === "agent_dialog"),
          dump(run),
        ).toEqual([]);
        const hits = limited();
        expect(hits.length).toBeGreaterThan(1);
        const spanMs = Date.parse(hits.at(-1)!.t) - Date.parse(hits[0]!.t);
        console.log(
          `[real-cli] ${cli.name} 429: retried by the CLI itself ${hits.length} times in ${spanMs} ms; submit ${Math.round(performance.now() - t0)} ms after the prompt`,
        );
        return;
      }
      const seen = await waitFor(
        "the usage limit at the turn's end",
        () => run.events.find((e) => e.type === "agent_rate_limited" || e.type === "agent_turn_ended"),
        { timeoutMs: 180_000, intervalMs: 50 },
      ).catch((e) => {
        throw new Error(`${(e as Error).message}${dump(run)}`);
      });
      const limitMs = Math.round(performance.now() - t0);
      const sinceAnswerMs = limited().length ? Date.now() - Date.parse(limited()[0]!.t) : NaN;
      expect(seen.type, `${JSON.stringify(seen)}${dump(run)}`).toBe("agent_rate_limited");
      let r = transition(state, seen, settings);
      state = r.state;
      expect(state.agents!.architect).toMatchObject({ status: "rate_limited" });
      const limit = state.agents!.architect!.limit!;
      // the watchdog's reset (here at once): the agent is told to continue its prompt
      r = transition(state, { type: "limit_reset", at: new Date().toISOString(), agent: "architect" }, settings);
      const notice = r.effects.find((e) => e.type === "notify_agent") as { text: string } | undefined;
      expect(notice!.text).toStartWith("The usage limit has reset. Continue your task");
      run.take(run.runtime.notify("architect", notice!.text));
      const resetAt = performance.now();
      await waitFor("submit_architecture after the reset", submitted, { timeoutMs: 120_000, intervalMs: 50 }).catch((e) => {
        throw new Error(`${(e as Error).message}${dump(run)}`);
      });
      // the first request, and the retries the CLI makes by itself before it shows the error
      expect(limited().length).toBe(1 + (cli.retries429 ?? 0));
      console.log(
        `[real-cli] ${cli.name} 429: limit seen ${sinceAnswerMs} ms after the mock's 429 (${limitMs} ms after the prompt; "${limit.text}", reset ${limit.reset_at ?? "not shown"}); submit ${Math.round(performance.now() - resetAt)} ms after the continue notice`,
      );
    }, 400_000);
  });
}
