import { readdirSync, readFileSync } from "node:fs";
import { statFields } from "./identity.ts";

/** A process group, addressed by its leader's pid (a detached child leads its own group). */

/**
 * Whether a live process of the group is still there. Linux reads /proc, so a killed member
 * that nobody reaps yet (a zombie) no longer counts; elsewhere kill(-pgid, 0) answers.
 */
export function groupAlive(pgid: number): boolean {
  const viaProc = liveMemberInProc(pgid);
  if (viaProc !== undefined) return viaProc;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
  }
}

/**
 * TERM the whole group, wait up to `graceMs` for it to go, then KILL what is left. Resolves
 * once the group is gone or, at worst, `graceMs` after the KILL (a process in uninterruptible
 * sleep cannot be waited for).
 */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  if (await goneWithin(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  await goneWithin(pgid, graceMs);
}

async function goneWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await Bun.sleep(25);
  }
}

function liveMemberInProc(pgid: number): boolean | undefined {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return undefined;
  }
  if (!names.includes("self")) return undefined;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = statFields(readFileSync(`/proc/${name}/stat`, "utf8"));
      if (Number(f[2]) === pgid && f[0] !== "Z" && f[0] !== "X") return true;
    } catch {
      /* gone in between */
    }
  }
  return false;
}
