import { serveRunPage } from "./serve-page.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config/load.ts";
import { defineError } from "../errors.ts";
import type { State } from "../schema/state.ts";
import { firstRunNotice, missingAgentClis } from "../onboarding/first-run.ts";
import { requireRunnableChecks, requireSandbox } from "./sandbox-preflight.ts";
import { runProcess } from "../effects/process/run.ts";
import { NoAgentCli, NoRepositoryForRun } from "../onboarding/errors.ts";
import { NotAGitRepo } from "../effects/git/errors.ts";
import { currentBranch, findRepoRoot, headCommit } from "../effects/git/repo.ts";
import { ghAvailable } from "../effects/gh.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { renderPrompt } from "../prompts/render.ts";
import { toolNameFor } from "../providers/resolve.ts";
import { createSessionDir, sessionNotCreated } from "../session/create.ts";
import { F } from "../protocol/paths.ts";
import { follow, startProcesses, type Launched } from "./launch.ts";
import type { ProgressMode } from "./progress.ts";
import { settingsFrom } from "../config/settings.ts";
import { SIM_SWITCHES, parseScenarioText } from "../schema/sim-scenario.ts";
import { SimScenarioInConfig } from "../config/errors.ts";
import type { Origin } from "../config/merge.ts";
import { writeState } from "../session/write.ts";
import { StopSignals } from "./signals.ts";
import { termUnusable } from "./terminal.ts";
import { acquireCheckout, releaseCheckout } from "../session/checkout-lock.ts";
import { prepareCheckout, undoCheckout } from "./checkout.ts";
import { announceLiveSessions, githubPlan, noticeOut } from "./notices.ts";

export type StartOptions = {
  cwd: string;
  request: string;
  slugSource?: string;
  name?: string;
  productManager: boolean;
  worktree: boolean;
  keepSession: boolean;
  configPath?: string;
  headless: boolean;
  progress: ProgressMode;
  issue?: { number: number; title: string };
  /** fetch and fast-forward the base branch from origin before branching (`agentmux issue`) */
  pullBase?: boolean;
  /**
   * Continue an existing branch and its pull request with a fix round: the checkout must be on
   * `branch`; the run starts in `fixing` with `findings` as the fix request, then the reviewers
   * check them; the commit goes on the same branch and no second pull request is opened.
   */
  round?: ReviewRound;
  /** serve the run's web page beside it (`--serve`) */
  serve?: boolean;
  /** called once the session folder exists and its processes run, before the run is followed */
  onStarted?: (session: { dir: string; id: string; state: State }) => void;
  out: (line: string) => void;
};

export type ReviewRound = { branch: string; pullRequestUrl: string; findings: string };

export const RoundBranchMismatch = defineError("RoundBranchMismatch", "git", (d: { root: string; want: string; current: string | null }) => ({
  message: `a review round continues branch "${d.want}", but the checkout is on ${d.current ? `"${d.current}"` : "a detached HEAD"}`,
  where: d.root,
  hint: `check out the branch first: git switch ${d.want}`,
}));

export const RoundInWorktree = defineError("RoundInWorktree", "usage", (_: Record<string, never>) => ({
  message: "a review round works in the checkout of its branch, not in a worktree",
  where: "--worktree",
}));

export const RoundCheckoutTaken = defineError("RoundCheckoutTaken", "session", (d: { root: string; holder: string }) => ({
  message: `another run (${d.holder}) is working in this checkout; a review round needs the checkout of its branch`,
  where: d.root,
  hint: `wait for it to finish (agentmux status ${d.holder}), then start the round again`,
}));
/**
 * The simulated agents' scenario switches (sim.scenario, or AGENTMUX_SIM_SCENARIO when no file
 * sets it) are checked before anything starts (exit 2); the error names where they came from.
 */
function checkSimScenario(config: import("../schema/config.ts").Config, origin: Origin): void {
  const r = parseScenarioText(config.sim.scenario);
  if (!r.ok) throw new SimScenarioInConfig({ problems: r.message, switches: SIM_SWITCHES, ...(origin.layer === "env" ? { where: origin.file } : {}) });
}

export function isHeadless(ciFlag: boolean): boolean {
  return ciFlag || process.env.CI === "true" || process.env.CI === "1" || !process.stdout.isTTY || !process.stdin.isTTY || termUnusable();
}

/**
 * A run owns the checkout it works in (#11.2). When another live run holds this one, the new
 * run works in a worktree of its own instead of switching the branch under the other — and
 * says so. Returns true when the run must use a worktree.
 */
function needsOwnWorktree(projectDir: string, sessionDir: string, out: (l: string) => void): boolean {
  const taken = acquireCheckout(projectDir, sessionDir);
  if (taken.ok) return false;
  out(`agentmux: another run (${taken.holder.session}) is working in this checkout; this run works in its own worktree`);
  return true;
}

