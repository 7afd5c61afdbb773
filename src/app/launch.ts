import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, openSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { chain, createSession, fitToClientArgs } from "../effects/tmux/session.ts";
import { controlLayoutArgs, controlWidthFor } from "../effects/tmux/layout.ts";
import { installExitHooks } from "../effects/tmux/exits.ts";
import type { Config } from "../schema/config.ts";
import type { State } from "../schema/state.ts";
import { F, LAST_COMPLETION } from "../session/paths.ts";
import { CANCEL_REQUEST } from "../bus/session-files.ts";
import { goodbye, type GoodbyeKind } from "../tui/views/goodbye.ts";
import { phaseDurations, ProgressPrinter, type ProgressMode } from "./progress.ts";
import { selfCommand } from "./self.ts";
import { writeRuntime } from "./store.ts";
import { sessionId } from "../orchestrator/transition.ts";

export type LaunchOptions = {
  sessionDir: string;
  state: State;
  config: Config;
  headless: boolean;
  progress: ProgressMode;
  startedAt: number;
};

/** tmux session (control pane running the monitor) + exit hooks + runtime_state.json. */
export async function startTmux(o: { sessionDir: string; state: State; config: Config }): Promise<Tmux> {
  const tmux = new Tmux(tmuxSocket(o.config.tmux.socket));
  const workDir = o.state.worktree_path ?? o.state.project_dir!;
  const { controlPane } = await createSession(tmux, {
    name: o.state.session_name,
    cwd: workDir,
    width: o.config.tmux.width,
    height: o.config.tmux.height,
    controlWidth: o.config.tmux.control_width,
    controlCommand: [...selfCommand(), "monitor", o.sessionDir],
  });
  await installExitHooks(tmux, o.state.session_name, join(o.sessionDir, F.paneExits));
  await tmux.exec(["set-environment", "-t", `=${o.state.session_name}`, "AMX_CONTROL_PANE", controlPane]);
  writeRuntime(o.sessionDir, { tmux_session: o.state.session_name, tmux_socket: tmux.socket, panes: {}, control_pane: controlPane });
  return tmux;
}

export type FinalReport = { code: number; state: State };
export type Orchestrator = { child: ChildProcess; exited: Promise<{ code: number | null; signal: string | null }>; report: Promise<FinalReport | null> };

/**
 * The orchestrator as a detached process (own session): it survives a closed terminal. Its
 * final state comes back on fd 3 (see reportResult in orchestrator.ts).
 */
