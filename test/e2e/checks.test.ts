import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { alive, orchestratorPid, readState, sessionDir as faultSessionDir, spawnBinary } from "../fault/harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, processesMentioning, runBinary } from "./harness.ts";
import { commitSimProject } from "./sim-project.ts";

/**
 * #26 through the compiled binary: the project's own checks run as steps of a run. The demo
 * configures `npm test` (a real test suite the simulated coder writes) as a required check.
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

const sessionDir = (repo: string) => {
  const root = join(repo, ".agentmux", ".sessions");
  return join(
    root,
    readdirSync(root).find((n) => !n.startsWith("."))!,
  );
};

/**
 * A demo run whose extra check `slow` hangs the first time it runs (any later run passes at
 * once), returned once that check is running: to be cut off by a cancel or a killed orchestrator.
 */
async function demoWithCheckRunning(name: string) {
  const socket = privateSocket();
  sockets.push(socket);
  const tmp = makeTmpDir("amx-ck-");
  const repo = join(tmp, "repo");
  const marker = join(tmp, `${name}-${Date.now()}`);
  const extra = join(tmp, "extra.yaml");
  writeFileSync(extra, stringify({ checks: { slow: { command: `if [ -f '${marker}' ]; then exit 0; fi; touch '${marker}'; sleep 300`, timeout_s: 600 } } }));
  const run = spawnBinary(bin, ["demo", "--ci", "--keep-session", "--dir", repo, "--config", extra], { socket });
  const dir = await waitFor(
    "the check to be running",
    () => {
      const d = faultSessionDir(repo);
      const s = d && existsSync(join(d, "state.json")) ? readState(d) : null;
      return s?.checks?.[0]?.running?.slow ? (d as string) : null;
    },
    { timeoutMs: 90_000, intervalMs: 20 },
  );
  await waitFor("its command to have started", () => existsSync(marker), { timeoutMs: 10_000 });
  return { socket, repo, marker, run, dir };
}

test("a failing check → a fix round whose request names it with its failing lines → it passes → commit", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const repo = join(makeTmpDir("amx-ck-"), "repo");
  const r = await runBinary(bin, ["demo", "--ci", "--keep-session", "--dir", repo, "--scenario", "check_bug"], { socket, timeoutMs: 150_000 });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const dir = sessionDir(repo);
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  // the bug made npm test fail after the implementation; the fix round's run of it passed
  expect(
    state.checks.map((c: { id: number; round: number; results: Record<string, { status: string; exit_code: number }> }) => [
      c.id,
      c.round,
      c.results.test?.status,
      c.results.test?.exit_code,
    ]),
  ).toEqual([
    [1, 0, "failed", 1],
    [2, 1, "passed", 0],
  ]);
  expect(state.review_iteration).toBe(1);
  const request = readFileSync(join(dir, "07_review/fix_request.md"), "utf8");
  expect(request).toContain("## Check: test — failed (exit 1)");
  expect(request).toContain("- Command: `npm test`");
  // the failing tests, anchored where the test runner said they are
  expect(request).toContain("  - test/greeting.test.js:5: greeting has a default");
  expect(request).toContain("  - test/greeting.test.js:9: greeting uses its input");
  // the fixer's prompt carries the check too
  const prompt = readFileSync(join(dir, "07_review/fix_prompt.md"), "utf8");
  expect(prompt).toContain("### Check `test`: failed (exit 1), 2 failure(s)");
  expect(prompt).toContain("#### line 5 · check test · must pass");
  expect(prompt).toMatch(/▶ 5 │ test\("greeting has a default"/);
  // its output is in the session folder, and the Inspector record agentmux wrote says PASS
  expect(readFileSync(join(dir, "06_checks/run_1/test.log"), "utf8")).toContain("# fail 2");
  const inspector = JSON.parse(readFileSync(join(dir, "06_checks/inspector.json"), "utf8"));
  expect(inspector).toMatchObject({ agent: "inspector", status: "PASS", checks: [{ name: "test", status: "passed", round: 1 }] });
  // the committed code is the mended one
  const branch = state.feature_branch;
  const source = git(repo, "show", `${branch}:src/greeting.js`);
  expect(source).toContain("return `greeting: ${input}`;");
  // status --json has the checks block
  const status = JSON.parse((await runBinary(bin, ["status", "--json", dir.split("/").pop()!], { cwd: repo, socket })).stdout);
  expect(status.checks).toMatchObject({
    round: 1,
    blocking: [],
    results: [
      { name: "test", round: 0, state: "failed" },
      { name: "test", round: 1, state: "passed", command: "npm test" },
    ],
  });
}, 180_000);

