import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { claimFile } from "./claim.ts";
import { F } from "../protocol/paths.ts";

/** Ask the orchestrator to show the approval panel again (monitor `a`, `agentmux attach`, home). */
export function requestPanel(sessionDir: string): void {
  writeFileAtomic(join(sessionDir, F.panelRequest), new Date().toISOString() + "\n");
}

export const panelRequested = (sessionDir: string) => existsSync(join(sessionDir, F.panelRequest));

/** Consume the request (true when there was one). */
export function takePanelRequest(sessionDir: string): boolean {
  return claimFile(join(sessionDir, F.panelRequest)) !== null;
}
