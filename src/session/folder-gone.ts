import { existsSync } from "node:fs";
import { join } from "node:path";
import { defineError } from "../errors.ts";
import type { State } from "../schema/state.ts";
import { F } from "../protocol/paths.ts";
import { writeSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { writeStateMirror } from "./write.ts";

/**
 * The session folder was deleted under a live run (rm -rf, an agent's `git clean -xdf`).
 * `recorded`: the state being written reached state.json before the folder went.
 */
export const SessionFolderGone = defineError("SessionFolderGone", "session", (d: { dir: string; phase: string; recorded?: boolean }) => ({
  message: `the session folder ${d.dir} was deleted while the run was ${d.phase}; the run is stopped`,
  where: d.dir,
}));

/** A live run's session folder is there while its state.json is: agents may recreate sub-folders, never state.json. */
export const sessionFolderPresent = (dir: string) => existsSync(join(dir, F.state));

/**
 * state.json of a running session: only ever replaced, never created — writing it into a
 * deleted folder would bring a half session back to life. The folder may go between the check
 * and the writes (git clean deletes file by file): a write then fails, creating nothing.
 */
export function writeLiveState(dir: string, state: State): void {
  if (!sessionFolderPresent(dir)) throw new SessionFolderGone({ dir, phase: state.phase });
  const gone = (e: unknown) => (e as NodeJS.ErrnoException).code === "ENOENT" && !sessionFolderPresent(dir);
  try {
    writeSessionFile(dir, SESSION_FILES.state, state, { existingDir: true });
  } catch (e) {
    if (gone(e)) throw new SessionFolderGone({ dir, phase: state.phase });
    throw e;
  }
  try {
    writeStateMirror(dir, state, { existingDir: true });
  } catch (e) {
    if (gone(e)) throw new SessionFolderGone({ dir, phase: state.phase, recorded: true });
    throw e;
  }
}