test("a hung check is killed at its timeout, and at the loop cap --ci exits non-zero", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const tmp = makeTmpDir("amx-ck-");
  const repo = join(tmp, "repo");
  const marker = `amx-hang-${Date.now()}`;
  // it hangs once the coder's module is there (on the base commit it passes: the hang is the run's)
  const extra = join(tmp, "extra.yaml");
  writeFileSync(
    extra,
    stringify({
      defaults: { max_review_iterations: 0 },
      checks: { hang: { command: `if [ -f src/greeting.js ]; then sleep 300; fi # ${marker}`, timeout_s: 2 } },
    }),
  );
  const r = await runBinary(bin, ["demo", "--ci", "--keep-session", "--dir", repo, "--config", extra], { socket, timeoutMs: 150_000 });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("required check(s) still failing: hang");
  const state = JSON.parse(readFileSync(join(sessionDir(repo), "state.json"), "utf8"));
  const hang = state.checks[0].results.hang;
  expect(hang).toMatchObject({ status: "timed_out", exit_code: null });
  expect(hang.duration_ms).toBeGreaterThanOrEqual(2000);
  expect(hang.duration_ms).toBeLessThan(60_000);
  expect(state.review_loop_cap).toMatchObject({ decision: "fail", failing_checks: ["hang"] });
  // its whole process group is gone
  expect(processesMentioning(marker)).toEqual([]);
}, 180_000);

test("a failure already on the base is named pre-existing and blocks nothing", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const repo = commitSimProject(
    join(makeTmpDir("amx-ck-"), "repo"),
    {
      "package.json": JSON.stringify({ name: "legacy", type: "module", scripts: { test: "node --test" } }) + "\n",
      // a test that was red before the run: the user's problem, not the agents'
      "test/legacy.test.js":
        'import { test } from "node:test";\nimport assert from "node:assert/strict";\ntest("legacy rounding", () => assert.equal(0.1 + 0.2, 0.3));\n',
    },
    { checks: { test: { command: "npm test", timeout_s: 120 } } },
  );
  const r = await runBinary(bin, ["run", "--ci", "--keep-session", "Add a greeting module"], { cwd: repo, socket, timeoutMs: 150_000 });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/! check test failed .* — pre-existing on the base, not blocking/);
  const dir = sessionDir(repo);
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(state.checks).toHaveLength(1);
  expect(state.checks[0].results.test).toMatchObject({ status: "failed", pre_existing: true, required: true });
  // no fix round, and the commit happened
  expect(state.review_iteration).toBe(0);
  expect(existsSync(join(dir, "07_review/fix_request.md"))).toBe(false);
  expect(state.commit_hash).toMatch(/^[0-9a-f]{7,}$/);
  // the base's own run of the check is in the session folder, and the Inspector record does not block
  expect(readFileSync(join(dir, "06_checks/base/test.log"), "utf8")).toContain("legacy rounding");
  expect(JSON.parse(readFileSync(join(dir, "06_checks/inspector.json"), "utf8"))).toMatchObject({
    status: "PASS",
    checks: [{ name: "test", status: "failed", pre_existing: true }],
  });
}, 180_000);

test("a check cut off by a cancel is killed with its group; resume runs it again and counts it once", async () => {
  const { socket, repo, marker, run, dir } = await demoWithCheckRunning("ran-once");
  const c = await runBinary(bin, ["cancel"], { cwd: repo, socket });
  expect(c.code).toBe(0);
  expect((await run.done).code).toBe(130);
  // its process group went with the orchestrator: no `sleep 300` of it is left
  expect(processesMentioning(marker)).toEqual([]);
  // the demo's own npm test had finished in that batch; the cut-off check has no outcome
  const canceled = readState(dir);
  expect(Object.keys(canceled.checks[0].results)).toEqual(["test"]);
  const resumed = await runBinary(bin, ["resume", "--ci"], { cwd: repo, socket, timeoutMs: 120_000 });
  if (resumed.code !== 0) console.error(resumed.stdout, resumed.stderr);
  expect(resumed.code).toBe(0);
  const state = readState(dir);
  // the same batch, its check run again: one outcome, and nothing else started it twice
  expect(state.checks.map((r: { id: number; results: object }) => [r.id, Object.keys(r.results).sort()])).toEqual([[1, ["slow", "test"]]]);
  expect(state.checks[0].results.slow).toMatchObject({ status: "passed" });
  // npm test, finished before the cancel, was not run again
  expect(state.checks[0].results.test).toEqual(canceled.checks[0].results.test);
  expect(resumed.stdout.match(/✓ check slow passed/g)).toHaveLength(1);
  // the replayed timeline reads in the order things happened: the check that finished before the cancel comes after the phase it ran in
  const timed = resumed.stdout.split("\n").filter((l) => /^\d\d:\d\d:\d\d  /.test(l));
  expect(timed.map((l) => l.slice(0, 8))).toEqual(timed.map((l) => l.slice(0, 8)).sort());
  const at = (re: RegExp) => timed.findIndex((l) => re.test(l));
  expect(at(/✓ check test passed/)).toBeGreaterThan(at(/ implementing /));
  // a reviewer's verdict comes before the review outcome it made, not after it
  expect(at(/✓ reviewer logic \(review round 1\): pass/)).toBeGreaterThan(-1);
  expect(at(/✓ reviewer logic \(review round 1\): pass/)).toBeLessThan(at(/ review passed$/));
  expect(readFileSync(join(dir, "orchestrator.log"), "utf8")).toContain("running again what the last orchestrator left unfinished: slow (batch 1");
  expect(state.commit_hash).toMatch(/^[0-9a-f]{7,}$/);
}, 240_000);

