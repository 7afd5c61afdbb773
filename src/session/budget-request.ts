import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { claimFile } from "./claim.ts";
import { F } from "../protocol/paths.ts";

/** Let a run paused at its budget go on (monitor `g`). */
export function requestBudgetGoOn(sessionDir: string): void {
  writeFileAtomic(join(sessionDir, F.budgetGoOn), new Date().toISOString() + "\n");
}

export const budgetGoOnRequested = (sessionDir: string) => existsSync(join(sessionDir, F.budgetGoOn));

/** Consume the request (true when there was one). */
export const takeBudgetGoOn = (sessionDir: string): boolean => claimFile(join(sessionDir, F.budgetGoOn)) !== null;
