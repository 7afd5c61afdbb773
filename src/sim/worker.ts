import { existsSync, readFileSync } from "node:fs";
import { basename, relative } from "node:path";
import { SimSession, agentOfPane, conversationFile, sessionOf, type SimEnv } from "./context.ts";
import { appendLine } from "../effects/fs/atomic.ts";
import { recordTurn } from "./transcript.ts";
import type { SimMcp, ToolOutcome } from "./mcp-client.ts";
import { promptPathIn, taskFor } from "./tasks/route.ts";
import { releaseFile } from "./scenario.ts";
import { AgentmuxDown, TaskFailed, type TaskIO } from "./tasks/types.ts";

export type WorkerHooks = {
  say(line: string): void;
  busyChanged(busy: boolean): void;
  /** Scenario crash: exit right after accepting a prompt. */
  exit(code: number): void;
  /** Show a permission dialog; resolves true when allowed (y), false when declined (Esc). */
  dialog(text: string): Promise<boolean>;
};

/** What the usage-limit scenario shows (the sim provider's `limits` pattern matches it). */
export const LIMIT_LINE = (resetS: number) => `[sim] usage limit reached · resets in ${resetS}s`;
export const PERMISSION_LINE = (what: string) => `[sim] permission: ${what}? (y = allow, Esc = decline)`;
/** The least time the simulated agent is busy in a turn that calls no tool (a question, a permission, a note, a forgotten submit). */
const COMPOSE_MS = 600;
export const QUESTION_LINE = "Should the greeting also support other languages, or English only?";

const firstLine = (s: string, n = 160) => (s.split("\n").find((l) => l.trim()) ?? "").trim().slice(0, n);

/**
 * Runs submitted lines one at a time, like an agent CLI: a prompt reference starts its task;
 * lines submitted while busy are queued; any other line is a notice (it wakes a task waiting
 * for research, or is just echoed).
 */
export class SimWorker {
  private queue: string[] = [];
  private running = false;
  private waiting: ((line: string) => void) | null = null;
  /** forget_submit: the submit call the task skipped, made when a reminder arrives */
  private deferred: { name: string; args: Record<string, unknown> } | null = null;
  /** rate_limit: the prompt the limit stopped; the next message continues it (the CLI's conversation goes on) */
  private limited: string | null = null;

  constructor(
    readonly env: SimEnv,
    private readonly mcp: SimMcp | null,
    private readonly hooks: WorkerHooks,
  ) {}

  get busy(): boolean {
    return this.running && this.waiting === null;
  }

  submit(line: string): void {
    this.hooks.say(`› ${line}`);
    const c = this.env.conversation;
    if (c && this.env.sessionDir) {
      const log = conversationFile(this.env.sessionDir, c.id);
      appendLine(log, line.slice(0, 500));
      const turn = readFileSync(log, "utf8").split("\n").filter(Boolean).length;
      recordTurn(this.env.transcript ?? "claude", { sessionDir: this.env.sessionDir, id: c.id, cwd: this.env.workDir, turn });
    }
    if (this.busy) {
      this.queue.push(line);
      this.hooks.say("● queued until the current task is done");
      return;
    }
    this.handle(line);
  }

  /** A prompt file this agent has a task for (a notice may name other files, e.g. a research summary). */
  private taskPrompt(line: string): string | null {
    const path = promptPathIn(line);
    if (!path || !existsSync(path)) return null;
    try {
      return taskFor(relative(sessionOf(path, this.env.sessionDir), path), "") ? path : null;
    } catch {
      return null;
    }
  }

  private handle(line: string): void {
    const path = this.taskPrompt(line);
    if (this.waiting && !path) {
      const wake = this.waiting;
      this.waiting = null;
      this.hooks.busyChanged(true);
      wake(line);
      return;
    }
    if (path) {
      if (this.waiting) {
        this.queue.push(line);
        return;
      }
      void this.runPrompt(path);
      return;
    }
    if (this.deferred) {
      void this.callDeferred(line);
      return;
    }
    if (this.limited) {
      const stopped = this.limited;
      this.limited = null;
      void this.runPrompt(stopped);
      return;
    }
    void this.note(line);
  }