test("demo scenarios: a flaky check costs one fix round; a failure already on the base blocks nothing; a hung test is killed and taken out", async () => {
  const demo = async (scenario: string) => {
    const socket = privateSocket();
    sockets.push(socket);
    const repo = join(makeTmpDir("amx-ck-"), "repo");
    const r = await runBinary(bin, ["demo", "--ci", "--keep-session", "--dir", repo, "--scenario", scenario], { socket, timeoutMs: 150_000 });
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect({ scenario, code: r.code }).toEqual({ scenario, code: 0 });
    const state = JSON.parse(readFileSync(join(sessionDir(repo), "state.json"), "utf8"));
    return {
      state,
      stdout: r.stdout,
      outcomes: state.checks.map(
        (c: { results: { test: { status: string; pre_existing?: boolean } } }) =>
          `${c.results.test.status}${c.results.test.pre_existing ? " (pre-existing)" : ""}`,
      ),
    };
  };
  const flaky = await demo("check_flaky");
  expect(flaky.outcomes).toEqual(["failed", "passed"]);
  expect(flaky.state.review_iteration).toBe(1);
  const base = await demo("check_base_failure");
  expect(base.outcomes).toEqual(["failed (pre-existing)"]);
  expect(base.state.review_iteration).toBe(0);
  expect(base.stdout).toContain("check ! test: 1 failure · pre-existing");
  const hang = await demo("check_hang");
  expect(hang.outcomes).toEqual(["timed_out", "passed"]);
  expect(hang.stdout).toMatch(/✗ check test timed out \(killed\) in 1[5-9]\.\d s/);
}, 300_000);

test("a --worktree run's checks run in its worktree, with its port offset", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const tmp = makeTmpDir("amx-ck-");
  const seen = join(tmp, "seen.txt");
  const repo = commitSimProject(
    join(tmp, "repo"),
    { "README.md": "# wt\n" },
    { checks: { where: { command: `echo "$(pwd) $AGENTMUX_PORT_OFFSET $AGENTMUX_CHECK" >> '${seen}'` } } },
  );
  const r = await runBinary(bin, ["run", "--ci", "--worktree", "--keep-session", "Add a farewell module"], { cwd: repo, socket, timeoutMs: 150_000 });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const state = JSON.parse(readFileSync(join(sessionDir(repo), "state.json"), "utf8"));
  expect(state.worktree_path).toBeTruthy();
  expect(readFileSync(seen, "utf8").trim().split("\n")).toEqual([`${state.worktree_path} ${state.port_offset} where`]);
}, 180_000);

test("an orchestrator killed outright during a check: resume kills the check it left running, runs it again, counts it once", async () => {
  const { socket, repo, marker, run, dir } = await demoWithCheckRunning("killed-once");
  const pid = orchestratorPid(dir)!;
  process.kill(pid, "SIGKILL");
  await run.done;
  await waitFor("the orchestrator to be gone", () => !alive(pid));
  // nobody killed the check: its sleep is still there
  expect(processesMentioning(marker).length).toBeGreaterThan(0);
  const resumed = await runBinary(bin, ["resume", dir.split("/").pop()!, "--ci"], { cwd: repo, socket, timeoutMs: 120_000 });
  if (resumed.code !== 0) console.error(resumed.stdout, resumed.stderr);
  expect(resumed.code).toBe(0);
  expect(processesMentioning(marker)).toEqual([]);
  const state = readState(dir);
  expect(Object.keys(state.checks[0].results).sort()).toEqual(["slow", "test"]);
  expect(state.checks[0].results.slow).toMatchObject({ status: "passed" });
  const log = readFileSync(join(dir, "orchestrator.log"), "utf8");
  expect(log).toContain("of a check the last orchestrator left running (1-slow)");
  expect(state.commit_hash).toMatch(/^[0-9a-f]{7,}$/);
}, 240_000);
