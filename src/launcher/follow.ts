import { checkSummaryLines } from "../report/checks.ts";
import { usageLine } from "../views/usage.ts";
import { result } from "../report/result.ts";
import { snapshot } from "../report/snapshot.ts";
import { join } from "node:path";
import { F, sessionId } from "../protocol/paths.ts";
import { requestCancel } from "../session/cancel.ts";
import { ProgressPrinter } from "./progress.ts";
import { outcomeFrom } from "./outcome.ts";
import { loopCapLines } from "../views/loop-cap.ts";
import { inertLine, inertText, terminalJson } from "../schema/inert-text.ts";
import type { Orchestrator } from "./spawn.ts";
import type { LaunchOptions } from "./launch.ts";
import type { StopSignals } from "./signals.ts";

/** How long the orchestrator may take to apply a cancel request before it gets the signal itself. */
const CANCEL_GRACE_MS = 10_000;

/**
 * SIGINT, SIGTERM and SIGHUP cancel a headless run the same way: a cancel request for the
 * orchestrator (it stops the agents and tmux, keeps the session and exits 130); should it not
 * react, it gets SIGTERM itself.
 */
function cancelOnSignals(o: LaunchOptions, orch: Orchestrator, signals: StopSignals): () => void {
  let grace: ReturnType<typeof setTimeout> | undefined;
  signals.onSignal((sig) => {
    try {
      requestCancel(o.sessionDir, "cli", sig);
    } catch {
      /* the session folder is gone: the signal below still stops the orchestrator */
    }
    grace ??= setTimeout(() => orch.child.kill("SIGTERM"), CANCEL_GRACE_MS);
  });
  return () => clearTimeout(grace);
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
      spinner.text = inertLine(text);
    },
    stop: () => spinner.stop(),
  };
}

/** Headless: print progress until the orchestrator exits; returns its exit code. */
export async function followHeadless(o: LaunchOptions, orch: Orchestrator, print: (l: string) => void, signals: StopSignals): Promise<number> {
  const spinner = o.progress === "plain" && process.stdout.isTTY ? await startSpinner() : null;
  const raw = spinner ? spinner.print : print;
  // causes, branches and review findings are untrusted text: every progress line prints inert
  const out = (l: string) => raw(inertText(l));
  const printer = new ProgressPrinter(o.sessionDir, o.progress, out, spinner?.status, o.state.decision_waits ?? 0);
  const stopGrace = cancelOnSignals(o, orch, signals);
  const timer = setInterval(() => printer.poll(), 100);
  const { code, signal } = await orch.exited;
  const report = await orch.report;
  spinner?.stop();
  if (process.env.AGENTMUX_DEBUG) out(`debug: orchestrator report ${report ? "received" : "missing"}`);
  clearInterval(timer);
  stopGrace();
  printer.poll();
  if (report) printer.replay(report.state);
  const outcome = outcomeFrom(report, o.sessionDir, printer.last ?? o.state, o.startedAt, { pid: orch.child.pid, code, signal });
  const s = outcome.state ?? o.state;
  if (o.progress === "json") {
    raw(terminalJson(result({ outcome: outcome.kind, exitCode: outcome.code, state: s })));
  } else {
    out("");
    const end = snapshot({ dir: o.sessionDir, state: s, id: sessionId(o.sessionDir), live: false, toolEvents: s.applied_tool_events ?? 0, now: Date.now() });
    for (const t of end.timeline) out(`  ${t.phase.padEnd(18)} ${((t.duration_ms ?? 0) / 1000).toFixed(1)} s`);
    if (outcome.kind === "success")
      out(`session ${sessionId(s.feature_dir)}  branch ${end.branch}  commit ${end.commit_hash}${end.pr_url ? `  PR ${end.pr_url}` : ""}`);
    if (outcome.kind === "success") for (const n of end.notes) out(`note: ${n}`);
    else {
      const resume = end.resume_command;
      out(`${outcome.kind}: ${s.interruption_cause ?? ""}${resume ? `\nresume with: ${resume}\nlog: ${join(s.feature_dir, F.orchestratorLog)}` : ""}`);
    }
    for (const l of loopCapLines(end.review_loop_cap ?? undefined)) out(l);
    for (const l of checkSummaryLines(s)) out(`check ${l}`);
    if (end.usage) out(`usage: ${usageLine(end.usage)}${end.budget_reached !== null ? ` (budget reached: ${end.budget_reached})` : ""}`);
  }
  return outcome.code;
}