  /** A line that is neither a prompt nor an answer: a short turn that reads it, busy like any turn. */
  private async note(line: string): Promise<void> {
    this.running = true;
    this.hooks.busyChanged(true);
    try {
      await this.compose();
      this.hooks.say(`● noted: ${line.slice(0, 200)}`);
    } finally {
      this.running = false;
      this.hooks.busyChanged(false);
    }
    const next = this.queue.shift();
    if (next !== undefined) this.handle(next);
  }

  /** A reminder after forget_submit: make the submit call the task skipped. */
  private async callDeferred(line: string): Promise<void> {
    const call = this.deferred!;
    this.deferred = null;
    this.running = true;
    this.hooks.busyChanged(true);
    try {
      this.hooks.say(`● reminder: ${line.slice(0, 120)}`);
      await this.callTool(call.name, call.args);
    } finally {
      this.running = false;
      this.hooks.busyChanged(false);
    }
  }

  /** Scenario switches that act before the task: false when the task must not run now (a usage limit). */
  private async misbehave(session: SimSession): Promise<boolean> {
    const { scenario, agent } = this.env;
    if (this.matches(scenario.probe) && session.once.take(`probe.${agent}`)) {
      const { probeSecrets, probeLines } = await import("./probe.ts");
      for (const line of probeLines(probeSecrets({ sessionDir: session.dir, agent, ...(this.env.mcpConfig ? { ownConfig: this.env.mcpConfig } : {}) })))
        this.hooks.say(line);
    }
    if (this.matches(scenario.rate_limit) && session.once.take(`rate_limit.${agent}`)) {
      this.hooks.say(LIMIT_LINE(scenario.limit_reset_s ?? 2));
      this.hooks.say("● stopped: send a message after the reset to continue");
      return false;
    }
    if (this.matches(scenario.ask) && session.once.take(`ask.${agent}`)) {
      await this.compose();
      this.hooks.say("● before I start I need one decision from you.");
      this.hooks.say(QUESTION_LINE);
      const answer = await this.waitQuietly();
      this.hooks.say(`● answer: ${answer.slice(0, 160)}`);
    }
    if (this.matches(scenario.permission) && session.once.take(`permission.${agent}`)) {
      await this.compose();
      const allowed = await this.hooks.dialog(PERMISSION_LINE(`run \`npm test\` in ${this.env.workDir}`));
      this.hooks.say(allowed ? "● permission given: running npm test" : "● permission declined: going on without npm test");
    }
    return true;
  }

  /**
   * Busy for a moment before a question, a permission request, a note, or the end of a turn that
   * calls no tool (forget_submit), as a real CLI is while its model writes (seconds): going from the
   * prompt to idle in no time showed no sign that the prompt was taken, and a loaded machine's
   * delivery pressed Enter again.
   */
  private compose(): Promise<void> {
    return Bun.sleep(Math.max(this.env.thinkMs, COMPOSE_MS));
  }

  /** Go idle until a line arrives (an answer), without a "waiting" line under the question. */
  private waitQuietly(): Promise<string> {
    return new Promise<string>((resolve) => {
      this.waiting = resolve;
      this.hooks.busyChanged(false);
    });
  }

  private matches(target: string | undefined): boolean {
    return target !== undefined && (target === this.env.role || target === this.env.agent);
  }

