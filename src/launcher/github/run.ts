import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { formatError, isAgentmuxError } from "../../errors.ts";
import { writeFileAtomic } from "../../effects/fs/atomic.ts";
import { workingTreePatch } from "../../effects/git/patch.ts";
import { fetchPullRequest, type Issue } from "../../effects/gh.ts";
import type { GhPullRequest } from "../../schema/github.ts";
import { remoteBranchTip } from "../../effects/git/fetch.ts";
import type { ActionInputs } from "../../schema/github-action.ts";
import type { Config } from "../../schema/config.ts";
import type { State } from "../../schema/state.ts";
import { readState } from "../../session/read.ts";
import { slugify } from "../../session/slug.ts";
import { progressComment, PROGRESS_MARKER, type CommentEnd } from "../../views/progress-comment.ts";
import { followCiRounds } from "../ci-rounds.ts";
import { startRun, type ReviewRound } from "../start.ts";
import { keepShowing, ProgressComment } from "./comment.ts";
import { setOutputs, type GithubContext } from "./context.ts";
import { issueRequest } from "./request.ts";
import { prepareRound, replyInThreads, roundRefusal } from "./round.ts";
import type { Trigger } from "./trigger.ts";

export type TriggeredRun = {
  ctx: GithubContext;
  inputs: ActionInputs;
  trigger: Exclude<Trigger, { kind: "ignore" }>;
  projectDir: string;
  config: Config;
  configPath: string | undefined;
  artifact: string;
  out: (line: string) => void;
  fetchIssue: (n: number) => Promise<Issue>;
};

const COMMENT_EVERY_MS = 10_000;

/** A failed run's uncommitted work, saved in the session folder (the workflow artifact). */
export const WIP_PATCH = "work-in-progress.patch";

/** Where progress goes and how to retry: known from the trigger alone, before any call. */
type Target = { subject: string; commentOn: number | null; retry: string };

function targetOf(t: TriggeredRun["trigger"], phrase: string): Target {
  const p = `\`${phrase}\``;
  if (t.kind === "round")
    return { subject: `review of pull request #${t.pr}`, commentOn: t.pr, retry: `re-run this workflow job, or review again starting with ${p}` };
  if (t.kind === "issue") return { subject: `issue #${t.issue}`, commentOn: t.issue, retry: `re-run this workflow job, or comment ${p} on this issue` };
  return { subject: "request", commentOn: null, retry: "re-run this workflow" };
}

/** What the run works on: the request text, and the issue or the review round. */
type Plan = { request: string; name?: string; issue?: { number: number; title: string }; round?: ReviewRound; threads: number[]; notes?: string[] };

function sessionName(prefix: string, ctx: GithubContext, slugSource = ""): string {
  const slug = slugSource ? `-${slugify(slugSource).slice(0, 30).replace(/-+$/, "")}` : "";
  return `${prefix}${slug}${ctx.runId ? `-${ctx.runId}` : ""}${ctx.attempt > 1 ? `-${ctx.attempt}` : ""}`;
}

async function plan(o: TriggeredRun, pr: GhPullRequest | null): Promise<Plan> {
  const t = o.trigger;
  if (t.kind === "round") {
    const r = await prepareRound(t, pr!, { repo: o.ctx.repo, cwd: o.projectDir, phrase: o.inputs.trigger_phrase });
    return {
      request: o.inputs.request.trim() ? `${o.inputs.request.trim()}\n\n${r.request}` : r.request,
      name: sessionName(`pr-${t.pr}-review`, o.ctx),
      round: r.round,
      threads: r.threads,
    };
  }
  if (t.kind === "issue") {
    const issue = await o.fetchIssue(t.issue);
    if (o.inputs.request.trim())
      return {
        request: o.inputs.request.trim(),
        name: sessionName(`issue-${t.issue}`, o.ctx, issue.title),
        issue: { number: t.issue, title: issue.title },
        threads: [],
      };
    const instructions = t.via === "comment" ? { login: t.actor, text: t.instructions } : null;
    const r = issueRequest(issue, instructions, { allowed: o.inputs.allowed_associations, actor: t.actor, ...(t.seen ? { seen: t.seen } : {}) });
    const title = t.seen?.title ?? issue.title;
    return { request: r.request, name: sessionName(`issue-${t.issue}`, o.ctx, title), issue: { number: t.issue, title }, threads: [], notes: r.notes };
  }
  return { request: t.request, threads: [] };
}

