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

export type InterpretContext = {
  sessionDir: string;
  projectDir: string;
  workDir: string;
  config: Config;
  runtime: AgentRuntime | null;
  /** a headless run: prompts render their unattended variants */
  headless?: boolean;
  log: Logger;
  /** the checks service: runs a batch in the background, its results come back as events */
  checks?: { start(effect: Extract<Effect, { type: "run_checks" }>): void };
  /** the commit flow; resolves with the event to feed back */
  commit: (effect: Extract<Effect, { type: "commit" }>) => Promise<void>;
  finish: (code: number, cleanup: boolean) => void;
};

/** Effects that only touch files: safe to re-run from the outbox after a crash. */
export const FILE_EFFECTS = new Set([
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

/** The one place effects meet the world. Failures throw; the loop turns them into events. */
export async function interpret(effect: Effect, ctx: InterpretContext): Promise<void> {
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
    case "launch_agent":
      return ctx.runtime?.launch(effect.agent, effect.role, effect.label, {
        ...(effect.batch_prompt ? { batchPrompt: effect.batch_prompt } : {}),
        ...(effect.provider ? { provider: effect.provider } : {}),
        ...(effect.conversation ? { conversation: effect.conversation } : {}),
      });
    case "send_prompt":
      return ctx.runtime?.sendPrompt(effect.agent, effect.prompt);
    case "notify_agent":
      return ctx.runtime?.notify(effect.agent, effect.text);
    case "nudge_agent":
      return ctx.runtime ? deliverNudge(ctx.runtime, effect) : undefined;
    case "dismiss_dialog":
      return ctx.runtime?.dismissDialog(effect.agent);
    case "pause_agents":
      return ctx.runtime?.pause(effect.pause);
    case "attention":
      return ctx.runtime ? attention(ctx.runtime, effect.text, effect.agent) : undefined;
    case "show_agents":
      return ctx.runtime?.show(effect.agents);
    case "kill_agent":
      return ctx.runtime?.kill(effect.agent);
    case "show_completion_panel":
      return ctx.runtime?.showPanel();
    case "close_completion_panel":
      return ctx.runtime?.closePanel();
    case "run_checks":
      return ctx.checks?.start(effect);
    case "commit":
      return ctx.commit(effect);
    case "finish":
      return ctx.finish(effect.code, effect.cleanup);
  }
}
