import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ciCheckResult, cleanJobLog } from "../../src/checks/ci.ts";
import { ciReplyBody } from "../../src/checks/ci-reply.ts";
import { ciState, watchCi } from "../../src/checks/ci-watch.ts";
import { actionsJob, failedJobLog, prChecks } from "../../src/effects/gh-ci.ts";
import { GhPrCheck } from "../../src/schema/ci.ts";
import { AgentmuxError } from "../../src/errors.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { writeFakeGh } from "../git/fake-gh.ts";

/** #26.6: a pull request's CI through gh (a fake gh on PATH), its failing jobs' logs as findings. */
const dir = makeTmpDir("amx-ci-");
afterAll(() => removeDir(dir));
const repo = join(dir, "repo");
mkdirSync(join(repo, "src"), { recursive: true });
writeFileSync(join(repo, "src/limits.ts"), "export const limit = 1;\n");
const gh = writeFakeGh(dir);
const answers = join(dir, "answers");
const logs = join(dir, "logs");
mkdirSync(answers);
mkdirSync(logs);
gh.env.FAKE_GH_PR_CHECKS_DIR = answers;
gh.env.FAKE_GH_RUN_LOGS = logs;

const PR = "https://github.com/acme/app/pull/7";
const check = (name: string, bucket: string, over: Partial<GhPrCheck> = {}) =>
  GhPrCheck.parse({
    name,
    bucket,
    state: bucket === "fail" ? "FAILURE" : bucket === "pass" ? "SUCCESS" : "IN_PROGRESS",
    link: `https://github.com/acme/app/actions/runs/100/job/${name.length}`,
    workflow: "CI",
    ...over,
  });

// what `gh run view --job 4 --log-failed` prints for a failing `npm test` job on a GitHub-hosted runner
const JOB_LOG = [
  "test\tRun npm test\t2026-11-28T15:00:01.1000000Z > app@1.0.0 test",
  "test\tRun npm test\t2026-11-28T15:00:03.2000000Z src/limits.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
  "test\tRun npm test\t2026-11-28T15:00:03.3000000Z \x1b[31mFAIL\x1b[0m /home/runner/work/app/app/src/limits.test.ts",
  "test\tRun npm test\t2026-11-28T15:00:03.4000000Z     at Object.<anonymous> (/home/runner/work/app/app/src/limits.ts:1:14)",
  "test\tRun npm test\t2026-11-28T15:00:04.0000000Z ##[error]Process completed with exit code 1.",
].join("\n");

describe("reading CI through gh", () => {
  test("pr checks: the JSON also when gh exits 8 (pending); no checks yet is an empty list; an error is named", async () => {
    writeFileSync(join(answers, "1.json"), JSON.stringify([check("lint", "pass"), { ...check("test", "pending"), extra: 1 }]));
    gh.env.FAKE_GH_PR_CHECKS_EXIT = "8";
    const checks = await prChecks(PR, repo, gh.run);
    expect(checks.map((c) => [c.name, c.bucket])).toEqual([
      ["lint", "pass"],
      ["test", "pending"],
    ]);
    expect(gh.calls().at(-1)).toEqual(["pr", "checks", PR, "--json", "name,state,bucket,link,workflow,description"]);
    writeFileSync(join(answers, "2.json"), "");
    expect(await prChecks(PR, repo, gh.run)).toEqual([]);
    writeFileSync(join(answers, "3.json"), "not json");
    const e = await prChecks(PR, repo, gh.run).catch((x) => x);
    expect(e).toBeInstanceOf(AgentmuxError);
    expect((e as Error).message).toContain(`could not read the CI checks of ${PR}: the answer is not JSON`);
    delete gh.env.FAKE_GH_PR_CHECKS_EXIT;
  });

  test("a failed Actions job's log becomes findings anchored in the checkout, the runner's folder and gh's prefixes gone", async () => {
    writeFileSync(join(logs, "4.json.log"), "");
    writeFileSync(join(logs, "4.log"), JOB_LOG);
    const c = check("test", "fail");
    const logPath = join(dir, "session/ci/test.log");
    const log = await failedJobLog(c, { cwd: repo, logPath, env: { PATH: gh.path, ...gh.env } });
    expect(log!.exitCode).toBe(0);
    const r = ciCheckResult(c, log, logPath, { root: repo, round: 1, logName: "ci/test.log", at: "2026-11-28T15:01:00.000Z" });
    expect(r).toMatchObject({
      name: "ci/test",
      command: "CI: CI / test",
      kind: "test",
      when: "ci",
      round: 1,
      status: "failed",
      log: "ci/test.log",
      required: true,
      error: "FAILURE on CI: https://github.com/acme/app/actions/runs/100/job/4",
    });
    expect(r.findings).toEqual([
      { check: "ci/test", file: "src/limits.ts", line: 1, column: 14, severity: "error", message: "TS2322: Type 'string' is not assignable to type 'number'." },
    ]);
    expect(r.failing_lines).toEqual([
      "src/limits.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
      "FAIL src/limits.test.ts",
      "Process completed with exit code 1.",
    ]);
    expect(r.tail.join("\n")).not.toMatch(/\x1b|\t|2026-11-28T|\/home\/runner/);
  });

  test("a check of another CI has no log: its description and link", async () => {
    const c = check("buildkite/app", "fail", { link: "https://buildkite.com/acme/app/builds/9", description: "Build #9 failed (3 minutes)" });
    expect(actionsJob(c.link)).toBeNull();
    expect(await failedJobLog(c, { cwd: repo, logPath: join(dir, "x.log") })).toBeNull();
    const r = ciCheckResult(c, null, null, { root: repo, round: 0, logName: "", at: "2026-11-28T15:01:00.000Z" });
    expect(r).toMatchObject({
      status: "failed",
      findings: [],
      failing_lines: ["Build #9 failed (3 minutes)"],
      log: "",
      duration_ms: 0,
      started_at: "2026-11-28T15:01:00.000Z",
    });
    expect(actionsJob("https://github.com/a/b/actions/runs/5")).toEqual({ run: "5", job: null });
  });

  test("cleanJobLog", () => {
    expect(cleanJobLog("build\tstep\t2026-01-01T00:00:00.0000000Z D:\\a\\app\\app\\src\\x.ts(1,1): error")).toBe("src\\x.ts(1,1): error");
  });
});

