import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidSessionName, SessionNameTaken } from "./errors.ts";
import { writeFileAtomic, writeJsonAtomic } from "../effects/fs/atomic.ts";
import { initialState, type NewSession } from "./initial-state.ts";
import type { State } from "../schema/state.ts";
import { F, PHASE_DIRS, sessionsRoot } from "./paths.ts";
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
  let dir = join(root, id);
  if (o.name !== undefined && existsSync(dir)) throw new SessionNameTaken({ id, dir });
  for (let n = 2; existsSync(dir); n++) dir = join(root, `${id}-${n}`);
  id = dir.slice(root.length + 1);
  mkdirSync(dir, { recursive: true });
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
  writeFileAtomic(join(dir, F.requirements), requirementsMarkdown(o.request));
  if (o.reviewFindings !== undefined) writeFileAtomic(join(dir, F.fixRequest), o.reviewFindings.trimEnd() + "\n");
  writeFileSync(join(dir, F.toolEvents), "");
  writeJsonAtomic(join(dir, F.toolEventState), { applied_offset: 0 });
  writeFileSync(join(dir, F.createdFiles), "");
  writeFileSync(join(dir, F.orchestratorLog), "");
  writeJsonAtomic(join(dir, F.state), state);
  return { id, dir, state };
}
