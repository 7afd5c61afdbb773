import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { appendLine, writeFileAtomic } from "../effects/fs/atomic.ts";
import type { Effect } from "../schema/effects.ts";
import type { Config } from "../schema/config.ts";
import { renderPrompt } from "../prompts/render.ts";
import { resolveRole, toolNameForAgent } from "../providers/resolve.ts";
import { parseFileText, SessionFileRefused } from "../session/file-io.ts";
import { sessionFileAt } from "../protocol/files.ts";
import { tasksFile } from "../protocol/paths.ts";
import { fileBlobId } from "../effects/git/blob-id.ts";
import type { AgentRuntime } from "./agents.ts";
import { attention, deliverNudge } from "./agent-io.ts";
import { interruptionNote } from "./interruption.ts";
import type { Logger } from "../effects/log.ts";
import type { Event } from "../schema/events.ts";
import { nothing, produced, toCome, type Outcome, type Later } from "./outcome.ts";

/** Every effect but `finish`, which ends the loop itself (loop.ts): no effect on the world. */
export type WorldEffect = Exclude<Effect, { type: "finish" }>;

export type InterpretContext = {
  sessionDir: string;
  projectDir: string;
  workDir: string;
  config: Config;
  runtime: AgentRuntime | null;
  /** a headless run: prompts render their unattended variants */
  headless?: boolean;
  log: Logger;
  /** the checks service: runs a batch in the background; its results are the batch's events to come */
  checks?: { start(effect: Extract<Effect, { type: "run_checks" }>): Later };
  /** the commit flow; resolves with its outcome's event */
  commit: (effect: Extract<Effect, { type: "commit" }>) => Promise<Event>;
};

type FileEffect = Extract<
  Effect,
  { type: "write_file" | "append_file" | "delete_file" | "delete_matching" | "write_prompt" | "record_baseline" | "check_off_tasks" | "log" }
>;

/** Effects that only touch files: safe to re-run from the outbox after a crash. */
export const FILE_EFFECTS: ReadonlySet<Effect["type"]> = new Set<FileEffect["type"]>([
  "write_file",
  "append_file",
  "delete_file",
  "delete_matching",
  "write_prompt",
  "check_off_tasks",
  "record_baseline",
  "log",
]);

const inSession = (ctx: InterpretContext, rel: string) => {
  const abs = join(ctx.sessionDir, rel);
  if (!abs.startsWith(ctx.sessionDir + "/")) throw new Error(`effect path escapes the session folder: ${rel}`);
  return abs;
};

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

function checkOffTasks(ctx: InterpretContext, index: number, tasks: string[]): void {
  const path = inSession(ctx, tasksFile(index));
  if (!existsSync(path)) return;
  const wanted = new Set(tasks.map(norm));
  const text = readFileSync(path, "utf8");
  const next = text.replace(/^- \[ \] (.+)$/gm, (line, task: string) => (wanted.has(norm(task)) ? `- [x] ${task}` : line));
  if (next !== text) writeFileAtomic(path, next);
}

function appendOnce(path: string, line: string): void {
  if (existsSync(path) && readFileSync(path, "utf8").split("\n").includes(line)) return;
  appendLine(path, line);
}

/**
 * A write_file of a registered structured file (execution_plan.yaml, …) must satisfy the
 * registry's schema: the orchestrator never writes a session file that breaks its contract.
 */
function checkedWrite(ctx: InterpretContext, rel: string, content: string): void {
  const file = sessionFileAt(rel);
  if (file && (file.syntax === "json" || file.syntax === "yaml")) {
    const r = parseFileText(file, content);
    if (!r.ok) throw new SessionFileRefused({ path: inSession(ctx, rel), name: rel, problems: r.problems });
  }
  writeFileAtomic(inSession(ctx, rel), content);
}

/**
 * The one place effects meet the world, and the one way their outcomes come back: the events an
 * effect produced, now or still to come (outcome.ts). Failures throw; the loop turns them into events.
 */
