import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentmuxError } from "../errors.ts";
import { InvalidSessionName, SessionNameTaken, SessionNotCreated } from "./errors.ts";
import { writeSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { initialState, type NewSession } from "./initial-state.ts";
import type { State } from "../schema/state.ts";
import { F, PHASE_DIRS, sessionsRoot } from "../protocol/paths.ts";
import { EmptyRequest, hasVisibleText } from "./request.ts";
import { featureNameOf, sessionNameProblem, slugify, timestampId } from "./slug.ts";

export type CreateSessionOptions = {
  projectDir: string;
  request: string;
  slugSource?: string;
  name?: string;
  productManager: boolean;
  requestTitle?: string;
  issueNumber?: number;
  issueTitle?: string;
  ghAvailable?: boolean;
  configPath?: string;
  keepSession?: boolean;
  /** a fix round on an existing branch: starts in `fixing` with these findings as fix_request.md */
  reviewFindings?: string;
  now?: Date;
};

export function requirementsMarkdown(request: string): string {
  return ["# Requirements", "", "## Initial Request", "", request.trim(), "", "## Clarifications", "", "(none yet)", ""].join("\n");
}

/**
 * A new session folder per the protocol: state.json, requirements.md, empty tool_events.jsonl,
 * tool_event_state.json, runtime_state.json, created_files.log, orchestrator.log and the
 * numbered phase folders. context.md is rendered by the caller (it needs the prompt templates).
 */
export function createSessionDir(o: CreateSessionOptions): { id: string; dir: string; state: State } {
  if (!hasVisibleText(o.request)) throw new EmptyRequest({ where: "request", length: [...o.request].length });
  let id: string;
  if (o.name !== undefined) {
    const problem = sessionNameProblem(o.name);
    if (problem) throw new InvalidSessionName({ name: o.name, problem });
    id = o.name;
  } else id = `${timestampId(o.now)}-${slugify(o.slugSource ?? o.request)}`;
  const root = sessionsRoot(o.projectDir);
  const dir = claimSessionDir(root, id, o.name !== undefined);
  id = dir.slice(root.length + 1);
  try {
    return populate(dir, id, o);
  } catch (e) {
    // nothing half-made stays behind: a full disk, a read-only folder
    rmSync(dir, { recursive: true, force: true });
    throw sessionNotCreated(e, dir);
  }
}

/** The folder for `id` (or `id-2`, `id-3`…), created atomically: two runs never share one. */
function claimSessionDir(root: string, id: string, named: boolean): string {
  try {
    mkdirSync(root, { recursive: true });
  } catch (e) {
    throw sessionNotCreated(e, root);
  }
  for (let n = 1; ; n++) {
    const dir = join(root, n === 1 ? id : `${id}-${n}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw sessionNotCreated(e, dir);
      if (named) throw new SessionNameTaken({ id, dir });
    }
  }
}

/** A file-system failure while a session is made, as the named error (other errors pass through). */
export function sessionNotCreated(e: unknown, dir: string): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (!code || e instanceof AgentmuxError) return e as Error;
  return new SessionNotCreated({ dir, code, reason: (e as Error).message.replace(/^[A-Z]+: /, "") });
}

function populate(dir: string, id: string, o: CreateSessionOptions): { id: string; dir: string; state: State } {
  for (const d of PHASE_DIRS) mkdirSync(join(dir, d), { recursive: true });
  mkdirSync(join(dir, F.runtimeDir), { recursive: true });
  const at = (o.now ?? new Date()).toISOString();
  const s: NewSession = {
    featureDir: dir,
    sessionName: `agentmux-${id}`,
    featureName: featureNameOf(id),
    projectDir: o.projectDir,
    productManager: o.productManager,
    at,
    requestTitle: o.requestTitle ?? o.request.trim().split("\n")[0]!.slice(0, 120),
    ...(o.issueNumber !== undefined ? { issueNumber: o.issueNumber } : {}),
    ...(o.issueTitle ? { issueTitle: o.issueTitle } : {}),
    ...(o.ghAvailable !== undefined ? { ghAvailable: o.ghAvailable } : {}),
    ...(o.reviewFindings !== undefined ? { reviewRound: true } : {}),
  };
  const state: State = {
    ...initialState(s),
    ...(o.configPath ? { config_path: o.configPath } : {}),
    ...(o.keepSession ? { keep_session: true } : {}),
  };
  writeSessionFile(dir, SESSION_FILES.requirements, requirementsMarkdown(o.request));
  if (o.reviewFindings !== undefined) writeSessionFile(dir, SESSION_FILES.fixRequest, o.reviewFindings.trimEnd() + "\n");
  writeFileSync(join(dir, F.toolEvents), "");
  writeSessionFile(dir, SESSION_FILES.toolEventState, { applied_offset: 0 });
  writeFileSync(join(dir, F.createdFiles), "");
  writeFileSync(join(dir, F.orchestratorLog), "");
  writeSessionFile(dir, SESSION_FILES.state, state);
  return { id, dir, state };
}
