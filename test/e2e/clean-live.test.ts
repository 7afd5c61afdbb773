import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir } from "../helpers/tmp.ts";
import { alive, orchestratorPid, tmux } from "../fault/harness.ts";
import { stateIn, writeSession } from "../tui/fixtures.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary, tmuxServerRunning } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

let bin: string;
const track = { sockets: [] as string[], dirs: [] as string[] };
beforeAll(() => {
  bin = isolatedBinary();
  track.dirs.push(join(bin, ".."));
});
afterAll(() => {
  track.sockets.forEach(killTmuxServer);
  track.dirs.forEach(removeDir);
});

/** #17.2: `clean --force <live id>` said "removed", but the running orchestrator wrote state.json again: a ghost. */
test("clean --force of a live run stops its orchestrator first: no ghost folder, no processes, no tmux", async () => {
  const demo = startSlowDemo(bin, { track, thinkMs: 400 });
  const dir = await waitForPhase(demo.repo, "implementing");
  const pid = orchestratorPid(dir)!;
  const r = await runBinary(bin, ["clean", "--force", dir.split("/").pop()!], { cwd: demo.repo, socket: demo.socket });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("Removed 1 session, stopped 1 live run.");
  expect(alive(pid)).toBe(false); // clean returned only after the orchestrator had ended
  expect((await demo.done).code).toBe(130);
  await Bun.sleep(1500); // a ghost would be written within the orchestrator's next steps
  expect(existsSync(dir)).toBe(false);
  expect(tmuxServerRunning(demo.socket)).toBe(false);
}, 120_000);

/** A headless run removed by `clean --force` from another terminal said "resume with: agentmux resume <id>" for a folder that was gone. */
test("a headless run removed by clean does not offer a resume of its removed session", async () => {
  const demo = startSlowDemo(bin, { track, thinkMs: 400, json: false });
  const dir = await waitForPhase(demo.repo, "planning");
  const r = await runBinary(bin, ["clean", "--force", dir.split("/").pop()!], { cwd: demo.repo, socket: demo.socket });
  expect(r.code).toBe(0);
  const run = await demo.done;
  expect(run.code).toBe(130);
  expect(existsSync(dir)).toBe(false);
  expect(run.stdout).toContain("canceled: canceled by agentmux clean, which removes the session folder: nothing to resume");
  expect(run.stdout).not.toContain("resume with:");
  expect(run.stdout).not.toContain("log: ");
}, 120_000);

/** #18.15: agent-writable runtime_state.json / state.json steered `clean --force` into killing another tmux session. */
test("clean never kills a tmux session that is not the session's own, on a socket named by a session file", async () => {
  const project = makeTmpDir("amx-steer-");
  track.dirs.push(project);
  const user = privateSocket();
  const ours = privateSocket();
  track.sockets.push(user, ours);
  tmux(user, "new-session", "-d", "-s", "my-work", "sleep 120");
  const id = "20250301-100000-steered";
  writeSession(project, id, stateIn("implementing", { session_name: "my-work" }), {
    runtime: { tmux_session: "my-work", tmux_socket: user, panes: {} },
  });
  const r = await runBinary(bin, ["clean", "--force", id], { cwd: project, socket: ours });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('state.json names the tmux session "my-work", not agentmux-20250301-100000-steered: left alone');
  expect(tmux(user, "has-session", "-t", "=my-work").code).toBe(0);

  // a socket name from a session file that is a path is ignored; in config or the environment it is an error
  const id2 = "20250301-100001-pathy";
  writeSession(project, id2, stateIn("implementing", { session_name: `agentmux-${id2}` }), {
    runtime: { tmux_session: `agentmux-${id2}`, tmux_socket: `../../${user}`, panes: {} },
  });
  const j = await runBinary(bin, ["status", id2, "--json"], { cwd: project, socket: ours });
  expect(JSON.parse(j.stdout).live).toBe(false);
  writeFileSync(join(project, "bad.yaml"), "tmux:\n  socket: ../evil\n");
  const cfg = await runBinary(bin, ["config", "--config", join(project, "bad.yaml")], { cwd: project, socket: ours });
  expect(cfg.code).toBe(2);
  expect(cfg.stderr).toContain("tmux.socket");
  const env = await runBinary(bin, ["sessions"], { cwd: project, socket: "../x" });
  expect(env.code).toBe(2);
  expect(env.stderr).toContain('"../x" is not a tmux socket name');
  expect(env.stderr).toContain("AGENTMUX_TMUX_SOCKET");
}, 60_000);
