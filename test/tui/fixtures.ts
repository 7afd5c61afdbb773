import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { appendLine, writeFileAtomic, writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import { makeTmpDir } from "../helpers/tmp.ts";
import type { RuntimeState } from "../../src/schema/runtime.ts";
import { State } from "../../src/schema/state.ts";
import type { Phase } from "../../src/schema/catalog.ts";
import { sessionsRoot } from "../../src/protocol/paths.ts";
import { initialState } from "../../src/session/initial-state.ts";

const T0 = Date.parse("2025-03-01T10:00:00.000Z");
export const at = (min: number) => new Date(T0 + min * 60_000).toISOString();

/** A valid state.json value (parsed through the schema, so fixtures cannot drift from it). */
export function makeState(over: Partial<State> = {}): State {
  const base = initialState({
    featureDir: "/tmp/x",
    sessionName: "agentmux-rate-limit",
    featureName: "rate-limit",
    projectDir: "/tmp",
    productManager: false,
    at: at(0),
    requestTitle: "Add rate limiting to the public API",
  });
  return State.parse({ ...base, updated_at: at(1), updated_by: "orchestrator", ...over });
}

/** A state in the middle of `phase` with a plausible history behind it. */
export function stateIn(phase: Phase, over: Partial<State> = {}): State {
  const order: [Phase, State["last_event"]][] = [
    ["architecting", "feature_created"],
    ["planning", "architecture_written"],
    ["designing", "plan_written"],
    ["implementing", "design_written"],
    ["reviewing", "implementation_completed"],
    ["fixing", "review_failed"],
    ["reviewing", "implementation_completed"],
    ["completing", "review_passed"],
    ["done", "approval_received"],
  ];
  const upto = phase === "failed" ? 4 : order.findIndex(([p]) => p === phase) + 1;
  const history = order.slice(0, Math.max(1, upto)).map(([p, e], i) => ({ phase: p, event: e, at: at(i * 3) }));
  if (phase === "failed") history.push({ phase: "failed", event: "run_failed", at: at(13) });
  if (phase === "product_management") history.splice(0, history.length, { phase, event: "feature_created", at: at(0) });
  const last = history[history.length - 1]!;
  return makeState({ phase, last_event: last.event, history, updated_at: last.at, product_manager: phase === "product_management", ...over });
}

/** Write a session folder under `<project>/.agentmux/.sessions/<id>/`. */
export function writeSession(project: string, id: string, state: State, extra: { runtime?: RuntimeState; created?: string[] } = {}): string {
  const dir = join(sessionsRoot(project), id);
  mkdirSync(dir, { recursive: true });
  writeJsonAtomic(join(dir, "state.json"), { ...state, feature_dir: dir });
  if (extra.runtime) writeJsonAtomic(join(dir, "runtime_state.json"), extra.runtime);
  for (const line of extra.created ?? []) appendLine(join(dir, "created_files.log"), line);
  return dir;
}

/**
 * The approval panel's input: a repository with one commit and the uncommitted `files` (path →
 * content), and a session in it awaiting the decision, its summary written (`over`: more state).
 */
export function awaitingApproval(
  prefix: string,
  dirs: string[],
  files: Record<string, string>,
  over: Partial<State> = {},
  summary = "# What changed\n\nRate limits.\n",
): { repo: string; dir: string } {
  const repo = makeTmpDir(prefix);
  dirs.push(repo);
  const git = (...a: string[]) => Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: repo });
  writeFileSync(join(repo, "a.txt"), "a\n");
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "init");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  const dir = writeSession(repo, "s1", stateIn("completing", { project_dir: repo, awaiting_decision: true, ...over }));
  writeFileAtomic(join(dir, "08_completion/summary.md"), summary);
  return { repo, dir };
}

/** A review that passed with a proposed commit message (the panel's first message). */
export const PASSED_REVIEW: Partial<State> = {
  review_results: { reviewer_logic: { verdict: "pass", summary: "ok", commit_message: "feat: add rate limiting" } },
};
