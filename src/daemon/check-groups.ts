import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { killGroup } from "../effects/process/group.ts";
import { processIdentity } from "../effects/process/identity.ts";
import type { Logger } from "../effects/log.ts";
import { readOptionalSessionFile, writeSessionFile } from "../session/file-io.ts";
import type { SessionFile } from "../protocol/files.ts";
import { F } from "../protocol/paths.ts";

/** A check's process group while it runs: its leader's pid and start time (a reused pid has another). */
const RunningGroup = z.object({ pid: z.number().int().min(1), start: z.string() });

const DIR = `${F.runtimeDir}/checks`;
const groupFile = (key: string): SessionFile<z.infer<typeof RunningGroup>> => ({
  path: `${DIR}/${key.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`,
  syntax: "json",
  schema: RunningGroup,
  by: ["orchestrator"],
  about: "a running check's process group",
});

/**
 * The process groups of the checks that run, recorded in the session folder while they run: an
 * orchestrator killed outright (SIGKILL, a crash) cannot kill them, so the next one does before
 * it runs them again.
 */
export const checkGroups = {
  started(sessionDir: string, key: string, pid: number): void {
    const id = processIdentity(pid);
    if (id) writeSessionFile(sessionDir, groupFile(key), { pid, start: id.start });
  },
  finished(sessionDir: string, key: string): void {
    rmSync(join(sessionDir, groupFile(key).path), { force: true });
  },
  /** Kill what an earlier orchestrator's checks left running (only a group whose leader is still that process). */
  async reap(sessionDir: string, log: Logger): Promise<void> {
    const dir = join(sessionDir, DIR);
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const f = groupFile(name.replace(/\.json$/, ""));
      const g = readOptionalSessionFile(sessionDir, f);
      const id = g ? processIdentity(g.pid) : null;
      if (g && id && !id.zombie && id.start === g.start) {
        log(`killing the process group ${g.pid} of a check the last orchestrator left running (${name.replace(/\.json$/, "")})`, {
          level: "warn",
          event: "check",
        });
        await killGroup(g.pid, 2000);
      }
      rmSync(join(dir, name), { force: true });
    }
  },
};
