import { existsSync } from "node:fs";
import { join } from "node:path";
import { defineError } from "../errors.ts";
import type { State } from "../schema/state.ts";
import { F } from "./paths.ts";
import { writeState } from "./write.ts";

/** The session folder was deleted under a live run (rm -rf, an agent's `git clean -xdf`). */
export const SessionFolderGone = defineError("SessionFolderGone", "session", (d: { dir: string; phase: string }) => ({
  message: `the session folder ${d.dir} was deleted while the run was ${d.phase}; the run is stopped`,
  where: d.dir,
}));

/** A live run's session folder is there while its state.json is: agents may recreate sub-folders, never state.json. */
export const sessionFolderPresent = (dir: string) => existsSync(join(dir, F.state));

/**
 * state.json of a running session: only ever replaced, never created — writing it into a
 * deleted folder would bring a half session back to life (the atomic write creates folders).
 */
export function writeLiveState(dir: string, state: State): void {
  if (!sessionFolderPresent(dir)) throw new SessionFolderGone({ dir, phase: state.phase });
  writeState(dir, state);
}