  /** Run the task for one prompt file; resolves when it is done (or failed). */
  async runPrompt(path: string): Promise<boolean> {
    this.limited = null;
    this.running = true;
    this.hooks.busyChanged(true);
    let ok = false;
    try {
      const session = new SimSession(this.env, sessionOf(path, this.env.sessionDir));
      this.env.agent = agentOfPane(session.dir, this.env.pane) ?? this.env.agent;
      const { scenario } = this.env;
      if (this.matches(scenario.crash) || (this.matches(scenario.crash_once) && session.once.take(`crash.${this.env.agent}`))) {
        this.hooks.say("✗ simulated crash (scenario)");
        this.hooks.exit(3);
        return false;
      }
      if (this.matches(scenario.stall)) {
        this.hooks.say("● accepted the prompt (stalling: scenario)");
        return await new Promise<boolean>(() => undefined);
      }
      if (!(await this.misbehave(session))) {
        this.limited = path;
        return false;
      }
      await this.holdIfAsked(session.dir, path);
      const prompt = readFileSync(path, "utf8");
      const rel = relative(session.dir, path);
      const task = taskFor(rel, prompt);
      if (!task) {
        this.hooks.say(`● read ${rel}: no task for this prompt`);
      } else {
        this.hooks.say(`● ${task.name}: ${rel}`);
        await task.run(this.io(session));
        this.hooks.say(`✓ ${task.name} done`);
        ok = true;
      }
    } catch (e) {
      this.hooks.say(`✗ ${e instanceof TaskFailed ? e.message : ((e as Error).message ?? String(e))}`);
    } finally {
      this.running = false;
      this.hooks.busyChanged(false);
    }
    const next = this.queue.shift();
    if (next !== undefined) this.handle(next);
    return ok;
  }

  /** hold=<prompt>: stay busy on this prompt until its release file appears. */
  private async holdIfAsked(sessionDir: string, path: string): Promise<void> {
    const name = basename(path, ".md");
    if (!this.env.scenario.hold?.includes(name)) return;
    const file = releaseFile(sessionDir, name);
    if (existsSync(file)) return;
    this.hooks.say(`● held on ${name} until ${file} exists (scenario)`);
    while (!existsSync(file)) await Bun.sleep(20);
    this.hooks.say(`● released: ${name}`);
  }

  private io(session: SimSession): TaskIO {
    return {
      s: session,
      say: (line) => this.hooks.say(line),
      tool: (name, args) => {
        // forget_submit: end the turn without the submit call, once; a reminder makes it
        if (name.startsWith("submit_") && this.matches(this.env.scenario.forget_submit) && session.once.take(`forget_submit.${this.env.agent}`)) {
          this.deferred = { name, args };
          this.hooks.say(`● (the work is done; ending the turn without calling ${name})`);
          // a turn with no tool call shows only busy as the sign its prompt was taken: long enough to be seen
          return this.compose().then(() => ({ ok: true, text: "(not called)" }));
        }
        return this.callTool(name, args);
      },
      think: () => (this.env.thinkMs > 0 ? Bun.sleep(this.env.thinkMs) : Promise.resolve()),
      crash: () => {
        this.hooks.say("✗ simulated crash midway (scenario)");
        this.hooks.exit(3);
        return new Promise<never>(() => undefined);
      },
      waitForNotice: (what) =>
        new Promise<string>((resolve) => {
          this.waiting = resolve;
          this.hooks.say(`● idle: waiting for ${what}`);
          this.hooks.busyChanged(false);
          const next = this.queue.shift();
          if (next !== undefined) this.handle(next);
        }),
    };
  }

  private async callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    this.hooks.say(`⚙ ${name}(${JSON.stringify(args).slice(0, 120)})`);
    const r: ToolOutcome = this.mcp ? await this.mcp.call(name, args) : { ok: false, text: "no MCP server configured (start with --mcp-config FILE)" };
    this.hooks.say(`${r.ok ? "✓" : "✗ tool error:"} ${name}: ${firstLine(r.text) || (r.ok ? "ok" : "refused")}`);
    if (!r.ok) for (const line of r.text.split("\n").slice(1, 6)) if (line.trim()) this.hooks.say(`    ${line.trim().slice(0, 160)}`);
    // like a real agent told so: stop here; agentmux prompts again once the run is resumed
    if (r.down) throw new AgentmuxDown(r.text);
    return r;
  }
}
