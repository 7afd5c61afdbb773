import { spawn, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import { join } from "node:path";
import type { State } from "../schema/state.ts";
import { F } from "../session/paths.ts";
import { selfCommand } from "../effects/process/self.ts";

export type FinalReport = { code: number; state: State };
export type Orchestrator = { child: ChildProcess; exited: Promise<{ code: number | null; signal: string | null }>; report: Promise<FinalReport | null> };

/**
 * The orchestrator as a detached process (own session): it survives a closed terminal. Its
 * final state comes back on fd 3 (see reportResult in orchestrator.ts).
 */
export function spawnOrchestrator(sessionDir: string, cwd: string): Orchestrator {
  const self = selfCommand();
  const log = openSync(join(sessionDir, F.orchestratorLog), "a");
  const env: Record<string, string | undefined> = { ...process.env, AGENTMUX_RESULT_FD: "3" };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const child = spawn(self[0]!, [...self.slice(1), "orchestrate", sessionDir], { detached: true, stdio: ["ignore", log, log, "pipe"], cwd, env });
  let text = "";
  const pipe = child.stdio[3] as NodeJS.ReadableStream | null;
  pipe?.on("data", (d: Buffer) => (text += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on("exit", (code, signal) => r({ code, signal })));
  const report = new Promise<FinalReport | null>((r) => {
    const done = () => {
      try {
        r(JSON.parse(text.trim().split("\n").pop() ?? ""));
      } catch {
        r(null);
      }
    };
    if (pipe) pipe.on("close", done);
    else void exited.then(done);
  });
  child.unref();
  (pipe as any)?.unref?.();
  return { child, exited, report };
}