/** A new run: validate everything first, then session folder, branch/worktree, tmux, orchestrator. */
export async function startRun(o: StartOptions): Promise<number> {
  const signals = new StopSignals();
  try {
    return await startTrapped(o, signals);
  } catch (e) {
    signals.dispose();
    throw e;
  }
}

async function startTrapped(o: StartOptions, signals: StopSignals): Promise<number> {
  const print = o.out; // progress and result lines; notices go through noticeOut
  o = { ...o, out: noticeOut(o.progress, print) };
  const startedAt = Date.now();
  const projectDir = await findRepoRoot(o.cwd).catch((e) => {
    throw e instanceof NotAGitRepo ? new NoRepositoryForRun({ dir: o.cwd }) : e;
  });
  const { config, originOf } = loadConfig({ projectDir, ...(o.configPath ? { configPath: o.configPath } : {}) });
  if (o.round) {
    if (o.worktree) throw new RoundInWorktree({});
    const current = await currentBranch(projectDir);
    if (current !== o.round.branch) throw new RoundBranchMismatch({ root: projectDir, want: o.round.branch, current });
  }
  settingsFrom(config); // every role's provider resolves, or a clear error before anything is created
  checkSimScenario(config, originOf("sim.scenario"));
  const clis = missingAgentClis(config, process.env.PATH ?? "");
  if (clis) throw new NoAgentCli({ clis });
  await requireSandbox(config, { path: process.env.PATH ?? "", exec: runProcess });
  requireRunnableChecks(config, projectDir);
  const notice = firstRunNotice(projectDir, config);
  if (notice) o.out(notice);
  const gh = config.github.pull_request ? await ghAvailable().catch(() => false) : false;
  for (const line of githubPlan(config, gh)) o.out(line);
  await announceLiveSessions(projectDir, o.out);
  signals.checkpoint();
  const created = createSessionDir({
    projectDir,
    request: o.request,
    slugSource: o.issue?.title ?? o.slugSource,
    name: o.name,
    productManager: o.productManager,
    ghAvailable: gh,
    keepSession: o.keepSession,
    ...(o.configPath ? { configPath: o.configPath } : {}),
    ...(o.issue ? { issueNumber: o.issue.number, issueTitle: o.issue.title, requestTitle: o.issue.title } : {}),
    ...(o.round ? { reviewFindings: o.round.findings } : {}),
  });
  let state: State = { ...created.state, ...(o.headless ? { headless: true } : {}), ...(o.round ? { pr_url: o.round.pullRequestUrl } : {}) };
  let launched: Launched;
  try {
    if (o.round) {
      // a round continues the branch checked out here: it needs this checkout, never a worktree
      const taken = acquireCheckout(projectDir, created.dir);
      if (!taken.ok) throw new RoundCheckoutTaken({ root: projectDir, holder: taken.holder.session });
      const base = await headCommit(projectDir);
      state = { ...state, feature_branch: o.round.branch, ...(base ? { base_commit: base } : {}) };
    } else {
      const worktree = o.worktree || needsOwnWorktree(projectDir, created.dir, o.out);
      state = await prepareCheckout({ projectDir, sessionDir: created.dir, state, config, worktree, pullBase: o.pullBase === true, out: o.out });
    }
    const workDir = state.worktree_path ?? projectDir;
    const context = renderPrompt({
      template: "context",
      vars: {},
      sessionDir: created.dir,
      projectDir,
      workDir,
      role: "architect",
      toolName: (t) => toolNameFor(config.defaults.provider, t),
      askTool: null,
      headless: o.headless,
    });
    writeFileAtomic(join(created.dir, F.context), context);
    writeState(created.dir, state);
    signals.checkpoint();
    launched = await startProcesses({ sessionDir: created.dir, state, config, workDir });
    state = launched.state;
  } catch (e) {
    // Nothing ran yet: leave no half-made session behind.
    await undoCheckout(projectDir, state).catch(() => {});
    releaseCheckout(projectDir, created.dir);
    rmSync(created.dir, { recursive: true, force: true });
    throw sessionNotCreated(e, created.dir);
  }
  o.out(`agentmux: session ${created.id} on branch ${state.feature_branch}${o.headless ? "" : ` (tmux: ${launched.tmux.attachCommand(state.session_name)})`}`);
  if (o.serve) {
    const page = await serveRunPage({ sessionDir: created.dir, projectDir });
    o.out("link" in page ? `agentmux: web page (read-only): ${page.link}` : `agentmux: no web page: ${page.problem}`);
  }
  o.onStarted?.({ dir: created.dir, id: created.id, state });
  return follow({ sessionDir: created.dir, state, config, headless: o.headless, progress: o.progress, startedAt, signals }, launched, print);
}
