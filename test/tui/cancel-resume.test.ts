import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #11.1 in a terminal, the way a user meets it: an interactive demo canceled with the monitor's
 * `c` → `y` (goodbye, exit 130), then the home screen's `r` resumes it, attached, to a commit.
 * Before the fix the resumed run canceled itself again at once (the old cancel request).
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

const socketPair = () => {
  const outer = privateSocket();
  const inner = privateSocket();
  sockets.push(outer, inner);
  return { outer, inner };
};

function state(repo: string): any {
  const root = join(repo, ".agentmux", ".sessions");
  const id = existsSync(root) ? readdirSync(root).find((n) => !n.startsWith(".")) : undefined;
  if (!id) return null;
  try {
    return { id, dir: join(root, id), ...JSON.parse(readFileSync(join(root, id, "state.json"), "utf8")) };
  } catch {
    return null;
  }
}

test("monitor c → y cancels an attached run; home r resumes it to a commit", async () => {
  const root = makeTmpDir("amx-tui-cancel-");
  dirs.push(root);
  const repo = join(root, "repo");
  const { outer, inner } = socketPair();
  const env = { AGENTMUX_TMUX_SOCKET: inner, CI: "", NO_COLOR: "1" };
  const run = new Screen(outer);
  await run.start([scope.bin, "demo", "--dir", repo, "--think-ms", "300", "--keep-session"], root, { width: 160, height: 45 }, env);
  const s = await waitFor(
    "the coder at work",
    () => {
      const st = state(repo);
      return st?.phase === "implementing" && st.agents?.coder ? st : null;
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );
  const runtime = JSON.parse(readFileSync(join(s.dir, "runtime_state.json"), "utf8"));
  const monitor = new Tmux(inner);
  await monitor.run(["send-keys", "-t", runtime.control_pane, "c"]);
  await waitFor("the cancel question", async () => (await monitor.run(["capture-pane", "-p", "-t", runtime.control_pane])).includes("Cancel this run? y/N"));
  await monitor.run(["send-keys", "-t", runtime.control_pane, "y"]);
  const bye = await run.until("the goodbye screen", (x) => x.includes("EXIT="), 30_000);
  expect(bye).toContain("Run canceled");
  expect(bye).toContain("Canceled by the user (monitor); nothing was lost.");
  expect(bye).toContain("EXIT=130");
  expect(state(repo)).toMatchObject({ phase: "failed", interruption_category: "canceled" });

  const { outer: outer2 } = socketPair();
  const home = new Screen(outer2);
  await home.start([scope.bin], repo, { width: 160, height: 45 }, env);
  await home.until("the home screen", (x) => x.includes(s.id));
  await home.keys("r");
  const done = await home.until("the resumed run's goodbye", (x) => x.includes("EXIT="), 90_000);
  expect(done).toContain("Implementation complete");
  expect(done).toContain("EXIT=0");
  const finished = state(repo);
  expect(finished).toMatchObject({ phase: "done" });
  const log = Bun.spawnSync(["git", "log", "--format=%h", "-1", finished.feature_branch], { cwd: repo, stdout: "pipe" }).stdout.toString().trim();
  expect(finished.commit_hash).toBe(log);
}, 180_000);

test("home c → y cancels a live headless run (exit 130, cause says so); resume --ci reaches a commit", async () => {
  const root = makeTmpDir("amx-tui-cancel-");
  dirs.push(root);
  const repo = join(root, "repo");
  const { outer, inner } = socketPair();
  const env = { ...process.env, AGENTMUX_TMUX_SOCKET: inner, CI: "true", NO_COLOR: "1", TMUX: "" };
  const headless = Bun.spawn([scope.bin, "demo", "--ci", "--json", "--dir", repo, "--think-ms", "300", "--keep-session"], {
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = new Response(headless.stdout).text();
  const s = await waitFor(
    "the planner at work",
    () => {
      const st = state(repo);
      return st?.phase === "planning" ? st : null;
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );
  const home = new Screen(outer);
  await home.start([scope.bin], repo, { width: 160, height: 30 }, { AGENTMUX_TMUX_SOCKET: inner, CI: "", NO_COLOR: "1" });
  await home.until("the live session", (x) => x.includes(s.id) && x.includes("live"));
  await home.keys("c");
  await home.until("the cancel question", (x) => x.includes(`Cancel the run ${s.id}? y/N`));
  await home.keys("y");
  expect(await headless.exited).toBe(130);
  const result = (await out)
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .find((e) => e.kind === "result");
  expect(result).toMatchObject({ outcome: "canceled", exit_code: 130, cause: "canceled by the user (home screen)" });
  await home.keys("q");
  const resumed = Bun.spawnSync([scope.bin, "resume", s.id, "--ci"], { cwd: repo, env, stdout: "pipe", stderr: "pipe" });
  expect(resumed.exitCode).toBe(0);
  expect(state(repo)).toMatchObject({ phase: "done" });
}, 180_000);
