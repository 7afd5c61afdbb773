import { fileDiff } from "../effects/git/diff.ts";
import { capturePane } from "../effects/tmux/ops.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { inertText } from "../schema/inert-text.ts";
import { isSocketName } from "../schema/tmux-names.ts";
import { approvalInputs } from "../session/approval-inputs.ts";
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

export async function api(req: Request, url: URL, ctx: ApiContext): Promise<Response> {
  const parts = url.pathname.split("/").filter(Boolean).slice(1).map(decodeURIComponent);
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
    case "log":
    {
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
      if (s.archived) return json({ files: [], proposed_message: "", draft: null });
      const inputs = await approvalInputs(s.dir, s.state);
      return json({ files: inputs.files, proposed_message: inputs.proposedMessage, draft: inputs.draft ?? null });
    }
    case "diff": {
      const file = url.searchParams.get("file") ?? "";
      if (s.archived) return problem(404, "a finished run's diff is its commit");
      const inputs = await approvalInputs(s.dir, s.state);
      // only a file of the run's own changes: never a path the request made up
      if (!inputs.files.some((f) => f.path === file)) return problem(404, `not a file this run changed: ${JSON.stringify(inertText(file).slice(0, 200))}`);
      try {
        return json({ file, diff: inertText(await fileDiff(inputs.work, file)) });
      } catch (e) {
        return problem(500, `cannot show the diff: ${inertText((e as Error).message)}`);
      }
    }
  }
  return problem(404, `no such route: ${url.pathname}`);
}
