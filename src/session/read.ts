import type { PreexistingChanges } from "../schema/preexisting.ts";
import type { RuntimeState } from "../schema/runtime.ts";
import type { State } from "../schema/state.ts";
import type { RunCheckout } from "../effects/git/give-back.ts";
import { inspectSessionFile, readOptionalSessionFile, readSessionFile, SessionFileInvalid } from "./file-io.ts";
import { basename, join } from "node:path";
import { PythonSession } from "./errors.ts";
import { readPythonState } from "./python-state.ts";
import { SESSION_FILES } from "../protocol/files.ts";

/**
 * state.json, validated; a missing or invalid one is a named error naming the file and the field,
 * or, when the Python agentmux wrote it, saying so with the command that converts it.
 */
export function readState(dir: string): State {
  try {
    return readSessionFile(dir, SESSION_FILES.state);
  } catch (e) {
    if (e instanceof SessionFileInvalid && readPythonState(dir)) throw new PythonSession({ dir, id: basename(dir) });
    throw e;
  }
}

/** runtime_state.json is optional (finished or never-started sessions have none); a bad one is ignored. */
export const readRuntime = (dir: string): RuntimeState | undefined => readOptionalSessionFile(dir, SESSION_FILES.runtime);

/**
 * What a session recorded at start (F.preexisting): none for worktree runs and older sessions;
 * an unreadable record is an error (a commit must not guess which files are the user's).
 */
export function readPreexisting(dir: string): PreexistingChanges {
  const f = SESSION_FILES.preexisting;
  const r = inspectSessionFile(dir, f);
  if (r.ok) return r.value;
  if (r.missing) return [];
  throw new SessionFileInvalid({ path: join(dir, f.path), name: f.path, problems: r.problems });
}

/** What giving a run's checkout back needs (effects/git/give-back.ts), from its state and session folder: the run's end and `clean` build it alike. */
export function runCheckoutOf(state: State, branch: string, dir: string, projectDir: string): RunCheckout {
  return {
    projectDir,
    branch,
    baseCommit: state.base_commit ?? null,
    startRef: state.start_ref ?? null,
    worktreePath: state.worktree_path ?? null,
    preexisting: readPreexisting(dir),
  };
}
