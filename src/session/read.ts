import type { RuntimeState } from "../schema/runtime.ts";
import type { State } from "../schema/state.ts";
import { readOptionalSessionFile, readSessionFile } from "./file-io.ts";
import { SESSION_FILES } from "./files.ts";

/** state.json, validated; a missing or invalid one is a named error naming the file and the field. */
export const readState = (dir: string): State => readSessionFile(dir, SESSION_FILES.state);

/** runtime_state.json is optional (finished or never-started sessions have none); a bad one is ignored. */
export const readRuntime = (dir: string): RuntimeState | undefined => readOptionalSessionFile(dir, SESSION_FILES.runtime);
