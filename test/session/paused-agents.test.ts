import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { continueLeftPaused, PAUSED_PIDS, readPaused, recordPaused } from "../../src/session/paused-agents.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { procState } from "../helpers/proc.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * #31.4: what a budget pause stopped and an orchestrator that died left stopped is continued by
 * resume and clean (continueLeftPaused), but never a process that merely got a recorded pid since.
 */
const procs: { kill(signal?: number): void }[] = [];
const dirs: string[] = [];
afterEach(() => {
  procs.splice(0).forEach((p) => p.kill(9));
  dirs.splice(0).forEach(removeDir);
});

function stoppedSleep(): number {
  const p = Bun.spawn(["sleep", "60"]);
  procs.push(p);
  process.kill(p.pid, "SIGSTOP");
  return p.pid;
}

test("the recorded processes are continued and the record goes; a reused pid is left alone", async () => {
  const dir = makeTmpDir("amx-paused-");
  dirs.push(dir);
  mkdirSync(join(dir, ".runtime"));
  const [a, b, reused] = [stoppedSleep(), stoppedSleep(), stoppedSleep()];
  await waitFor("stopped", () => [a, b, reused].every((p) => procState(p) === "T"));
  recordPaused(dir, [a, b]);
  expect(readPaused(dir).map((r) => r.pid)).toEqual([a, b]);
  writeFileSync(join(dir, PAUSED_PIDS), `${a} ${readPaused(dir)[0]!.start}\n${b} ${readPaused(dir)[1]!.start}\n${reused} 1\n`);
  expect(continueLeftPaused(dir)).toBe(2);
  await waitFor("continued", () => procState(a) !== "T" && procState(b) !== "T");
  expect(procState(reused)).toBe("T");
  expect(existsSync(join(dir, PAUSED_PIDS))).toBe(false);
  expect(continueLeftPaused(dir)).toBe(0);
});
