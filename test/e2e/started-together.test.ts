import { expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { jsonEvents, readState, spawnBinary } from "../fault/harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";
import { git, privateSocket } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { timeoutFor, trialCount } from "../helpers/trials.ts";

/**
 * #31.3: two `agentmux run` of one request started at the same moment in one checkout took the
 * same branch name (chosen before any lock): both reported success, one commit held both runs'
 * work, and one run's files stayed uncommitted in the checkout. Over several trials, each run
 * ends with its own branch and commit, and the checkout is back on main, clean.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;
// AGENTMUX_TEST_TRIALS=20 runs more by hand (test/helpers/trials.ts)
const TRIALS = trialCount(3);
const TIMEOUT = timeoutFor(TRIALS, 200_000, 600_000);

test(
  `two \`run --ci\` of one request started together end on two branches (${TRIALS} trials)`,
  async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const repo = simProject({ dirs }, 100);
      const socket = privateSocket();
      sockets.push(socket);
      // on both sides of a second's turn: two session ids (one per second), one feature name
      await Bun.sleep(1000 - (Date.now() % 1000) + 970);
      const start = () => spawnBinary(scope.bin, ["run", "Add alpha", "--ci", "--json"], { cwd: repo, socket, timeoutMs: 150_000 });
      const first = start();
      await Bun.sleep(50);
      const runs = [first, start()];
      const results = await Promise.all(runs.map((r) => r.done));
      if (results.some((r) => r.code !== 0)) console.error(trial, results);
      expect(results.map((r) => r.code)).toEqual([0, 0]);
      const branches = results.map((r) => jsonEvents(r.stdout).find((e) => e.kind === "result").branch as string);
      expect(new Set(branches).size).toBe(2);
      for (const b of branches) {
        expect(git(repo, "rev-list", "--count", `main..${b}`)).toBe("1");
        expect(git(repo, "show", "--name-only", "--format=", b).split("\n").filter(Boolean).sort()).toEqual(["src/alpha.js", "test/alpha.test.js"]);
      }
      expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
      expect(git(repo, "status", "--porcelain")).toBe("");
    }
  },
  TIMEOUT,
);

/**
 * #31.3: two `agentmux resume` of one session at once: the loser took the winner's fresh tmux
 * session for a stale one and killed it (one trial in seven ended failed), and always said
 * "failed". The session is taken before anything is touched: the second one says the session is
 * already being resumed (or running) and changes nothing; the run ends done.
 */
test(
  `two \`resume --ci\` of one session started together: one resumes, the other says so (${TRIALS} trials)`,
  async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const demo = startSlowDemo(scope.bin, { track: scope, thinkMs: 150 });
      const dir = await waitForPhase(demo.repo, "planning");
      demo.proc.kill("SIGTERM");
      expect((await demo.done).code).toBe(130);
      const resumes = [0, 1].map(() => spawnBinary(scope.bin, ["resume", "--ci"], { cwd: demo.repo, socket: demo.socket, timeoutMs: 150_000 }));
      const results = await Promise.all(resumes.map((r) => r.done));
      const won = results.filter((r) => r.code === 0);
      const lost = results.filter((r) => r.code !== 0);
      if (won.length !== 1) console.error(trial, results);
      expect(won.length).toBe(1);
      expect(lost[0]!.code).toBe(1);
      // by the time the loser looks, the winner may have started its orchestrator: then `resume` (no id) finds
      // the only session running ("there is no session to resume: <id> is still running"), said as such (20 trials)
      expect(lost[0]!.stderr).toMatch(/the session is already being resumed \(agentmux pid \d+\)|the session is still running|: \S+ is still running/);
      expect(lost[0]!.stderr + lost[0]!.stdout).not.toContain("failed");
      expect(lost[0]!.stdout).not.toContain("closing the stale tmux session");
      expect(readState(dir)).toMatchObject({ phase: "done" });
    }
  },
  TIMEOUT,
);

/**
 * #31 done-means: two worktree runs with a setup step started together each get their own
 * worktree, branch and port offset, run their setup there, and end done.
 */
test(
  `two \`run --ci --worktree\` with worktree.setup started together end done with their own port offsets (${TRIALS} trials)`,
  async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const repo = simProject({ dirs }, 100);
      const config = join(repo, ".agentmux/config.yaml");
      writeFileSync(config, stringify({ ...parse(readFileSync(config, "utf8")), worktree: { setup: [`printf '%s' "$AGENTMUX_PORT_OFFSET" > .setup-port`] } }));
      git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "setup");
      const socket = privateSocket();
      sockets.push(socket);
      const runs = ["Add alpha", "Add beta"].map((r) =>
        spawnBinary(scope.bin, ["run", r, "--ci", "--json", "--worktree", "--keep-session"], { cwd: repo, socket, timeoutMs: 150_000 }),
      );
      const results = await Promise.all(runs.map((r) => r.done));
      if (results.some((r) => r.code !== 0)) console.error(trial, results);
      expect(results.map((r) => r.code)).toEqual([0, 0]);
      const sessions = join(repo, ".agentmux/.sessions");
      const states = readdirSync(sessions)
        .filter((n) => !n.startsWith("."))
        .map((n) => readState(join(sessions, n))!);
      expect(states.map((s) => s.port_offset).sort()).toEqual([10, 20]);
      expect(new Set(states.map((s) => s.feature_branch)).size).toBe(2);
      for (const s of states) expect(s.phase).toBe("done");
    }
  },
  TIMEOUT,
);
