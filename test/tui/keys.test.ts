import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, utimesSync } from "node:fs";
import { writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import { join } from "node:path";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { stateIn, writeSession } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(30_000);

/** Keys of the monitor and the home screen, pressed in the compiled binary inside tmux. */
const scope = binaryScope();
let socket = "";
afterEach(() => killTmuxServer(socket));

test("monitor keys: l shows the selected agent's recent output, Enter focuses its pane (compiled binary)", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-monkeys-");
  const scr = new Screen(socket);
  const state = stateIn("architecting", {
    agents: { architect: { role: "architect", label: "[architect] architecture", status: "working", provider: "claude", model: null, since: "x" } },
  });
  const dir = writeSession(project, "s1", state);
  await scr.start([scope.bin, "monitor", dir], project, { width: 100, height: 30 });
  const monitor = (await scr.tmux.run(["display-message", "-p", "-t", "t", "#{pane_id}"])).trim();
  // an agent pane elsewhere in the session, as the orchestrator parks them
  const agent = (await scr.tmux.run(["new-window", "-d", "-t", "t:", "-P", "-F", "#{pane_id}", "sh -c 'echo AGENT-OUTPUT-4242; sleep 600'"])).trim();
  await Bun.write(
    join(dir, "runtime_state.json"),
    JSON.stringify({ tmux_session: "t", tmux_socket: socket, panes: { architect: agent }, control_pane: monitor }),
  );
  const cap = () => scr.tmux.run(["capture-pane", "-p", "-t", monitor]);
  await waitFor("the monitor lists the agent", async () => (await cap()).includes("[architect] architecture"));
  await waitFor("the agent printed its line", async () => (await scr.tmux.run(["capture-pane", "-p", "-t", agent])).includes("AGENT-OUTPUT-4242"));

  await scr.tmux.run(["send-keys", "-t", monitor, "l"]);
  const overlay = await waitFor("recent output overlay", async () => {
    const s = await cap();
    return s.includes("recent output") && s.includes("AGENT-OUTPUT-4242") ? s : null;
  });
  expect(overlay).toContain("[architect] architecture");
  await scr.tmux.run(["send-keys", "-t", monitor, "Escape"]);
  await waitFor("overlay closed", async () => !(await cap()).includes("recent output"));

  await scr.tmux.run(["send-keys", "-t", monitor, "Enter"]);
  await waitFor(
    "the agent's pane is focused",
    async () => (await scr.tmux.run(["display-message", "-p", "-t", agent, "#{window_active}#{pane_active}"])).trim() === "11",
  );
});

