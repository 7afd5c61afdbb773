import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processIdentity } from "../../src/effects/process/identity.ts";
import { liveOrchestrator, ownPidRecord, parsePidRecord, recordAlive } from "../../src/session/liveness.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { makeZombie } from "../helpers/processes.ts";

const procs: { kill(): void }[] = [];
const dirs: string[] = [];
afterEach(() => {
  procs.splice(0).forEach((p) => p.kill());
  dirs.splice(0).forEach(removeDir);
});

async function zombie(): Promise<number> {
  const z = await makeZombie();
  procs.push({ kill: z.stop });
  return z.pid;
}

/** A live process that is not an orchestrator (waits until it has exec'd: its command line is final). */
function sleeper(): number {
  const p = Bun.spawn(["sleep", "60"]);
  procs.push(p);
  while (processIdentity(p.pid)?.cmdline !== "sleep 60") Bun.sleepSync(1);
  return p.pid;
}

test("a zombie is not alive, though kill(pid, 0) says it is", async () => {
  const pid = await zombie();
  expect(() => process.kill(pid, 0)).not.toThrow();
  expect(recordAlive({ pid })).toBe(false);
});

test("a reused pid (another start time) is not the recorded process; the same one is", () => {
  const pid = sleeper();
  const start = processIdentity(pid)!.start;
  expect(start).not.toBe("");
  expect(recordAlive({ pid, start })).toBe(true);
  expect(recordAlive({ pid, start: "1" })).toBe(false);
  // an old record without a start token: the command line decides
  expect(recordAlive({ pid }, "sleep 60")).toBe(true);
  expect(recordAlive({ pid }, "/repo/.agentmux/.sessions/x")).toBe(false);
  expect(recordAlive({ pid: 2 ** 22 + 12345 })).toBe(false);
});

test("pid records: '<pid> <start>' and the older '<pid>' alone; this process is never 'another' orchestrator", () => {
  expect(parsePidRecord("123 456\n")).toEqual({ pid: 123, start: "456" });
  expect(parsePidRecord("123\n")).toEqual({ pid: 123 });
  expect(parsePidRecord("x")).toBeNull();
  expect(recordAlive(ownPidRecord())).toBe(false);
});

test("liveOrchestrator: a pid file naming a zombie or a reused pid leaves the session resumable", async () => {
  const dir = makeTmpDir("amx-live-");
  dirs.push(dir);
  mkdirSync(join(dir, ".runtime"));
  const file = join(dir, ".runtime/orchestrator.pid");
  writeFileSync(file, `${await zombie()}\n`);
  expect(liveOrchestrator(dir)).toBeNull();
  const pid = sleeper();
  writeFileSync(file, `${pid}\n`);
  expect(liveOrchestrator(dir)).toBeNull(); // its command line does not name this session
  writeFileSync(file, `${pid} ${processIdentity(pid)!.start}\n`);
  expect(liveOrchestrator(dir)).toBe(pid);
});

test("without /proc (macOS), ps tells the same: start time, zombie state, command line", async () => {
  const { identityFromPs } = await import("../../src/effects/process/identity.ts");
  const pid = sleeper();
  const a = identityFromPs(pid)!;
  expect(a).toMatchObject({ pid, zombie: false, cmdline: "sleep 60" });
  expect(a.start).toMatch(/\d\d:\d\d:\d\d \d{4}$/);
  expect(identityFromPs(pid)!.start).toBe(a.start);
  expect(identityFromPs(await zombie())!.zombie).toBe(true);
  expect(identityFromPs(2 ** 22 + 12345)).toBeNull();
});
