import type { Config } from "../schema/config.ts";
import { terminalJson } from "../schema/inert-text.ts";
import type { ProgressMode } from "./progress.ts";
import { listSessions } from "../session/list.ts";
import type { RunEvent } from "../schema/run-api/event.ts";

/**
 * What the run will do on GitHub, said once at start when it is not the full default (push
 * and pull request): pull requests wanted but gh missing. Nothing to say otherwise — config
 * that turns them off was the user's own choice, and the end of the run repeats what happened.
 */
export function githubPlan(config: Config, ghAvailable: boolean): string[] {
  if (!config.github.pull_request || ghAvailable) return [];
  const push = config.github.push ? "the branch will be pushed to origin (github.push)" : "the branch stays local (github.push is false)";
  return [`agentmux: gh is not installed or not logged in: no pull request will be opened; ${push}`];
}

/** Other runs of this checkout that are live right now, said once at start. */
export async function announceLiveSessions(projectDir: string, out: (line: string) => void): Promise<void> {
  const live = (await listSessions(projectDir).catch(() => [])).filter((s) => s.live);
  if (!live.length) return;
  const ids =
    live
      .slice(0, 3)
      .map((s) => s.id)
      .join(", ") + (live.length > 3 ? `, … (${live.length} in all)` : "");
  out(`agentmux: ${live.length} other session(s) of this project are running: ${ids} (see agentmux status)`);
}

/**
 * Where a run's start notices (`agentmux: …` lines) go: as they are in plain output; with
 * `--json` each becomes `{"kind":"notice","message":…}`, so every stdout line is a JSON object.
 */
export function noticeOut(progress: ProgressMode, out: (l: string) => void): (l: string) => void {
  if (progress !== "json") return out;
  return (l) => {
    const notice: RunEvent = { kind: "notice", message: l.replace(/^agentmux: /, "") };
    out(terminalJson(notice));
  };
}
