import { expect, test } from "bun:test";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { jsonEvents, readState, release, spawnBinary } from "../fault/harness.ts";
import { runBinary } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * A session id is unique within its project only (`<date>-<time>-<slug>`, or `--name`), but all
 * runs share agentmux's tmux server, where a run's tmux session was `agentmux-<id>`. Two projects
 * with one id — the same request started in the same second, or the same `--name` — collided:
 * the second start failed ("tmux session exists"), and in the other project `status` showed the
 * first run as its own, `resume` closed it as "stale" and `clean` killed it.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;
const NAME = "fix-login";
const sessionOf = (repo: string) => join(repo, ".agentmux/.sessions", NAME);
const HELD = ["coder_prompt_whole", "coder_prompt_1"];
const tmuxSessions = (socket: string) =>
  Bun.spawnSync(["tmux", "-L", socket, "list-sessions", "-F", "#{session_name}"], { env: { ...process.env, TMUX: "" } })
    .stdout.toString()
    .split("\n")
    .filter(Boolean);

test("two projects, one session name, one tmux server: each run has its own tmux session; status, clean and resume in one never touch the other's run", async () => {
  const socket = scope.socket();
  // A's, B's and D's coders stay at work until the three runs' tmux sessions are up together (on a loaded machine one could end first)
  const held = [`hold=${HELD.join("+")}`];
  const [a, b, c, d] = [simProject({ dirs }, 250, held), simProject({ dirs }, 250, held), simProject({ dirs }, 250), simProject({ dirs }, 250, held)];
  const run = (repo: string, request: string) =>
    spawnBinary(scope.bin, ["run", request, "--ci", "--json", "--keep-session", "--name", NAME], { cwd: repo, socket });

  // B and C were canceled while architecting: resumable, no tmux session of their own now
  for (const repo of [b, c]) {
    const r = run(repo, "Add beta");
    await waitFor("the run to reach architecting", () => Object.keys(readState(sessionOf(repo))?.agents ?? {}).length > 0, {
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    r.proc.kill("SIGTERM");
    expect((await r.done).code).toBe(130);
  }

  const runA = run(a, "Add alpha");
  await waitFor("run A implementing", () => readState(sessionOf(a))?.phase === "implementing", { timeoutMs: 60_000, intervalMs: 20 });
  const tmuxOfA = readState(sessionOf(a)).session_name;

  // B's status does not take A's tmux session for its own
  const status = await runBinary(scope.bin, ["status", "--json"], { cwd: b, socket });
  expect(status.code).toBe(0);
  expect(JSON.parse(status.stdout)).toMatchObject({ id: NAME, live: false });

  // C's clean leaves A's tmux session alone
  const clean = await runBinary(scope.bin, ["clean", "--force"], { cwd: c, socket });
  expect(clean.code).toBe(0);
  expect(Bun.spawnSync(["tmux", "-L", socket, "has-session", "-t", `=${tmuxOfA}`], { env: { ...process.env, TMUX: "" } }).exitCode).toBe(0);

  // B resumes and D starts afresh while A runs: three runs with one id, three commits
  const others = [runBinary(scope.bin, ["resume", "--ci", "--json"], { cwd: b, socket, timeoutMs: 120_000 }), run(d, "Add delta").done];
  await waitFor("three runs' tmux sessions at once", () => tmuxSessions(socket).filter((n) => n.startsWith(`agentmux-${NAME}`)).length >= 3, {
    timeoutMs: 90_000,
  });
  for (const repo of [a, b, d]) release(sessionOf(repo), HELD);
  const [ra, rb, rd] = await Promise.all([runA.done, ...others]);
  for (const [what, r] of [
    ["A", ra],
    ["B resumed", rb],
    ["D", rd],
  ] as const) {
    if (r.code !== 0) console.error(what, r.stdout, r.stderr);
    expect({ what, code: r.code }).toEqual({ what, code: 0 });
    expect(jsonEvents(r.stdout).find((e) => e.kind === "result")).toMatchObject({ outcome: "success" });
  }
  const names = [a, b, d].map((repo) => readState(sessionOf(repo)).session_name);
  expect(new Set(names).size).toBe(3);
  for (const n of names) expect(n).toStartWith(`agentmux-${NAME}`);
}, 240_000);
