import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { loadConfig } from "../../src/config/load.ts";
import { appendLine } from "../../src/effects/fs/atomic.ts";
import { OrchestratorLoop, type LoopContext } from "../../src/daemon/loop.ts";
import { writeState } from "../../src/session/write.ts";
import { readState } from "../../src/session/read.ts";
import { readToolLines } from "../../src/bus/tool-lines.ts";
import { loadSealKey, sealLine } from "../../src/bus/tool-seal.ts";
import { writeSnapshot } from "../../src/mcp/snapshot.ts";
import { initialState } from "../../src/session/initial-state.ts";
import type { Event } from "../../src/schema/events.ts";
import type { State } from "../../src/schema/state.ts";
import type { LogFields } from "../../src/schema/log.ts";
import { ROLE_TOOLS, type Role, type ToolName } from "../../src/schema/catalog.ts";
import { F, doneArtifact, reviewYaml } from "../../src/protocol/paths.ts";
import { waitFor } from "../helpers/wait.ts";
import { clock, makePlan, settings } from "../orchestrator/fixtures.ts";

/**
 * One step of a scripted run: what the agent writes (session files; `work`: files in the work
 * directory, the code a coder's done artifact claims), then its tool line or a session-file event.
 */
export type Item = { write?: [string, string][]; work?: [string, string][] } & (
  { tool: ToolName; payload: Record<string, unknown>; at: string } | { event: Event }
);

const done = (n: number) =>
  JSON.stringify({
    status: "SUCCESS",
    tasks_completed: [`write src/part${n}.ts`],
    files_created: [`src/part${n}.ts`],
    files_modified: [],
    tests: { files: 1, cases: 1 },
  });

/** A whole run in the order the agents would act: research, architecture, a serial plan of two, one review, summary, approval. */
export function script(): Item[] {
  const now = clock();
  const tool = (t: ToolName, payload: Record<string, unknown>, write?: [string, string][], work?: [string, string][]): Item => ({
    tool: t,
    payload,
    at: now(),
    ...(write ? { write } : {}),
    ...(work ? { work } : {}),
  });
  return [
    { event: { type: "start", at: now() } },
    tool("research_dispatch_code", {
      topic: "limits",
      context: "which limiter",
      questions: ["where are requests handled?"],
      scope_hints: null,
      research_type: "code",
    }),
    tool("research_dispatch_code", { topic: "limits", context: "which limiter", questions: ["again?"], scope_hints: null, research_type: "code" }),
    tool("submit_research_done", { topic: "limits", type: "code" }, [["03_research/code-limits/summary.md", "1. in server.ts\n"]]),
    tool("submit_architecture", { reviewers: ["reviewer_logic"] }, [[F.architecture, "# Architecture\n\nA token bucket.\n"]]),
    tool("submit_plan", {}, [[F.planYaml, stringify(makePlan([{ mode: "serial", plans: [1, 2] }]))]]),
    tool("submit_done", { subplan_index: 1 }, [[doneArtifact(1), done(1)]], [["src/part1.ts", "export const part1 = 1;\n"]]),
    tool("submit_done", { subplan_index: 1 }),
    tool("submit_done", { subplan_index: 2 }, [[doneArtifact(2), done(2)]], [["src/part2.ts", "export const part2 = 2;\n"]]),
    tool("submit_review", { role: "reviewer_logic" }, [
      [reviewYaml("reviewer_logic"), stringify({ verdict: "pass", summary: "good", findings: [], commit_message: "feat: rate limiting" })],
    ]),
    { event: { type: "summary_written", at: now() }, write: [[F.summary, "# Summary\n\nDone.\n"]] },
    { event: { type: "approval_written", at: now(), approval: { action: "approve", exclude_files: [], commit_message: "feat: rate limiting" } } },
  ];
}

export const TOOL_ITEMS = script().filter((i) => "tool" in i).length;

export function newSession(root: string): string {
  const sessionDir = join(root, ".agentmux", ".sessions", "20240101-000000-rate-limit");
  mkdirSync(sessionDir, { recursive: true });
  writeFileSync(join(sessionDir, F.requirements), "# Requirements\n\n## Initial Request\n\nAdd rate limiting\n");
  writeFileSync(join(sessionDir, F.context), "# Context\n");
  const state = initialState({
    featureDir: sessionDir,
    sessionName: "agentmux-rate-limit",
    featureName: "rate-limit",
    projectDir: root,
    productManager: false,
    at: "2024-01-01T00:00:00.000Z",
  });
  writeState(sessionDir, state);
  return sessionDir;
}

const FAST = { intervalMs: 1 };

/** Crash the loop: the write-ahead state of the event stamped `at` is written, then the process "dies". */
export type Crash = { at: string };