test("home screen: d asks, then deletes the selected session; n starts a run from a text box (compiled binary)", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-homekeys-"); // not a git repository at first
  const old = writeSession(project, "20250301-100000-alpha", stateIn("failed", { updated_at: "2025-03-01T10:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 120, height: 20 }, { AGENTMUX_TMUX_SOCKET: socket });
  await scr.until("home lists the session", (s) => s.includes("20250301-100000-alpha"));

  await scr.keys("d");
  await scr.until("delete confirmation", (s) => s.includes("Delete 20250301-100000-alpha? y/N"));
  await scr.keys("n"); // no: nothing happens
  await scr.until("question closed", (s) => !s.includes("y/N"));
  expect(existsSync(old)).toBe(true);
  await scr.keys("d");
  await scr.until("delete confirmation again", (s) => s.includes("y/N"));
  await scr.keys("y");
  await waitFor("the session folder is removed", () => !existsSync(old));
  await scr.until("the row is gone and the status says so", (s) => s.includes("deleted 20250301-100000-alpha") && !s.includes("› 20250301-100000-alpha"));

  // not a git repository: said at once, before a request is typed (#11.13)
  await scr.keys("n");
  const refused = await scr.until("the home screen says why", (s) => s.includes("is not a git repository: run git init"));
  expect(refused).toContain(`${project} is not a git repository: run git init and make a first commit, then press n`);
  expect(refused).not.toContain("What should agentmux build?");
  Bun.spawnSync(["git", "init", "-q"], { cwd: project });
  await scr.keys("n");
  await scr.until("new-run text box", (s) => s.includes("What should agentmux build?"));
  await scr.keys("Escape");
  await scr.until("the text box closed", (s) => !s.includes("What should agentmux build?"));
});

test("home screen: the phase column follows state.json live and says when a run needs the user (#11.8)", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-homelive-");
  const dir = writeSession(project, "20250301-100000-alpha", stateIn("reviewing", { updated_at: "2025-03-01T10:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 120, height: 20 }, { AGENTMUX_TMUX_SOCKET: socket });
  await scr.until("home lists the session", (s) => /20250301-100000-alpha\s+reviewing/.test(s));
  // the run moves on inside its own folder (an atomic state.json write, as the orchestrator does)
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("completing", { awaiting_decision: true }), feature_dir: dir });
  await scr.until("awaiting approval", (s) => /20250301-100000-alpha\s+awaiting approval/.test(s));
  writeJsonAtomic(join(dir, "state.json"), {
    ...stateIn("implementing", {
      agents: {
        "coder:1": {
          role: "coder",
          label: "coder 1",
          status: "needs_input",
          provider: "claude",
          since: "x",
          question: { kind: "question", text: "Which database?", at: "x" },
        },
      },
    }),
    feature_dir: dir,
  });
  await scr.until("needs input", (s) => /20250301-100000-alpha\s+needs input/.test(s));
  removeDir(project);
});

test("home screen: r on a finished or unreadable session says why and the home screen stays (compiled binary)", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-homeresume-");
  writeSession(project, "20250301-100000-alpha", stateIn("done", { updated_at: "2025-03-01T10:00:00.000Z", commit_hash: "abc1234def" }));
  const broken = writeSession(project, "20250301-090000-beta", stateIn("failed", { updated_at: "2025-03-01T09:00:00.000Z" }));
  await Bun.write(join(broken, "state.json"), "{ not json");
  utimesSync(join(broken, "state.json"), new Date("2025-03-01T09:00:00Z"), new Date("2025-03-01T09:00:00Z")); // listed after alpha
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 120, height: 20 }, { AGENTMUX_TMUX_SOCKET: socket });
  await scr.until("home lists both sessions", (s) => s.includes("20250301-100000-alpha") && s.includes("20250301-090000-beta"));
  await scr.until("the finished one is selected", (s) => s.includes("› 20250301-100000-alpha"));

  await scr.keys("r");
  const done = await scr.until("the home screen says the run finished", (s) => s.includes("20250301-100000-alpha finished"));
  expect(done).toContain("20250301-100000-alpha finished (commit abc1234): nothing to resume");
  await scr.keys("Down");
  await scr.until("the unreadable one is selected", (s) => s.includes("› 20250301-090000-beta"));
  await scr.keys("r");
  const unreadable = await scr.until("the home screen says why it cannot resume", (s) => s.includes("cannot be resumed"));
  expect(unreadable).toContain("20250301-090000-beta cannot be resumed: its state.json");
  expect(unreadable).toContain("d deletes it");
  // still the home screen: its keys still work
  await scr.keys("Up");
  await scr.until("back on the first row", (s) => s.includes("› 20250301-100000-alpha"));
  removeDir(project);
});

test("home screen: a message about one session goes when the selection moves or another action starts (compiled binary)", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-homestale-");
  writeSession(project, "20250301-100000-alpha", stateIn("done", { updated_at: "2025-03-01T10:00:00.000Z", commit_hash: "abc1234def" }));
  writeSession(project, "20250301-090000-beta", stateIn("failed", { updated_at: "2025-03-01T09:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 120, height: 20 }, { AGENTMUX_TMUX_SOCKET: socket });
  await scr.until("the finished one is selected", (s) => s.includes("› 20250301-100000-alpha"));
  const said = "20250301-100000-alpha finished (commit abc1234): nothing to resume";

  await scr.keys("r");
  await scr.until("the home screen says the run finished", (s) => s.includes(said));
  await scr.keys("Down");
  const moved = await scr.until("the next row is selected", (s) => s.includes("› 20250301-090000-beta"));
  expect(moved).not.toContain(said);
  expect(moved).toContain("↑/↓ select");

  await scr.keys("Up");
  await scr.until("back on the finished one", (s) => s.includes("› 20250301-100000-alpha"));
  await scr.keys("r");
  await scr.until("the message again", (s) => s.includes(said));
  await scr.keys("d");
  const asked = await scr.until("the delete question", (s) => s.includes("Delete 20250301-100000-alpha? y/N"));
  expect(asked).not.toContain(said);
  await scr.keys("n");
  await scr.until("question closed", (s) => !s.includes("y/N"));
  removeDir(project);
});

test("home screen at 80 columns: a question longer than a line wraps, so its y/N is seen (compiled binary)", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-homewrap-");
  const id = "20250301-100000-add-a-hello-world-script-and-a-greeting-for-everyone";
  writeSession(project, id, stateIn("failed", { updated_at: "2025-03-01T10:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 80, height: 24 }, { AGENTMUX_TMUX_SOCKET: socket });
  await scr.until("home lists the session", (s) => s.includes("20250301-100000-add"));
  await scr.keys("d");
  const asked = await scr.until("the delete question", (s) => s.includes("Delete 20250301"));
  const text = asked
    .split("\n")
    .map((l) => l.replace(/^[\s│]+|[\s│]+$/g, ""))
    .join(" ");
  expect(text).toContain(`${id}? y/N`);
  await scr.keys("n");
  await scr.until("question closed", (s) => !s.includes("Delete 20250301"));
  removeDir(project);
});
