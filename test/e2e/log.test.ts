import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { LogRecord } from "../../src/schema/log.ts";
import { readLog } from "../../src/session/log.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const socket = privateSocket();
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => killTmuxServer(socket));

/** #13.9: orchestrator.log is JSON lines with stable keys; what the process prints goes to orchestrator.out. */
test("a whole run's orchestrator.log: every line a record; status --log renders it; --log --json prints the records", async () => {
  const repo = join(makeTmpDir(), "repo");
  const r = await runBinary(bin, ["demo", "--ci", "--keep-session", "--dir", repo], { socket });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const sessions = join(repo, ".agentmux", ".sessions");
  const id = readdirSync(sessions).find((d) => !d.startsWith("."))!;
  const dir = join(sessions, id);
  const lines = readFileSync(join(dir, "orchestrator.log"), "utf8").split("\n").filter(Boolean);
  for (const line of lines) expect(LogRecord.safeParse(JSON.parse(line)).success).toBe(true);
  const records = readLog(dir);
  const events = records.map((x) => x.event);
  expect(events[0]).toBe("orchestrator_started");
  expect(events.at(-1)).toBe("orchestrator_finished");
  expect(records.at(-1)!.data).toEqual({ code: 0, cleanup: false });
  expect(records.filter((x) => x.event === "agent_launched").map((x) => x.agent)).toEqual(expect.arrayContaining(["architect", "planner", "coder"]));
  expect(String(records.find((x) => x.event === "committed")?.data?.branch)).toStartWith("feature/");
  expect(records.filter((x) => x.event === "transition").at(-1)).toMatchObject({ phase: "done", data: { last_event: "approval_received" } });
  expect(existsSync(join(dir, "orchestrator.out"))).toBe(true);

  const text = await runBinary(bin, ["status", id, "--log"], { cwd: repo, socket });
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/^\d\d:\d\d:\d\d\.\d{3}  info   orchestrator_started /m);
  expect(text.stdout).toMatch(/ agent_launched +\[architect\] launched architect /);
  const json = await runBinary(bin, ["status", id, "--log", "--json"], { cwd: repo, socket });
  expect(
    json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l)),
  ).toEqual(records);
}, 180_000);