function readStateOrNull(dir: string | null): State | null {
  if (!dir) return null;
  try {
    return readState(dir);
  } catch {
    return null;
  }
}

/** Run the pipeline for a trigger, with the progress comment; returns agentmux's exit code. */
export async function runTriggered(o: TriggeredRun): Promise<number> {
  const startedAt = Date.now();
  let pr: GhPullRequest | null = null;
  if (o.trigger.kind === "round") {
    pr = await fetchPullRequest(o.ctx.repo, o.trigger.pr);
    const refused = roundRefusal(pr, o.ctx.repo);
    if (refused) {
      o.out(`agentmux: not running: ${refused}`);
      setOutputs(o.ctx, { run: false, reason: refused });
      return 0;
    }
  }
  const target = targetOf(o.trigger, o.inputs.trigger_phrase);
  const comment = new ProgressComment({ repo: o.ctx.repo, issue: target.commentOn, log: o.out });
  let sessionDir: string | null = null;
  let notes: string[] = [];
  const render = (end?: CommentEnd) =>
    progressComment({
      subject: target.subject,
      state: readStateOrNull(sessionDir),
      startedAt,
      now: Date.now(),
      runUrl: o.ctx.runUrl,
      artifact: o.artifact,
      end,
      notes,
    });
  await comment.show(render());
  let ticker: { stop: () => Promise<void> } | null = null;
  let code: number;
  let end: CommentEnd;
  let p: Plan | null = null;
  try {
    p = await plan(o, pr);
    notes = p.notes ?? [];
    for (const n of notes) o.out(`agentmux: ${n}`);
    code = await startRun({
      cwd: o.projectDir,
      request: p.request,
      ...(p.name ? { name: p.name } : {}),
      productManager: false,
      worktree: false,
      keepSession: true, // the session folder becomes the workflow artifact
      ...(o.configPath ? { configPath: o.configPath } : {}),
      headless: true,
      progress: "json",
      ...(p.issue ? { issue: p.issue } : {}),
      ...(p.round ? { round: p.round } : {}),
      onStarted: (s) => {
        sessionDir = s.dir;
        setOutputs(o.ctx, { session_dir: s.dir });
        void comment.show(render());
        ticker = keepShowing(comment, () => render(), COMMENT_EVERY_MS);
      },
      out: o.out,
    });
    end = await outcome(o, p, target, readStateOrNull(sessionDir), code);
    if (end.kind !== "success" && code === 0) code = 1;
  } catch (e) {
    o.out(isAgentmuxError(e) ? formatError(e) : `agentmux: internal error: ${(e as Error)?.stack ?? String(e)}`);
    code = isAgentmuxError(e) ? e.exitCode : 1;
    end = { kind: "failed", cause: isAgentmuxError(e) ? e.message : String(e), retry: target.retry };
  }
  await (ticker as { stop: () => Promise<void> } | null)?.stop();
  const state = readStateOrNull(sessionDir);
  if (end.kind !== "success" && sessionDir) end = { ...end, ...(await saveWork(sessionDir, state, o)) };
  const final = render(end);
  await comment.show(final);
  if (o.ctx.summaryFile) appendFileSync(o.ctx.summaryFile, final.replace(PROGRESS_MARKER + "\n", "") + "\n");
  if (p?.round && p.threads.length) {
    const link = o.ctx.runUrl ? ` ([workflow run](${o.ctx.runUrl}))` : "";
    const body =
      end.kind === "success"
        ? `agentmux addressed this in ${end.commit ? `\`${end.commit}\`` : "a new commit"} on \`${p.round.branch}\`${link}.`
        : `agentmux could not address this review: the round ${end.kind}${link}. The progress comment on the pull request says why.`;
    await replyInThreads({ repo: o.ctx.repo, pr: target.commentOn!, threads: p.threads, body, log: o.out });
  }
  if (code === 0 && end.kind === "success" && end.prUrl && end.branch && o.config.github.watch_ci) code = await followCi(o, end.prUrl, end.branch);
  setOutputs(o.ctx, {
    exit_code: code,
    outcome: end.kind,
    branch: state?.feature_branch ?? p?.round?.branch ?? "",
    commit: end.kind === "success" ? (end.commit ?? "") : "",
    pr_url: end.kind === "success" ? (end.prUrl ?? "") : "",
  });
  return code;
}