export async function interpret(effect: WorldEffect, ctx: InterpretContext): Promise<Outcome> {
  const rt = ctx.runtime;
  switch (effect.type) {
    case "write_file":
    case "append_file":
    case "delete_file":
    case "delete_matching":
    case "write_prompt":
    case "record_baseline":
    case "check_off_tasks":
    case "log":
      await fileEffect(effect, ctx);
      return nothing();
    case "launch_agent":
      if (!rt) return nothing();
      return rt.launch(effect.agent, effect.role, effect.label, {
        ...(effect.batch_prompt ? { batchPrompt: effect.batch_prompt } : {}),
        ...(effect.provider ? { provider: effect.provider } : {}),
        ...(effect.conversation ? { conversation: effect.conversation } : {}),
      });
    case "send_prompt":
      return rt ? rt.sendPrompt(effect.agent, effect.prompt) : nothing();
    case "notify_agent":
      return rt ? rt.notify(effect.agent, effect.text) : nothing();
    case "nudge_agent":
      return rt ? deliverNudge(rt, effect) : nothing();
    case "run_checks":
      return ctx.checks ? toCome(ctx.checks.start(effect)) : nothing();
    case "commit":
      return produced(await ctx.commit(effect));
    case "dismiss_dialog":
      await rt?.dismissDialog(effect.agent);
      return nothing();
    case "pause_agents":
      rt?.pause(effect.pause);
      return nothing();
    case "attention":
      if (rt) await attention(rt, effect.text, effect.agent);
      return nothing();
    case "show_agents":
      await rt?.show(effect.agents);
      return nothing();
    case "kill_agent":
      await rt?.kill(effect.agent);
      return nothing();
    case "show_completion_panel":
      await rt?.showPanel();
      return nothing();
    case "close_completion_panel":
      await rt?.closePanel();
      return nothing();
  }
}

/** Effects on the session's files (and the log): they produce no event. */
async function fileEffect(effect: FileEffect, ctx: InterpretContext): Promise<void> {
  switch (effect.type) {
    case "write_file":
      return checkedWrite(ctx, effect.path, effect.content);
    case "append_file":
      return appendOnce(inSession(ctx, effect.path), effect.content);
    case "delete_file":
      return rmSync(inSession(ctx, effect.path), { force: true });
    case "delete_matching": {
      const dir = inSession(ctx, effect.dir);
      if (!existsSync(dir)) return;
      const re = new RegExp(effect.pattern);
      for (const f of readdirSync(dir)) if (re.test(f)) rmSync(join(dir, f), { force: true });
      return;
    }
    case "write_prompt": {
      // the agent's own CLI names the tools (a fallback provider's may differ from the role's)
      const resolved = (effect.agent ? ctx.runtime?.resolvedOf(effect.agent) : undefined) ?? resolveRole(ctx.config, effect.role);
      const text = renderPrompt({
        template: effect.template,
        vars: effect.vars,
        sessionDir: ctx.sessionDir,
        projectDir: ctx.projectDir,
        workDir: ctx.workDir,
        role: effect.role,
        toolName: (tool) => toolNameForAgent(resolved, tool),
        askTool: resolved.provider.ask_tool ?? null,
        subAgentTool: resolved.provider.sub_agent_tool,
        headless: ctx.headless === true,
      });
      const note = effect.interrupted ? await interruptionNote(ctx.workDir, ctx.sessionDir, effect.vars) : "";
      return writeFileAtomic(inSession(ctx, effect.path), text + note);
    }
    case "record_baseline": {
      if (existsSync(inSession(ctx, effect.path))) return;
      const files = Object.fromEntries(effect.files.map((f) => [f, fileBlobId(join(ctx.workDir, f))]));
      return checkedWrite(ctx, effect.path, JSON.stringify({ round: effect.round, files }, null, 2) + "\n");
    }
    case "check_off_tasks":
      return checkOffTasks(ctx, effect.plan_index, effect.tasks);
    case "log":
      return ctx.log(effect.message, { event: "state_machine", agent: effect.agent, ...(effect.note ? { data: { note: effect.note, ...effect.data } } : {}) });
  }
}
