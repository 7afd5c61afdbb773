import { fileDiff } from "../effects/git/diff.ts";
import { capturePane } from "../effects/tmux/ops.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { inertText } from "../schema/inert-text.ts";
import { isSocketName } from "../schema/tmux-names.ts";
import { approvalInputs, workDirOf } from "../session/approval-inputs.ts";
import { commitChanges, commitFileDiff } from "../effects/git/commit-diff.ts";
import type { State } from "../schema/state.ts";
import { readRuntime, readState } from "../session/read.ts";
import { answer, ANSWERS, type Answer } from "./answer.ts";
import { documents, listRuns, logFrom, runSummary, runView, type RunKey } from "./source.ts";

/**
 * The JSON routes under /api/ (the guard has checked the request). Paths name a run by its
 * project's index in the server's list and its session id; nothing a request says becomes a
 * path of its own: a run is looked up among the server's sessions, a file among the run's changes.
 */
export type ApiContext = { projects: readonly string[]; answer: boolean };

const json = (value: unknown, status = 200) => Response.json(value, { status });
export const problem = (status: number, reason: string) => json({ error: reason }, status);

const SCREEN_LINES = 200;

/** The repository a run committed to: its main checkout (a worktree run's worktree goes at the commit). */
const repoOf = (s: State, ctx: ApiContext, key: RunKey) => s.main_repo_dir ?? s.project_dir ?? ctx.projects[key.project]!;

/** An agent's screen now (a live pane), else the last one the run kept; inert text either way. */
async function screenOf(dir: string, live: boolean, agent: string): Promise<{ lines: string[]; live: boolean } | null> {
  const state = readState(dir);
  const info = state.agents?.[agent];
  if (!info) return null;
  const runtime = readRuntime(dir);
  const pane = runtime?.panes?.[agent];
  const socket = runtime?.tmux_socket;
  // runtime_state.json is in reach of agents: only a pane id and a plain socket name are used
  if (live && pane && /^%\d+$/.test(pane) && socket && isSocketName(socket)) {
    try {
      const text = await capturePane(new Tmux(socket), pane, { join: true, history: SCREEN_LINES });
      return { lines: inertText(text.replace(/\s+$/, "")).split("\n").slice(-SCREEN_LINES), live: true };
    } catch {
      // the pane is gone: what the run kept of it
    }
  }
  return { lines: (info.last_screen ?? []).map(inertText), live: false };
}

/** The path's parts after /api/, decoded; null when one is not valid percent-encoding (%E0%A4%A). */
function pathParts(pathname: string): string[] | null {
  try {
    return pathname.split("/").filter(Boolean).slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
}

export async function api(req: Request, url: URL, ctx: ApiContext): Promise<Response> {
  const parts = pathParts(url.pathname);
  if (!parts) return problem(404, `no such route: ${url.pathname}`);
  if (parts[0] === "config" && parts.length === 1 && req.method === "GET") return json({ answer: ctx.answer, projects: ctx.projects });
  if (parts[0] === "runs" && parts.length === 1 && req.method === "GET") return json({ runs: await listRuns(ctx.projects) });
  if (parts[0] !== "runs" || parts.length < 3) return problem(404, `no such route: ${url.pathname}`);
  const key: RunKey = { project: Number(parts[1]), id: parts[2]! };
  if (!Number.isInteger(key.project)) return problem(404, "no such run");
  const s = await runSummary(ctx.projects, key);
  if (!s || !s.state) return problem(404, `no such run: ${key.id}`);
  const [, , , what, arg] = parts;
  if (req.method === "POST") {
    if (!ANSWERS.includes(what as Answer) || arg !== undefined) return problem(404, `no such answer: ${what}`);
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return problem(400, "the body must be a JSON object");
    }
    const r = await answer(s.dir, what as Answer, body, s.live);
    return r.ok ? json({ ok: true, said: r.said }) : problem(r.status, r.reason);
  }
  if (req.method !== "GET") return problem(405, `${req.method} is not allowed here`);
  switch (what) {
    case undefined:
      return json(runView(key.project, s));
    case "log": {
      const offset = url.searchParams.get("offset");
      return json(logFrom(s.dir, offset === null ? null : Math.max(0, Number(offset) || 0)));
    }
    case "documents":
      return json(documents(s.dir));
    case "screen": {
      const screen = arg ? await screenOf(s.dir, s.live, arg) : null;
      return screen ? json(screen) : problem(404, `no such agent: ${arg ?? ""}`);
    }
    case "changes": {
      // a finished run's changes are its commit (its worktree may be gone)
      if (s.state.commit_hash) {
        const commit = s.state.commit_hash;
        const files = await commitChanges(repoOf(s.state, ctx, key), commit).catch((e: Error) => e);
        return files instanceof Error
          ? problem(500, `cannot read commit ${commit}: ${inertText(files.message)}`)
          : json({ files, proposed_message: "", draft: null, commit });
      }
      if (s.archived) return json({ files: [], proposed_message: "", draft: null, commit: null });
      const inputs = await approvalInputs(s.dir, s.state);
      return json({ files: inputs.files, proposed_message: inputs.proposedMessage, draft: inputs.draft ?? null, commit: null });
    }
    case "diff": {
      const file = url.searchParams.get("file") ?? "";
      const commit = s.state.commit_hash;
      if (!commit && s.archived) return problem(404, "this run left no changes to show");
      const repo = repoOf(s.state, ctx, key);
      const files = commit ? await commitChanges(repo, commit).catch(() => []) : (await approvalInputs(s.dir, s.state)).files;
      // only a file of the run's own changes: never a path the request made up
      if (!files.some((f) => f.path === file)) return problem(404, `not a file this run changed: ${JSON.stringify(inertText(file).slice(0, 200))}`);
      try {
        const diff = commit ? await commitFileDiff(repo, commit, file) : await fileDiff(workDirOf(s.dir, s.state), file);
        return json({ file, diff: inertText(diff) });
      } catch (e) {
        return problem(500, `cannot show the diff: ${inertText((e as Error).message)}`);
      }
    }
  }
  return problem(404, `no such route: ${url.pathname}`);
}
