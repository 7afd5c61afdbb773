import { join } from "node:path";
import type { State } from "../schema/state.ts";
import { F } from "../session/paths.ts";
import { spawnDetached, type Detached } from "../effects/process/detached.ts";
import { selfCommand } from "../effects/process/self.ts";

export type FinalReport = { code: number; state: State };
export type Orchestrator = Pick<Detached, "child" | "exited"> & { report: Promise<FinalReport | null> };

/**
 * The orchestrator as a detached process (own session): it survives a closed terminal. Its
 * final state comes back on fd 3 (see reportResult in orchestrator.ts).
 */
export function spawnOrchestrator(sessionDir: string, cwd: string): Orchestrator {
  const { child, exited, result } = spawnDetached([...selfCommand(), "orchestrate", sessionDir], {
    cwd,
    outputFile: join(sessionDir, F.orchestratorLog),
    resultPipe: true,
    env: { AGENTMUX_RESULT_FD: "3", TMUX: undefined, TMUX_PANE: undefined },
  });
  const report = result.then((text): FinalReport | null => {
    try {
      return JSON.parse(text.trim().split("\n").pop() ?? "");
    } catch {
      return null;
    }
  });
  return { child, exited, report };
}
