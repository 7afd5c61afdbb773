import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBounded, type BoundedCommand } from "../../../src/effects/process/bounded.ts";
import { processIdentity } from "../../../src/effects/process/identity.ts";
import { makeTmpDir, removeDir, REPO_ROOT } from "../../helpers/tmp.ts";
import { waitFor } from "../../helpers/wait.ts";

const dir = makeTmpDir("amx-bounded-");
const strays: number[] = [];
afterAll(() => {
  for (const pid of strays) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  removeDir(dir);
});

let n = 0;
const cmd = (command: string, over: Partial<BoundedCommand> = {}): BoundedCommand => ({
  argv: ["sh", "-c", command],
  cwd: dir,
  timeoutMs: 30_000,
  logPath: join(dir, `logs/${n++}.log`),
  leftovers: "kill",
  graceMs: 500,
  ...over,
});
const alive = (pid: number) => {
  const id = processIdentity(pid);
  return !!id && !id.zombie;
};
const pidIn = (file: string) => Number(readFileSync(join(dir, file), "utf8").trim());

describe("runBounded", () => {
  test("exit code, output in the log, the tail without control characters", async () => {
    const c = cmd("echo one; printf 'two \\033[31mred\\033[0m\\n' >&2; exit 3", { env: { EXTRA: "x" } });
    const r = await runBounded(c);
    expect(r).toMatchObject({ exitCode: 3, signal: null, timedOut: false, spawnError: null, truncated: false, tail: ["one", "two red"] });
    expect(readFileSync(c.logPath, "utf8")).toBe("one\ntwo \x1b[31mred\x1b[0m\n");
    expect(Date.parse(r.finishedAt) - Date.parse(r.startedAt)).toBe(r.durationMs);
  });

  test("a background process holding the pipes does not hold it: done at exit; `kill` ends the leftover", async () => {
    const r = await runBounded(cmd("sleep 60 & echo $! > bg-kill.pid; echo started"));
    expect(r.exitCode).toBe(0);
    expect(r.tail).toEqual(["started"]);
    await waitFor("the leftover to be killed", () => !alive(pidIn("bg-kill.pid")), { timeoutMs: 5000 });
  });

  test("`detach` leaves the background process running (a service setup starts) and the launcher still exits", async () => {
    // the launcher's part in a process of its own: it must exit although the service keeps the pipes open
    const script = join(dir, "launcher.ts");
    writeFileSync(
      script,
      `import { runBounded } from ${JSON.stringify(join(REPO_ROOT, "src/effects/process/bounded.ts"))};
const r = await runBounded({ argv: ["sh", "-c", "sleep 60 & echo $! > ${dir}/bg-detach.pid; echo service up"], cwd: ${JSON.stringify(dir)}, timeoutMs: 30000, logPath: ${JSON.stringify(join(dir, "detach.log"))}, leftovers: "detach" });
console.log(JSON.stringify(r));`,
    );
    const launcher = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "pipe" });
    const exit = await Promise.race([launcher.exited, Bun.sleep(20_000).then(() => "still running")]);
    if (exit !== 0) launcher.kill("SIGKILL");
    expect(exit).toBe(0);
    const out = JSON.parse((await new Response(launcher.stdout).text()).trim());
    expect(out).toMatchObject({ exitCode: 0, timedOut: false, tail: ["service up"] });
    const bg = pidIn("bg-detach.pid");
    strays.push(bg);
    expect(alive(bg)).toBe(true);
  }, 30_000);

  test("a timeout kills the whole group, a TERM-ignoring member with KILL", async () => {
    const r = await runBounded(
      cmd("sh -c 'trap \"\" TERM; echo $$ > stubborn.pid; while :; do sleep 1; done' & sleep 60 & echo $! > sleeper.pid; wait", { timeoutMs: 800 }),
    );
    expect(r).toMatchObject({ exitCode: null, timedOut: true });
    for (const f of ["stubborn.pid", "sleeper.pid"]) expect(alive(pidIn(f))).toBe(false);
  });

  test("aborted (the orchestrator ends): the whole group is killed at once, not at its timeout", async () => {
    const abort = new AbortController();
    const running = runBounded(cmd("sleep 60 & echo $! > aborted.pid; wait", { abort: abort.signal, timeoutMs: 60_000 }));
    await waitFor("the check to start", () => existsSync(join(dir, "aborted.pid")) && readFileSync(join(dir, "aborted.pid"), "utf8").trim() !== "", {
      timeoutMs: 5000,
    });
    const t0 = Date.now();
    abort.abort();
    const r = await running;
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.timedOut).toBe(false);
    expect(alive(pidIn("aborted.pid"))).toBe(false);
    // an already aborted signal: killed as soon as it starts
    const done = new AbortController();
    done.abort();
    expect((await runBounded(cmd("sleep 60", { abort: done.signal, timeoutMs: 60_000 }))).exitCode).toBeNull();
  });

  test("400 MB of output: the log stays at its caps, head and tail kept, memory bounded", async () => {
    const c = cmd("echo first-line; head -c 400000000 /dev/zero | tr '\\0' 'x'; echo; echo last-line", {
      caps: { headBytes: 64 * 1024, tailBytes: 32 * 1024 },
    });
    const rssBefore = process.memoryUsage().rss;
    const r = await runBounded(c);
    const grew = process.memoryUsage().rss - rssBefore;
    expect(r).toMatchObject({ exitCode: 0, truncated: true, bytes: 400_000_000 + 11 + 1 + 10 });
    expect(r.tail.at(-1)).toBe("last-line");
    const text = readFileSync(c.logPath, "utf8");
    expect(statSync(c.logPath).size).toBeLessThan(64 * 1024 + 32 * 1024 + 200);
    expect(text.startsWith("first-line\nxxx")).toBe(true);
    expect(text).toMatch(/\[agentmux: \d+ bytes of output dropped here; the first 65536 and the last 32768 are kept\]/);
    expect(text.endsWith("xxx\nlast-line\n")).toBe(true);
    expect(grew).toBeLessThan(150 * 1024 * 1024);
  }, 120_000);

  test("a working folder that does not exist is a spawn error, not an exception", async () => {
    const r = await runBounded(cmd("true", { cwd: join(dir, "nope") }));
    expect(r).toMatchObject({ exitCode: null, timedOut: false, spawnError: `its working folder ${join(dir, "nope")} does not exist`, tail: [] });
    expect(existsSync(join(dir, "logs"))).toBe(true);
  });
});
