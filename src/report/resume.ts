import { REMOVED_BY_CLEAN } from "../schema/cancel-request.ts";
import type { State } from "../schema/state.ts";
import { sessionId } from "../protocol/paths.ts";

/**
 * The command that resumes a run: none once it is done, while it runs (`live`), or when
 * `agentmux clean` removed its session folder. `id`: the session's id as the user named it.
 */
export function resumeCommand(s: State, o: { id?: string; live?: boolean } = {}): string | null {
  if (s.phase === "done" || o.live || s.interruption_cause === REMOVED_BY_CLEAN) return null;
  return s.interruption_resume_command ?? `agentmux resume ${o.id ?? sessionId(s.feature_dir)}`;
}
