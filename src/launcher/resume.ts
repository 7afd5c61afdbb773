import { noticeOut } from "./notices.ts";
import { requireRunnableChecks, requireSandbox } from "./sandbox-preflight.ts";
import { runProcess } from "../effects/process/run.ts";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { parseArtifact } from "../artifacts/parse.ts";
import { basename, dirname, join } from "node:path";
import { NotAPythonSession, PythonSession, PythonStateUnconvertible, SessionBeingResumed, SessionBusy, SessionFinished } from "../session/errors.ts";
import { convertPythonState, readPythonState } from "../session/python-state.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { acquireResume, releaseResume } from "../session/resume-lock.ts";
import { continueLeftPaused } from "../session/paused-agents.ts";
import { loadConfig } from "../config/load.ts";
import { ensureFeatureBranch } from "../effects/git/branch.ts";
import { createWorktree } from "../effects/git/worktree.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { killSession } from "../effects/tmux/ops.ts";
import { ownsTmuxSession } from "../session/tmux-owner.ts";
import { prepareResume, type ResumeFacts } from "../orchestrator/resume.ts";
import type { State } from "../schema/state.ts";
import type { Config } from "../schema/config.ts";
import { F, projectOfSession } from "../protocol/paths.ts";
import { follow, startProcesses, type Launched } from "./launch.ts";
import { lastHeartbeat, liveOrchestrator } from "../session/liveness.ts";
import type { ProgressMode } from "./progress.ts";
import { writeState } from "../session/write.ts";
import { readState } from "../session/read.ts";
import { readToolLines } from "../bus/tool-lines.ts";
import { checkSeal, loadSealKey } from "../bus/tool-seal.ts";
import { dropCancelRequest } from "../session/cancel.ts";
import { StopSignals } from "./signals.ts";
import { acquireCheckout, releaseCheckout } from "../session/checkout-lock.ts";
import { CheckoutBusy } from "./errors.ts";

/** What exists on disk for resume inference. */
export function resumeFacts(sessionDir: string): ResumeFacts {
  const has = (p: string) => existsSync(join(sessionDir, p));
  // only calls the run's endpoint sealed count: a line appended by hand says nothing
  const key = loadSealKey(sessionDir);
  const pmDone = readToolLines(join(sessionDir, F.toolEvents), 0).some((l) => l.value?.tool === "submit_pm_done" && checkSeal(key, l.text));
  const beat = lastHeartbeat(sessionDir);
  const plan = parseArtifact("plan", readFileOr(join(sessionDir, F.planYaml)));
  const listed = (dir: string) => (existsSync(join(sessionDir, dir)) ? readdirSync(join(sessionDir, dir)) : []);
  const doneMarkers = listed("06_implementation")
    .flatMap((n) => /^done_(\d+)$/.exec(n)?.[1] ?? [])
    .map(Number);
  return {
    pmDone,
    hasArchitecture: has(F.architecture),
    hasExecutionPlan: has(F.executionPlan),
    hasDesign: has(F.design),
    ...(plan.ok ? { plan: plan.value } : {}),
    doneMarkers,
    hasReview: has(F.reviewMd) || listed("07_review").some((n) => /^review(_[A-Za-z0-9_-]+)?\.ya?ml$/.test(n)),
    hasFixRequest: has(F.fixRequest),
    ...(beat === undefined ? {} : { lastAliveAt: new Date(beat).toISOString() }),
  };
}

const readFileOr = (path: string): string => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

/**
 * Resume a session: refuse while its orchestrator runs; clear a stale tmux session left by a
 * dead orchestrator; infer the phase; restore branch or worktree; start tmux and a new orchestrator.
 */
export type ResumeOptions = {
  sessionDir: string;
  socket: string;
  headless: boolean;
  progress: ProgressMode;
  /** `--config`: from now on the run's last config layer (replaces the one given at start) */
  configPath?: string;
  /** `--keep-session`: keep the folder after a successful commit */
  keepSession?: boolean;
  /** `--from-python`: convert a state.json the Python agentmux wrote (else such a session is refused) */
  fromPython?: boolean;
  out: (l: string) => void;
};

export async function resumeSession(o: ResumeOptions): Promise<number> {
  const signals = new StopSignals();
  try {
    return await resumeTrapped(o, signals);
  } catch (e) {
    signals.dispose();
    throw e;
  } finally {
    releaseResume(o.sessionDir);
  }
}