export function spawnOrchestrator(sessionDir: string, cwd: string): Orchestrator {
  const self = selfCommand();
  const log = openSync(join(sessionDir, F.orchestratorLog), "a");
  const env: Record<string, string | undefined> = { ...process.env, AGENTMUX_RESULT_FD: "3" };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const child = spawn(self[0]!, [...self.slice(1), "orchestrate", sessionDir], { detached: true, stdio: ["ignore", log, log, "pipe"], cwd, env });
  let text = "";
  const pipe = child.stdio[3] as NodeJS.ReadableStream | null;
  pipe?.on("data", (d: Buffer) => (text += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on("exit", (code, signal) => r({ code, signal })));
  const report = new Promise<FinalReport | null>((r) => {
    const done = () => {
      try {
        r(JSON.parse(text.trim().split("\n").pop() ?? ""));
      } catch {
        r(null);
      }
    };
    if (pipe) pipe.on("close", done);
    else void exited.then(done);
  });
  child.unref();
  (pipe as any)?.unref?.();
  return { child, exited, report };
}

type Outcome = { kind: GoodbyeKind | "running"; state: State | null; code: number };

/** The outcome the orchestrator reported itself (preferred), else what the disk says. */
export function outcomeFrom(report: FinalReport | null, sessionDir: string, state: State, startedAt: number): Outcome {
  if (report) {
    const s = report.state;
    if (report.code === 0 && s.phase === "done") return { kind: "success", state: s, code: 0 };
    if (s.phase === "failed") return { kind: s.interruption_category === "canceled" ? "canceled" : "failed", state: s, code: report.code };
    return { kind: "running", state: s, code: report.code || 1 };
  }
  return outcomeOf(sessionDir, state, startedAt);
}

/** How the run ended, from state.json, or from .last_completion.json once the folder is gone. */
export function outcomeOf(sessionDir: string, state: State, startedAt: number): Outcome {
  let s: State | null = null;
  try {
    s = JSON.parse(readFileSync(join(sessionDir, F.state), "utf8"));
  } catch {}
  if (s?.phase === "done") return { kind: "success", state: s, code: 0 };
  if (s?.phase === "failed") return { kind: s.interruption_category === "canceled" ? "canceled" : "failed", state: s, code: s.interruption_category === "canceled" ? 130 : 1 };
  if (s) return { kind: "running", state: s, code: 1 };
  const last = join(state.main_repo_dir ?? state.project_dir!, LAST_COMPLETION);
  try {
    const lc = JSON.parse(readFileSync(last, "utf8"));
    if (lc.feature_name === state.feature_name && statSync(last).mtimeMs >= startedAt - 1000) {
      return { kind: "success", state: { ...state, phase: "done", commit_hash: lc.commit_hash, pr_url: lc.pr_url, feature_branch: lc.branch_name }, code: 0 };
    }
  } catch {}
  return { kind: "failed", state: { ...state, interruption_cause: "the session folder disappeared before the run finished" }, code: 1 };
}

export function goodbyeText(o: Outcome, fallback: State, startedAt: number, color: boolean): string {
  const s = o.state ?? fallback;
  const kind = o.kind === "running" ? "failed" : o.kind;
  return goodbye(
    kind,
    {
      feature: s.feature_name ?? sessionId(s.feature_dir),
      session: sessionId(s.feature_dir),
      commit: s.commit_hash,
      prUrl: s.pr_url ?? null,
      branch: s.feature_branch,
      elapsedMs: Date.now() - startedAt,
      resumeCommand: s.interruption_resume_command ?? `agentmux resume ${sessionId(s.feature_dir)}`,
      reason: s.interruption_cause ?? (o.kind === "running" ? "the orchestrator stopped without finishing the run" : undefined),
      logPath: existsSync(join(s.feature_dir, F.orchestratorLog)) ? join(s.feature_dir, F.orchestratorLog) : null,
    },
    { color, width: process.stdout.columns || 80 },
  );
}

/** An ora spinner under the progress lines (headless on a terminal): the current phase and agents. */
async function startSpinner(): Promise<{ print: (l: string) => void; status: (text: string) => void; stop: () => void }> {
  const { default: ora } = await import("ora");
  const spinner = ora({ text: "starting", stream: process.stdout, discardStdin: false }).start();
  return {
    print: (l) => {
      spinner.clear();
      process.stdout.write(l + "\n");
      spinner.render();
    },
    status: (text) => {
      spinner.text = text;
    },
    stop: () => spinner.stop(),
  };
}

/** Headless: print progress until the orchestrator exits; returns its exit code. */
export async function followHeadless(o: LaunchOptions, orch: Orchestrator, print: (l: string) => void): Promise<number> {
  const spinner = o.progress === "plain" && process.stdout.isTTY ? await startSpinner() : null;
  const out = spinner ? spinner.print : print;
  const printer = new ProgressPrinter(o.sessionDir, o.progress, out, spinner?.status);
  const onInt = () => writeFileAtomic(join(o.sessionDir, CANCEL_REQUEST), JSON.stringify({ at: new Date().toISOString(), by: "Ctrl-C" }));
  process.on("SIGINT", onInt);
  const timer = setInterval(() => printer.poll(), 100);
  const { code, signal } = await orch.exited;
  const report = await orch.report;
  spinner?.stop();
  if (process.env.AGENTMUX_DEBUG) out(`debug: orchestrator report ${report ? "received" : "missing"}`);
  clearInterval(timer);
  process.off("SIGINT", onInt);
  printer.poll();
  if (report) printer.replay(report.state);
  const outcome = outcomeFrom(report, o.sessionDir, printer.last ?? o.state, o.startedAt);
  const s = outcome.state ?? o.state;
  if (o.progress === "json") {
    out(JSON.stringify({ kind: "result", outcome: outcome.kind, exit_code: outcome.code, session: sessionId(s.feature_dir), commit: s.commit_hash ?? null, branch: s.feature_branch ?? null, pr_url: s.pr_url ?? null, cause: s.interruption_cause ?? null }));
  } else {
    out("");
    for (const p of phaseDurations(s.history ?? [])) out(`  ${p.phase.padEnd(18)} ${(p.ms / 1000).toFixed(1)} s`);
    if (outcome.kind === "success") out(`session ${sessionId(s.feature_dir)}  branch ${s.feature_branch}  commit ${s.commit_hash}${s.pr_url ? `  PR ${s.pr_url}` : ""}`);
    else if (outcome.kind === "running") out(`the orchestrator ${signal ? `was killed by ${signal}` : `exited with ${code}`} before the run finished; resume with: agentmux resume ${sessionId(s.feature_dir)}`);
    else out(`${outcome.kind}: ${s.interruption_cause ?? ""}\nresume with: ${s.interruption_resume_command ?? `agentmux resume ${sessionId(s.feature_dir)}`}\nlog: ${join(s.feature_dir, F.orchestratorLog)}`);
  }
  return outcome.kind === "running" ? 1 : outcome.code;
}

/** Hand this terminal to the session's tmux client until it detaches or the session ends. */
export async function attachTerminal(tmux: Tmux, sessionName: string, controlWidth = 44): Promise<number> {
  // Lay the window out for this terminal before attaching (the client then keeps it sized).
  const cols = process.stdout.columns;
  const rows = process.stdout.rows;
  const win = `=${sessionName}:pipeline`;
  if (cols && rows) {
    const control = (await tmux.exec(["show-environment", "-t", `=${sessionName}`, "AMX_CONTROL_PANE"])).stdout.split("=")[1]?.trim();
    const cmds: string[][] = [["resize-window", "-t", win, "-x", String(cols), "-y", String(rows)]];
    if (control) cmds.push(...controlLayoutArgs(win, control, controlWidthFor(cols, controlWidth)));
    await tmux.exec(chain(cmds));
  }
  await tmux.exec(fitToClientArgs(sessionName));
  const p = Bun.spawn(tmux.argv(["attach-session", "-t", `=${sessionName}`]), { stdio: ["inherit", "inherit", "inherit"], env: { ...process.env, TMUX: "" } });
  return p.exited;
}

/** Interactive: attach this terminal to the tmux session; then the goodbye screen. */
export async function attachAndWait(o: LaunchOptions, tmux: Tmux, orch: Orchestrator): Promise<number> {
  await attachTerminal(tmux, o.state.session_name, o.config.tmux.control_width);
  if (await tmux.hasSession(o.state.session_name)) {
    process.stdout.write(`Detached. The run goes on in the background.\n  re-attach: agentmux attach ${sessionId(o.sessionDir)}\n  status:    agentmux status ${sessionId(o.sessionDir)}\n`);
    return 0;
  }
  await orch.exited;
  const outcome = outcomeFrom(await orch.report, o.sessionDir, o.state, o.startedAt);
  const color = !process.env.NO_COLOR && !!process.stdout.isTTY;
  process.stdout.write(goodbyeText(outcome, o.state, o.startedAt, color) + "\n");
  return outcome.kind === "running" ? 1 : outcome.code;
}
