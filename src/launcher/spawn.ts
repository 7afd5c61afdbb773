import { join } from "node:path";
import { FinalReport } from "../schema/state.ts";
import { parseJsonText } from "../session/syntax.ts";
import { F } from "../protocol/paths.ts";
import { spawnDetached, type Detached } from "../effects/process/detached.ts";
import { selfCommand } from "../effects/process/self.ts";
import { leanSpawnEnv } from "../effects/process/lean.ts";

export type { FinalReport };
export type Orchestrator = Pick<Detached, "child" | "exited"> & { report: Promise<FinalReport | null> };

/**
 * The orchestrator as a detached process (own session): it survives a closed terminal. Its
 * final state comes back on fd 3 (see reportResult in orchestrator.ts).
 */
export function spawnOrchestrator(sessionDir: string, cwd: string): Orchestrator {
  const { child, exited, result } = spawnDetached([...selfCommand(), "orchestrate", sessionDir], {
    cwd,
    outputFile: join(sessionDir, F.orchestratorOutput),
    resultPipe: true,
    // started lean rather than restarting itself, which would close the report pipe on fd 3
    env: { AGENTMUX_RESULT_FD: "3", TMUX: undefined, TMUX_PANE: undefined, ...leanSpawnEnv("hot-only") },
  });
  // no report (the orchestrator died) or an unreadable one: the launcher falls back to state.json
  const report = result.then((text): FinalReport | null => {
    const parsed = parseJsonText(text.trim().split("\n").pop() ?? "");
    const checked = parsed.ok ? FinalReport.safeParse(parsed.data) : null;
    return checked?.success ? checked.data : null;
  });
  return { child, exited, report };
}