/** A failed run's uncommitted changes become work-in-progress.patch in the artifact: nothing is lost with the runner. */
async function saveWork(sessionDir: string, s: State | null, o: TriggeredRun): Promise<{ patch?: { file: string; base?: string } }> {
  try {
    const patch = await workingTreePatch(s?.worktree_path ?? o.projectDir, { exclude: [".agentmux"] });
    if (!patch.trim()) return {};
    writeFileAtomic(join(sessionDir, WIP_PATCH), patch);
    o.out(`agentmux: the run's uncommitted changes are saved as ${join(sessionDir, WIP_PATCH)}`);
    return { patch: { file: WIP_PATCH, ...(s?.base_commit ? { base: s.base_commit } : {}) } };
  } catch (e) {
    o.out(`agentmux: could not save the uncommitted changes: ${(e as Error).message}`);
    return {};
  }
}

/** How the run ended, checked against the remote: a commit that never reached it is no success. */
async function outcome(o: TriggeredRun, p: Plan, target: Target, s: State | null, code: number): Promise<CommentEnd> {
  if (!s || s.phase !== "done" || code !== 0) {
    const canceled = s?.interruption_category === "canceled" || code === 130;
    return {
      kind: canceled ? "canceled" : "failed",
      cause: s?.interruption_cause ?? `agentmux exited with ${code} before the run finished`,
      retry: target.retry,
    };
  }
  const branch = s.feature_branch!;
  const commit = s.commit_hash ?? "";
  if (o.config.github.push) {
    const tip = await remoteBranchTip(o.projectDir, branch);
    if (!tip || !commit || !tip.startsWith(commit)) {
      return {
        kind: "failed",
        cause: `commit ${commit} was made on ${branch} but the branch was not pushed (the orchestrator log in the artifact says why)`,
        retry: target.retry,
      };
    }
  }
  if (p.issue && o.config.github.pull_request && !s.pr_url) {
    return {
      kind: "failed",
      cause: `${branch} was pushed but no pull request was opened (the orchestrator log in the artifact says why)`,
      retry: `open it by hand from ${branch}, or ${target.retry}`,
    };
  }
  return { kind: "success", prUrl: s.pr_url ?? null, branch, commit };
}

/** github.watch_ci inside the job: follow the pull request's CI and run fix rounds on its branch while it fails (#26.6). */
function followCi(o: TriggeredRun, prUrl: string, branch: string): Promise<number> {
  return followCiRounds({
    projectDir: o.projectDir,
    prUrl,
    branch,
    github: o.config.github,
    out: o.out,
    startRound: (round, request, n) =>
      startRun({
        cwd: o.projectDir,
        request,
        round,
        slugSource: `ci fix round ${n}`,
        productManager: false,
        worktree: false,
        keepSession: true,
        ...(o.configPath ? { configPath: o.configPath } : {}),
        headless: true,
        progress: "json",
        out: o.out,
      }),
  });
}
