import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { waitFor } from "../helpers/wait.ts";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

function demo(args: string[], opts: { config?: object } = {}) {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir();
  const repo = join(root, "repo");
  const extra: string[] = [];
  if (opts.config) {
    writeFileSync(join(root, "extra.yaml"), stringify(opts.config));
    extra.push("--config", join(root, "extra.yaml"));
  }
  return { socket, repo, run: () => runBinary(bin, ["demo", "--ci", "--json", "--keep-session", "--dir", repo, ...extra, ...args], { socket }) };
}

const events = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
const phases = (stdout: string) =>
  events(stdout)
    .filter((e) => e.kind === "phase")
    .map((e) => `${e.phase}:${e.event}`);
const sessionState = (repo: string) => {
  const dir = join(repo, ".agentmux", ".sessions");
  const id = readdirSync(dir).find((n) => !n.startsWith("."))!;
  return { dir: join(dir, id), state: JSON.parse(readFileSync(join(dir, id, "state.json"), "utf8")) };
};

describe("whole workflow with simulated agents (compiled binary, private tmux)", () => {
  test("two parallel coders then a serial group; three reviewers; a review that fails once then passes", async () => {
    const d = demo(["--scenario", "parallel,review_fail_once,reviewers=logic+quality+expert,commit_message"]);
    const r = await d.run();
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    expect(phases(r.stdout)).toEqual([
      "architecting:feature_created",
      "planning:architecture_written",
      "implementing:plan_written",
      "reviewing:implementation_completed",
      "fixing:review_failed",
      "reviewing:implementation_completed",
      "reviewing:review_passed",
      "completing:review_passed",
      "done:approval_received",
    ]);
    const { dir, state } = sessionState(d.repo);
    expect(state.completed_subplans).toEqual(["1"]); // the fixer's plan in the last round
    expect(state.implementation_completed_group_ids.length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(state.review_results).sort()).toEqual(["reviewer_expert", "reviewer_logic", "reviewer_quality"]);
    expect(state.review_iteration).toBe(1);
    // both parallel coders and the serial coder ran as separate agents
    expect(Object.keys(state.agents)).toEqual(expect.arrayContaining(["coder:1", "coder:2", "coder"]));
    // the orchestrator checked off tasks and wrote the markers (the agents did not)
    expect(readFileSync(join(dir, "04_planning/tasks_1.md"), "utf8")).toContain("- [x]");
    expect(readFileSync(join(dir, "07_review/fix_request.md"), "utf8")).toContain("reviewer_logic (verdict: fail)");
    // a reviewer's suggested message became the commit message (approval was automatic)
    const result = events(r.stdout).find((e) => e.kind === "result");
    expect(git(d.repo, "log", "-1", "--format=%s", result.branch)).toMatch(/^feat/);
    const files = git(d.repo, "show", "--name-only", "--format=", result.branch).split("\n");
    expect(files.length).toBeGreaterThanOrEqual(3);
  }, 180_000);

  test("headless, the loop cap with failing reviews fails the run: exit 1, nothing committed, session kept, the open findings in the result", async () => {
    const d = demo(["--scenario", "review_fail_always"], { config: { defaults: { max_review_iterations: 2 } } });
    const r = await d.run();
    expect(r.code).toBe(1);
    expect(phases(r.stdout).filter((p) => p.startsWith("fixing"))).toHaveLength(2);
    expect(phases(r.stdout)).not.toContain("completing:review_failed");
    const result = events(r.stdout).find((e) => e.kind === "result");
    expect(result).toMatchObject({ outcome: "failed", exit_code: 1, commit: null, review_loop_cap: { iterations: 2, decision: "fail" } });
    expect(result.cause).toStartWith("the review loop stopped after 2 fix round(s) with 1 open finding(s) from reviewer_logic; nothing was committed.");
    expect(result.review_loop_cap.open_findings).toEqual([expect.objectContaining({ reviewer: "reviewer_logic", issue: expect.any(String) })]);
    const { dir, state } = sessionState(d.repo);
    expect(state).toMatchObject({ phase: "failed", review_iteration: 2, review_loop_cap: { decision: "fail" } });
    expect(readFileSync(join(dir, "08_completion/summary.md"), "utf8")).toMatch(/reviewer_logic: fail/);
    // the feature branch has no commit of the run
    expect(state.base_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(d.repo, "rev-parse", state.feature_branch)).toBe(state.base_commit);
  }, 180_000);

  test("with defaults.completion.commit_on_loop_cap the loop cap commits, and the result says it committed with failing reviews", async () => {
    const d = demo(["--scenario", "review_fail_always"], { config: { defaults: { max_review_iterations: 1, completion: { commit_on_loop_cap: true } } } });
    const r = await d.run();
    expect(r.code).toBe(0);
    expect(phases(r.stdout)).toContain("completing:review_failed");
    const result = events(r.stdout).find((e) => e.kind === "result");
    expect(result).toMatchObject({ outcome: "success", review_loop_cap: { iterations: 1, decision: "commit" } });
    expect(result.commit).toMatch(/^[0-9a-f]{7,}$/);
    const { dir } = sessionState(d.repo);
    expect(readFileSync(join(dir, "08_completion/summary.md"), "utf8")).toMatch(/reviewer_logic: fail/);
  }, 180_000);

  test("a coder whose first submit_done is refused by the gate fixes its artifact", async () => {
    const d = demo(["--scenario", "gate_refuse_once"]);
    const r = await d.run();
    expect(r.code).toBe(0);
    const { dir, state } = sessionState(d.repo);
    const lines = readFileSync(join(dir, "tool_events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.tool === "submit_done")).toHaveLength(1); // the refused call appended nothing
    // the refusal happened (the sim records it), and the accepted artifact's claims are real
    expect(readdirSync(join(dir, ".runtime/sim"))).toContain("gate_refuse");
    const done = JSON.parse(readFileSync(join(dir, "06_implementation/done_1.json"), "utf8"));
    const branch = state.feature_branch;
    for (const f of done.files_created) expect(Bun.spawnSync(["git", "cat-file", "-e", `${branch}:${f}`], { cwd: d.repo }).exitCode).toBe(0);
    expect(existsSync(join(dir, "06_implementation/done_1"))).toBe(true);
  }, 180_000);

  test("a change request at completion goes back to planning with the requested changes", async () => {
    // An explicit `skip_final_approval: false` makes a headless run wait for a decision file.
    const d = demo([], { config: { defaults: { completion: { skip_final_approval: false } } } });
    const run = d.run();
    const sessions = join(d.repo, ".agentmux", ".sessions");
    const dir = await waitFor(
      "the run to reach completing",
      () => {
        if (!existsSync(sessions)) return null;
        const id = readdirSync(sessions).find((n) => !n.startsWith("."));
        if (!id) return null;
        const s = JSON.parse(readFileSync(join(sessions, id, "state.json"), "utf8"));
        return s.phase === "completing" ? join(sessions, id) : null;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    writeFileSync(join(dir, "08_completion/changes.md"), "Also export a farewell(name) function.\nKeep the greeting as is.\n");
    try {
      await waitFor("re-planning with the change prompt", () => existsSync(join(dir, "04_planning/changes_prompt.md")), { timeoutMs: 30_000 });
    } catch (e) {
      console.error(readFileSync(join(dir, "orchestrator.log"), "utf8"));
      throw e;
    }
    expect(readFileSync(join(dir, "04_planning/changes_prompt.md"), "utf8")).toContain("Also export a farewell(name) function.");
    await waitFor(
      "completing again",
      () => {
        const s = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
        return s.phase === "completing" && (s.history as any[]).filter((h) => h.phase === "completing").length === 2;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    writeFileSync(
      join(dir, "08_completion/approval.json"),
      JSON.stringify({ action: "approve", exclude_files: [], commit_message: "feat: greeting and farewell" }),
    );
    const r = await run;
    expect(r.code).toBe(0);
    expect(phases(r.stdout)).toContain("planning:changes_requested");
    const result = events(r.stdout).find((e) => e.kind === "result");
    expect(git(d.repo, "log", "-1", "--format=%s", result.branch)).toBe("feat: greeting and farewell");
  }, 180_000);
});