async function resumeTrapped(o: ResumeOptions, signals: StopSignals): Promise<number> {
  const print = o.out; // progress and result lines; notices go through noticeOut
  o = { ...o, out: noticeOut(o.progress, print) };
  const startedAt = Date.now();
  // a Python session's state is converted in memory; its files change only once the resume is sure to go on (below)
  const adopted = stateToResume(o);
  const state: State = adopted.state;
  if (state.phase === "done") throw new SessionFinished({ dir: o.sessionDir, feature: state.feature_name ?? null });
  // a state.json without its project (written by hand, or by an older tool) has it from where its folder is
  const projectDir = state.main_repo_dir ?? state.project_dir ?? projectOfSession(o.sessionDir) ?? dirname(dirname(dirname(o.sessionDir)));
  const configPath = o.configPath ?? state.config_path;
  // a bad --config, a sandbox or a check that cannot be had are refused here, before anything changes (the resume lock too)
  const { config } = loadConfig({ projectDir, ...(configPath ? { configPath } : {}) });
  await requireSandbox(config, { path: process.env.PATH ?? "", exec: runProcess });
  requireRunnableChecks(config, projectDir);
  // before anything is touched: a second resume of this session stops here
  // (held while this launcher runs: a resume that finds it is told so, or that the run is running)
  const held = acquireResume(o.sessionDir);
  if (!held.ok) throw busyOrBeingResumed(o.sessionDir, held.pid);
  const tmux = new Tmux(o.socket);
  const pid = liveOrchestrator(o.sessionDir);
  if (pid) {
    // agentmux's own commands: attach shows a waiting approval panel again, cancel keeps the run resumable
    const id = basename(o.sessionDir);
    throw new SessionBusy({ dir: o.sessionDir, pid, attach: `agentmux attach ${id}`, stop: `agentmux cancel ${id}` });
  }
  const continued = continueLeftPaused(o.sessionDir);
  if (continued) o.out(`agentmux: continued ${continued} agent process(es) the run's budget pause had left stopped`);
  // another project's run may hold this name: it is not ours to close (ours gets another name)
  if ((await tmux.hasSession(state.session_name)) && (await ownsTmuxSession(tmux, state.session_name, o.sessionDir))) {
    o.out(`agentmux: closing the stale tmux session ${state.session_name} (its orchestrator is gone)`);
    await killSession(tmux, state.session_name).catch(() => {});
  }
  adopted.write?.();
  if (o.configPath && o.configPath !== state.config_path) {
    o.out(`agentmux: ${o.configPath} is the run's last config layer from now on${state.config_path ? ` (instead of ${state.config_path})` : ""}`);
  }
  let next = prepareResume(state, resumeFacts(o.sessionDir), new Date().toISOString());
  next = {
    ...next,
    ...(next.project_dir || next.main_repo_dir ? {} : { project_dir: projectDir }),
    ...(o.headless ? { headless: true } : {}),
    ...(configPath ? { config_path: configPath } : {}),
    ...(o.keepSession ? { keep_session: true } : {}),
  };
  if (state.worktree_path) {
    if (!existsSync(state.worktree_path)) await createWorktree(projectDir, { slug: basename(state.worktree_path), branch: state.feature_branch! });
  } else {
    const taken = acquireCheckout(projectDir, o.sessionDir);
    if (!taken.ok) throw new CheckoutBusy({ projectDir, holder: taken.holder.session });
  }
  let launched: Launched;
  try {
    launched = await launchResumed(o, signals, { state, next, config, projectDir });
  } catch (e) {
    if (!state.worktree_path) releaseCheckout(projectDir, o.sessionDir);
    throw e;
  }
  o.out(`agentmux: resuming ${state.feature_name} in phase ${next.phase}`);
  return follow({ sessionDir: o.sessionDir, state: launched.state, config, headless: o.headless, progress: o.progress, startedAt, signals }, launched, print);
}

function busyOrBeingResumed(sessionDir: string, launcher: number): Error {
  const id = basename(sessionDir);
  const pid = liveOrchestrator(sessionDir);
  if (pid) return new SessionBusy({ dir: sessionDir, pid, attach: `agentmux attach ${id}`, stop: `agentmux cancel ${id}` });
  return new SessionBeingResumed({ dir: sessionDir, pid: launcher, attach: `agentmux attach ${id}` });
}

/**
 * The state to resume, read once: agentmux's own (a state.json agentmux reads is its own, however
 * little it holds), or a Python agentmux's, refused or with --from-python converted in memory:
 * `write` then keeps its state.json as state.python.json and replaces it by agentmux's
 * (session/python-state.ts). A state.json that is neither fails with why agentmux could not read it.
 */
function stateToResume(o: ResumeOptions): { state: State; write?: () => void } {
  let own: State | undefined;
  let unreadable: unknown;
  try {
    own = readState(o.sessionDir);
  } catch (e) {
    unreadable = e;
  }
  if (own) {
    if (o.fromPython) throw new NotAPythonSession({ dir: o.sessionDir, id: basename(o.sessionDir), converted: existsSync(join(o.sessionDir, F.pythonState)) });
    return { state: own };
  }
  const raw = readPythonState(o.sessionDir);
  if (!raw) throw unreadable;
  if (!o.fromPython) throw new PythonSession({ dir: o.sessionDir, id: basename(o.sessionDir) });
  const events = join(o.sessionDir, F.toolEvents);
  const converted = convertPythonState(raw, { sessionDir: o.sessionDir, toolEventsBytes: existsSync(events) ? statSync(events).size : 0 });
  if (!converted.ok) throw new PythonStateUnconvertible({ dir: o.sessionDir, problems: converted.problems });
  const original = readFileSync(join(o.sessionDir, F.state));
  return {
    state: converted.state,
    write: () => {
      writeFileAtomic(join(o.sessionDir, F.pythonState), original, { existingDir: true });
      writeState(o.sessionDir, converted.state);
      o.out(`agentmux: converted the Python agentmux's state.json (kept as ${F.pythonState})`);
    },
  };
}

/** Branch, files and processes of a resumed run; the caller gives the checkout up if this throws. */
async function launchResumed(o: ResumeOptions, signals: StopSignals, r: { state: State; next: State; config: Config; projectDir: string }): Promise<Launched> {
  const { state, next, config, projectDir } = r;
  if (!state.worktree_path && state.feature_branch) await ensureFeatureBranch(projectDir, state.feature_branch);
  // a cancel request nobody applied (the orchestrator died first) is not this run's: drop it
  if (dropCancelRequest(o.sessionDir)) o.out("agentmux: dropped an earlier cancel request that was never applied");
  writeState(o.sessionDir, next);
  signals.checkpoint();
  return startProcesses({ sessionDir: o.sessionDir, state: next, config, workDir: next.worktree_path ?? projectDir });
}