describe("watchCi", () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
  };
  const reads = (...answers: GhPrCheck[][]) => {
    let i = 0;
    return () => Promise.resolve(answers[Math.min(i++, answers.length - 1)]!);
  };

  test("polls while pending; a failure ends it at once, green when all passed or skipped", async () => {
    const c = clock();
    const failing = await watchCi({
      read: reads([check("test", "pending")], [check("lint", "pass"), check("test", "fail"), check("e2e", "pending")]),
      timeoutMs: 600_000,
      pollMs: 1000,
      ...c,
    });
    expect(failing).toMatchObject({ state: "failing", polls: 2 });
    expect(failing.failing.map((x) => x.name)).toEqual(["test"]);
    expect(
      (await watchCi({ read: reads([check("a", "pending")], [check("a", "pass"), check("docs", "skipping")]), timeoutMs: 600_000, ...clock() })).state,
    ).toBe("green");
  });

  test("no checks counts as pending for the grace period; the timeout ends it", async () => {
    const c = clock();
    const none = await watchCi({ read: reads([]), timeoutMs: 600_000, pollMs: 30_000, graceMs: 90_000, ...c });
    expect(none).toMatchObject({ state: "no_checks", polls: 4 });
    const late = await watchCi({ read: reads([], [check("test", "pending")]), timeoutMs: 100_000, pollMs: 30_000, ...clock() });
    expect(late).toMatchObject({ state: "timed_out", polls: 4 });
    expect(ciState([check("x", "cancel"), check("y", "pending")])).toBe("failing");
  });
});

describe("ciReplyBody", () => {
  test("a fix round names what failed and where, escaped; the end says green or still failing with the links", () => {
    const c = check("test <script>", "fail");
    const r = ciCheckResult(c, null, null, { root: repo, round: 1, logName: "", at: "2026-11-28T15:01:00.000Z" });
    r.findings.push({ check: r.name, file: "src/limits.ts", line: 3, message: "expected `1` got *2*" });
    const fixing = ciReplyBody({ kind: "fixing", round: 1, maxRounds: 2, failing: [r], checks: [c, check("lint", "pass")] });
    expect(fixing).toContain("CI failed on this pull request: agentmux is running fix round 1 of 2 on this branch.");
    expect(fixing).toContain("- **test \\<script\\>**\n  - `src/limits.ts:3` expected \\`1\\` got \\*2\\*");
    expect(fixing).toContain("- [test \\<script\\>](https://github.com/acme/app/actions/runs/100/job/13): FAILURE");
    expect(fixing).not.toContain("lint");
    expect(ciReplyBody({ kind: "still_failing", rounds: 2, checks: [c] })).toStartWith("CI still failing after 2 fix rounds; agentmux stops here.");
    expect(ciReplyBody({ kind: "green", rounds: 1 })).toStartWith("CI is green after 1 fix round.");
    expect(ciReplyBody({ kind: "pushed", round: 1, commit: "abcdef0123456789" })).toStartWith("Fix round 1 pushed (abcdef012345)");
  });
});
