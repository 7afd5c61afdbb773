import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary, tmuxServerRunning } from "./harness.ts";

let bin: string;
const socket = privateSocket();
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => killTmuxServer(socket));

test("a cancel request (what the monitor's c → y writes) ends the run: exit 130, failed/run_canceled, resume command", async () => {
  const repo = join(makeTmpDir(), "repo");
  const run = runBinary(bin, ["demo", "--ci", "--json", "--dir", repo, "--scenario", "stall=coder"], { socket });
  const sessions = join(repo, ".agentmux", ".sessions");
  const dir = await waitFor(
    "the coder to be working",
    () => {
      if (!existsSync(sessions)) return null;
      const id = readdirSync(sessions)[0];
      if (!id) return null;
      const s = JSON.parse(readFileSync(join(sessions, id, "state.json"), "utf8"));
      return s.agents?.coder?.status === "working" ? join(sessions, id) : null;
    },
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  writeFileSync(join(dir, ".runtime", "cancel_request"), JSON.stringify({ at: new Date().toISOString(), by: "monitor" }));
  const r = await run;
  expect(r.code).toBe(130);
  const result = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .find((e) => e.kind === "result");
  expect(result).toMatchObject({ outcome: "canceled", exit_code: 130, cause: "canceled by the user (monitor)" });
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(state).toMatchObject({ phase: "failed", last_event: "run_canceled", interruption_category: "canceled" });
  expect(state.interruption_resume_command).toBe(`agentmux resume ${dir.split("/").pop()}`);
  expect(tmuxServerRunning(socket)).toBe(false); // the session folder stays, the tmux session goes
}, 120_000);