/** What the loop logged: the record's fields without its time stamp. */
export type LogEntry = LogFields & { msg: string };

/**
 * Run items [from..] on a fresh loop built from state.json, like a restarted orchestrator.
 * Returns the index of the next item to feed, or null when the run finished.
 */
export async function segment(o: {
  root: string;
  sessionDir: string;
  items: Item[];
  from: number;
  stopAfter?: number;
  crash?: Crash;
  log: LogEntry[];
  promptedSince?: (agent: string, at: string) => boolean;
  /** the commit flow (default: committed at once) */
  commit?: LoopContext["commit"];
}): Promise<{ next: number; result: { code: number; cleanup: boolean } | null }> {
  const { config } = loadConfig({ projectDir: o.root, env: { HOME: o.root } });
  let crashed = false;
  const persist = (s: State) => {
    writeState(o.sessionDir, s);
    if (o.crash && !crashed && s.updated_at === o.crash.at) {
      crashed = true;
      throw new Error("killed after the write-ahead state");
    }
  };
  const key = loadSealKey(o.sessionDir);
  const ctx = {
    sessionDir: o.sessionDir,
    projectDir: o.root,
    workDir: o.root,
    config,
    runtime: null,
    log: (msg: string, fields?: LogFields) => void o.log.push({ msg, ...fields }),
    sealKey: key,
    commit:
      o.commit ?? (async () => ({ type: "committed", at: "2030-01-01T00:00:00.000Z", hash: "abc1234", branch: "feature/rate-limit", pr_url: null }) as const),
    ...(o.promptedSince ? { promptedSince: o.promptedSince } : {}),
  };
  const loop = new OrchestratorLoop(readState(o.sessionDir), settings({ skip_final_approval: true }), ctx, ctx.log, persist);
  await loop.replayOutbox();
  const path = join(o.sessionDir, F.toolEvents);
  let seq = existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).length : 0;
  let pushedTo = loop.state.tool_cursor ?? 0;
  let result: { code: number; cleanup: boolean } | null = null;
  let failure: Error | null = null;
  const first = o.from === 0 ? (o.items[0] as { event: Event }).event : null;
  const running = loop.run(first).then(
    (r) => void (result = r),
    (e) => void (failure = e),
  );
  const settled = () => result !== null || failure !== null;
  let i = first ? 1 : o.from;
  if (first) await waitFor("start applied", () => settled() || (loop.state.updated_at === first.at && !loop.state.outbox), FAST);
  for (; i < o.items.length && !settled(); i++) {
    if (o.stopAfter !== undefined && i > o.stopAfter) break;
    const item = o.items[i]!;
    for (const [dir, files] of [
      [o.sessionDir, item.write],
      [o.root, item.work],
    ] as const) {
      for (const [rel, content] of files ?? []) {
        mkdirSync(join(dir, rel, ".."), { recursive: true });
        writeFileSync(join(dir, rel), content);
      }
    }
    if ("tool" in item) {
      // as the endpoint records an accepted call: a snapshot of the file it vouches for, a sealed line
      const src =
        item.tool === "submit_plan"
          ? F.planYaml
          : item.tool === "submit_review"
            ? reviewYaml(String(item.payload.role))
            : item.tool === "submit_done"
              ? doneArtifact(Number(item.payload.subplan_index))
              : null;
      const payload = src ? { ...item.payload, snapshot: writeSnapshot(o.sessionDir, readFileSync(join(o.sessionDir, src)), src) } : item.payload;
      const role = (Object.keys(ROLE_TOOLS) as Role[]).find((r) => ROLE_TOOLS[r].includes(item.tool))!;
      const body = JSON.stringify({ tool: item.tool, timestamp: item.at, payload, agent: role, role, seq: ++seq });
      appendLine(path, sealLine(key, body));
      for (const line of readToolLines(path, pushedTo)) loop.pushTool(line);
      pushedTo = existsSync(path) ? readFileSync(path).length : 0;
      await waitFor(`${item.tool} applied`, () => settled() || (loop.state.tool_cursor === pushedTo && !loop.state.outbox), FAST);
    } else {
      loop.push(item.event);
      // a turn end the loop drops as stale changes no state: its log line says it was seen
      const dropped = () =>
        item.event.type === "agent_turn_ended" && o.log.some((l) => l.data?.stale_turn_end === true && String(l.msg).includes(item.event.at));
      await waitFor(`${item.event.type} applied`, () => settled() || dropped() || (loop.state.updated_at === item.event.at && !loop.state.outbox), FAST);
    }
  }
  if (i >= o.items.length && !settled()) await running;
  if (failure && !crashed) throw failure;
  // a crash consumed item i-1 (its state was persisted before the "death"); a stop leaves the loop idle
  return { next: i, result };
}
