import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import { killTmuxServer, makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { at, stateIn, writeSession } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(30_000);

/** #11.9: the monitor's key bar, cut notes and a full-window output view (compiled binary in tmux). */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

const tmp = (p: string) => {
  const d = makeTmpDir(p);
  dirs.push(d);
  return d;
};

const NOTE = "プロンプトが受け付けられませんでした。エージェントの画面を確認してください then more words to make it long";

test("a stuck agent's long note (wide characters) is cut to the 44-column pane and the log below stays intact; the key bar is on the last line", async () => {
  socket = privateSocket();
  const project = tmp("amx-mon-note-");
  const state = stateIn("implementing", {
    agents: { "coder:1": { role: "coder", label: "coder 1", status: "stuck", provider: "claude", model: "claude-sonnet-4", since: at(9), note: NOTE } },
  });
  const dir = writeSession(project, "s1", state, { created: ["2025-03-01 10:01:00  requirements.md"] });
  const scr = new Screen(socket);
  await scr.start([scope.bin, "monitor", dir], project, { width: 44, height: 30 });
  const s = await scr.until("the monitor", (x) => x.includes("coder 1 [ STUCK ]") && x.includes("─ LOG"));
  const lines = s.split("\n");
  const note = lines.findIndex((l) => l.includes("claude/sonnet-4"));
  expect(lines[note]).toMatch(/^ {4}claude\/sonnet-4 · プロンプト.*…$/);
  expect(lines[note + 1]).toMatch(/^─ LOG ─+$/);
  expect(lines[note + 2]).toBe("10:00 > architecting (starting up)");
  expect(lines[note + 3]).toBe("10:01 + requirements.md");
  expect(lines.at(-1)).toBe("? help · l output · Ctrl-b d detach");
});

test("a row exactly as wide as the pane stays one row (blessed does not wrap it and shift the log)", async () => {
  socket = privateSocket();
  const project = tmp("amx-mon-exact-");
  const dir = writeSession(
    project,
    "s1",
    stateIn("implementing", {
      agents: { "coder:1": { role: "coder", label: "[coder] Core greeting module", status: "working", provider: "sim", since: at(9) } },
    }),
    { created: ["2025-03-01 10:01:00  requirements.md"] },
  );
  const scr = new Screen(socket);
  await scr.start([scope.bin, "monitor", dir], project, { width: 43, height: 30 });
  const s = await scr.until("the monitor", (x) => x.includes("─ LOG"));
  const lines = s.split("\n");
  const row = lines.findIndex((l) => l.includes("[coder] Core greeting module"));
  expect(lines[row]).toBe("›● [coder] Core greeting module [ WORKING ]");
  expect(lines[row + 1]).toBe("    sim");
  expect(lines[row + 3]).toBe("10:00 > architecting (starting up)");
});

test("the key bar shows every key when the pane is wide; ? lists them all", async () => {
  socket = privateSocket();
  const project = tmp("amx-mon-keys-");
  const dir = writeSession(project, "s1", stateIn("architecting"));
  const scr = new Screen(socket);
  await scr.start([scope.bin, "monitor", dir], project, { width: 100, height: 30 });
  const s = await scr.until("the monitor", (x) => x.includes("▶ architecting"));
  expect(s.split("\n").at(-1)).toBe("? help · Enter focus · l output · c cancel · Ctrl-b d detach");
  await scr.keys("?");
  const help = await scr.until("the help", (x) => x.includes("this help"));
  expect(help).toContain("Ctrl-b d  detach: the run goes on; agentmux attach");
});

test("l shows an agent's output over the whole window (the monitor's pane is zoomed) and Esc gives the layout back", async () => {
  socket = privateSocket();
  const project = tmp("amx-mon-zoom-");
  const dir = writeSession(
    project,
    "s1",
    stateIn("architecting", {
      agents: { architect: { role: "architect", label: "architect", status: "working", provider: "claude", since: "x" } },
    }),
  );
  const scr = new Screen(socket);
  await scr.start(["sh", "-c", "sleep 600"], project, { width: 140, height: 30 });
  // the monitor in a 44-column pane left of the agent's, as a run lays them out
  const long = "OUTPUT-" + "x".repeat(90) + "-END";
  const agent = (await scr.tmux.run(["display-message", "-p", "-t", "t", "#{pane_id}"])).trim();
  await scr.tmux.run(["respawn-pane", "-k", "-t", agent, `sh -c 'echo ${long}; sleep 600'`]);
  const monitor = (
    await scr.tmux.run(["split-window", "-h", "-b", "-l", "44", "-t", agent, "-P", "-F", "#{pane_id}", `env TERM=xterm-256color ${scope.bin} monitor ${dir}`])
  ).trim();
  await Bun.write(
    join(dir, "runtime_state.json"),
    JSON.stringify({ tmux_session: "t", tmux_socket: socket, panes: { architect: agent }, control_pane: monitor }),
  );
  const cap = () => scr.tmux.run(["capture-pane", "-p", "-t", monitor]);
  const zoomed = () => scr.tmux.run(["display-message", "-p", "-t", monitor, "#{window_zoomed_flag} #{pane_width}"]);
  await waitFor("the monitor lists the agent", async () => (await cap()).includes("architect [ WORKING ]"));
  await scr.tmux.run(["send-keys", "-t", monitor, "l"]);
  const view = await waitFor("the output, whole lines", async () => {
    const s = await cap();
    return s.includes(long) ? s : null;
  });
  expect(view).toContain("recent output");
  expect(await zoomed()).toBe("1 140");
  await scr.tmux.run(["send-keys", "-t", monitor, "Escape"]);
  await waitFor("the zoom is given back", async () => (await zoomed()) === "0 44");
  await waitFor("the monitor again", async () => (await cap()).includes("▶ architecting"));
});

test("#31: ? at 80×24 shows the keys over the whole window, one per line, not squeezed into the 30-column monitor pane", async () => {
  socket = privateSocket();
  const project = tmp("amx-mon-help-");
  const dir = writeSession(project, "s1", stateIn("architecting"));
  const scr = new Screen(socket);
  await scr.start(["sh", "-c", "sleep 600"], project, { width: 80, height: 24 });
  const agent = (await scr.tmux.run(["display-message", "-p", "-t", "t", "#{pane_id}"])).trim();
  const monitor = (
    await scr.tmux.run(["split-window", "-h", "-b", "-l", "30", "-t", agent, "-P", "-F", "#{pane_id}", `env TERM=xterm-256color ${scope.bin} monitor ${dir}`])
  ).trim();
  await Bun.write(join(dir, "runtime_state.json"), JSON.stringify({ tmux_session: "t", tmux_socket: socket, panes: {}, control_pane: monitor }));
  const cap = () => scr.tmux.run(["capture-pane", "-p", "-t", monitor]);
  const zoomed = () => scr.tmux.run(["display-message", "-p", "-t", monitor, "#{window_zoomed_flag} #{pane_width}"]);
  await waitFor("the monitor", async () => (await cap()).includes("▶ architecting"));
  await scr.tmux.run(["send-keys", "-t", monitor, "?"]);
  const help = await waitFor("the help, whole lines", async () => {
    const s = await cap();
    return s.includes("a      open the approval panel (when it waits for you)") ? s : null;
  });
  expect(help).toContain("g      go on past the budget (when it paused the agents)");
  expect(await zoomed()).toBe("1 80");
  await scr.tmux.run(["send-keys", "-t", monitor, "Escape"]);
  await waitFor("the zoom is given back", async () => (await zoomed()) === "0 30");
});

test("the monitor runs on JSC's interpreter (#15.2): it restarted itself in place with BUN_JSC_useJIT=0, and draws and follows state.json as before", async () => {
  socket = privateSocket();
  const project = tmp("amx-mon-lean-");
  const dir = writeSession(project, "s1", stateIn("implementing"));
  const scr = new Screen(socket);
  await scr.start([scope.bin, "monitor", dir], project, { width: 44, height: 30 });
  await scr.until("the monitor", (x) => x.includes("▶ implementing"));
  // the pane runs a shell (see Screen.start) whose child is the monitor: the same process after execve
  const shell = (await scr.tmux.run(["display-message", "-p", "-t", "t", "#{pane_pid}"])).trim();
  const child = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(/\s+/)[0]!;
  expect(readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").slice(1, 3)).toEqual(["monitor", dir]);
  expect(readFileSync(`/proc/${child}/environ`, "utf8").split("\0")).toContain("BUN_JSC_useJIT=0");
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("reviewing"), feature_dir: dir });
  await scr.until("the next phase", (x) => x.includes("▶ reviewing"));
});
