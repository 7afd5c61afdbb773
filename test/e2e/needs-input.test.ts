/**
 * An attended run (a terminal, no --ci) whose architect asks a question: the run waits in a clear
 * needs_input state that the monitor and `agentmux status` show; an answer typed into the
 * architect's pane lets it go on to a commit.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { readState } from "../fault/harness.ts";
import { runBinary } from "./harness.ts";
import { isolatedBinary, Screen } from "../tui/tmux-screen.ts";

let bin = "";
const outer = privateSocket();
const inner = privateSocket();
const root = makeTmpDir("amx-ask-");
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  killTmuxServer(outer);
  killTmuxServer(inner);
  removeDir(root);
  removeDir(join(bin, ".."));
});

test("ask=architect in a terminal: needs_input with the question in the monitor and status; the answer lets the run commit", async () => {
  const repo = join(root, "repo");
  const scr = new Screen(outer);
  await scr.start(
    [bin, "demo", "--dir", repo, "--scenario", "ask=architect", "--think-ms", "0"],
    root,
    { width: 160, height: 45 },
    { AGENTMUX_TMUX_SOCKET: inner, CI: "", TMUX: "" },
  );
  const sessions = join(repo, ".agentmux/.sessions");
  const dir = await waitFor("the session folder", () => (existsSync(sessions) && readdirSync(sessions)[0] ? join(sessions, readdirSync(sessions)[0]!) : null), {
    timeoutMs: 60_000,
  });
  const state = await waitFor(
    "the architect to ask",
    () => {
      const s = readState(dir);
      return s?.agents?.architect?.status === "needs_input" ? s : null;
    },
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  const question = "Should the greeting also support other languages, or English only?";
  expect(state.headless).toBeUndefined();
  expect(state.agents.architect.question).toMatchObject({ kind: "question", text: question });

  // the monitor (the control pane of the attached session) says so
  const screen = await scr.until("the monitor showing the question", (s) => s.includes("[ NEEDS INPUT ]"), 20_000);
  expect(screen).toContain("? [architect] architecture [ NEEDS INPUT ]");
  // status, as text and JSON
  const st = await runBinary(bin, ["status", "--json"], { cwd: repo, socket: inner });
  const agent = JSON.parse(st.stdout).agents.find((a: any) => a.key === "architect");
  expect(agent).toMatchObject({ status: "needs_input", question: { kind: "question", text: question } });
  const text = await runBinary(bin, ["status"], { cwd: repo, socket: inner });
  expect(text.stdout).toContain("needs input");
  expect(text.stdout).toContain(`asks: ${question}`);
  expect(readState(dir).phase).toBe("architecting"); // waiting: no reminder, no failure

  // a person answers in the architect's pane
  const tmux = new Tmux(inner);
  const pane = JSON.parse(await Bun.file(join(dir, "runtime_state.json")).text()).panes.architect;
  await tmux.run(["send-keys", "-t", pane, "-l", "English only, please."]);
  await tmux.run(["send-keys", "-t", pane, "Enter"]);
  await waitFor("the architect back at work", () => readState(dir)?.agents?.architect?.status !== "needs_input", { timeoutMs: 30_000 });
  const end = await scr.until("the run to finish", (s) => /EXIT=\d+/.test(s), 120_000);
  expect(end).toContain("EXIT=0");
  expect(await Bun.file(join(repo, ".agentmux/.last_completion.json")).exists()).toBe(true);
}, 240_000);
