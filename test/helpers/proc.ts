import { readFileSync } from "node:fs";
import { statFields } from "../../src/effects/process/identity.ts";

/** A process's state letter from /proc (`T`: stopped, `Z`: zombie), undefined once it is gone. */
export function procState(pid: number): string | undefined {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, "utf8"))[0];
  } catch {
    return undefined;
  }
}

/** A process's parent pid from /proc, undefined once it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    return Number(statFields(readFileSync(`/proc/${pid}/stat`, "utf8"))[1]);
  } catch {
    return undefined;
  }
}
