import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readLog } from "../../src/session/log.ts";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket } from "../e2e/harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { commitSimProject } from "../e2e/sim-project.ts";
import {
  alive,
  fsckProblems,
  jsonEvents,
  orchestratorPid,
  readState,
  release,
  spawnBinary,
  startDemo,
  tmux,
  unparsableFiles,
  waitForState,
} from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

const resume = (repo: string, socket: string, dir: string) => spawnBinary(bin, ["resume", basename(dir), "--ci", "--json"], { cwd: repo, socket }).done;
const resultOf = (stdout: string) => jsonEvents(stdout).find((e) => e.kind === "result");

/** The coder's prompt, whether the sim's plan gives one coder the whole plan or numbered sub-plans. */
const CODER_PROMPTS = ["coder_prompt_whole", "coder_prompt_1", "coder_prompt_2"];

/** Whether the coder's prompt was delivered to its pane (the sim then holds on it until released). */
function heldOnPrompt(dir: string): boolean {
  const pane = JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8")).panes?.coder;
  return !!pane && readLog(dir).some((r) => r.msg?.startsWith(`delivered to ${pane} `));
}

const status = (repo: string, socket: string, dir: string) => spawnBinary(bin, ["status", basename(dir), "--json"], { cwd: repo, socket }).done;

describe("interruptions: a closed agent pane, a stuck agent, a live session, a closed terminal", () => {
  test("a coder pane killed with tmux kill-pane is restarted with its prompt: the run commits (exit 0), no resume needed", async () => {
    // the coder is held on its prompt (whichever the plan gives it) until the test releases it:
    // it was held on coder_prompt_whole only, which this plan never uses, so the kill raced the
    // coder's own submit, and lost it once the handoffs got fast
    const run = startDemo(bin, { scenario: `hold=${CODER_PROMPTS.join("+")}`, thinkMs: 0, sockets });
    const { dir } = await waitForState(
      run,
      "the coder held on its prompt",
      (s, d) => s.phase === "implementing" && s.agents?.coder?.status === "working" && heldOnPrompt(d),
    );
    const pane = JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8")).panes.coder;
    expect(pane).toMatch(/^%\d+$/);
    expect(tmux(run.socket, "kill-pane", "-t", pane).code).toBe(0);
    release(dir, CODER_PROMPTS);
    const r = await run.done;
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    expect(resultOf(r.stdout)).toMatchObject({ outcome: "success", exit_code: 0 });
    const s = readState(dir);
    expect(s.phase).toBe("done");
    expect(s.agents.coder.restarts).toBe(1);
    expect(readLog(dir).filter((r) => r.event === "state_machine" && r.agent === "coder" && r.data?.note === "agent_exited").length).toBeGreaterThan(0);
    expect(git(run.repo, "log", "-1", "--format=%H", s.feature_branch)).toStartWith(s.commit_hash);
    expect(unparsableFiles(dir)).toEqual([]);
    expect(fsckProblems(run.repo)).toBe("");
  }, 150_000);

  test("a coder that crashes once is restarted (its exit status and last screen kept) and the run commits (exit 0)", async () => {
    const run = startDemo(bin, { scenario: "crash_once=coder", thinkMs: 0, sockets });
    const r = await run.done;
    const dir = join(run.repo, ".agentmux/.sessions", resultOf(r.stdout).session);
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, ".runtime/sim/crash.coder"))).toBe(true);
    const s = readState(dir);
    expect(s.phase).toBe("done");
    expect(s.agents.coder).toMatchObject({ restarts: 1, exit_status: "3" });
    expect(s.agents.coder.last_screen.join("\n")).toContain("simulated crash");
    // the relaunched coder was told an earlier attempt was interrupted
    expect(readFileSync(join(dir, "06_implementation/coder_prompt_1.md"), "utf8")).toContain("An earlier attempt at this task was interrupted");
    expect(fsckProblems(run.repo)).toBe("");
  }, 150_000);

  test("a coder that always crashes: after watchdog.restarts restarts the run fails with exit 1 and the cause (never 130); status shows its last screen", async () => {
    const run = startDemo(bin, { scenario: "crash=coder", thinkMs: 0, sockets });
    const r = await run.done;
    expect(r.code).toBe(1);
    const result = resultOf(r.stdout);
    expect(result).toMatchObject({ outcome: "failed", exit_code: 1 });
    expect(result.cause).toMatch(/^the \[coder\] .* pane exited with status 3 after 2 restarts while the run was implementing; its last line: /);
    const dir = join(run.repo, ".agentmux/.sessions", result.session);
    const s = readState(dir);
    expect(s).toMatchObject({ phase: "failed", last_event: "run_failed", interruption_category: "failed" });
    expect(s.agents.coder).toMatchObject({ status: "exited", exit_status: "3", restarts: 2 });
    const st = await status(run.repo, run.socket, dir);
    expect(st.code).toBe(0);
    const coder = JSON.parse(st.stdout).agents.find((a: any) => a.key === "coder");
    expect(coder).toMatchObject({ status: "exited", exit_status: "3", restarts: 2 });
    expect(coder.last_screen.join("\n")).toContain("simulated crash");
    const text = await spawnBinary(bin, ["status", basename(dir)], { cwd: run.repo, socket: run.socket }).done;
    expect(text.stdout).toContain("exit status 3");
    expect(text.stdout).toContain("│ ✗ simulated crash (scenario)");
  }, 150_000);

  test("headless: a stalled coder is reported stuck (state.json and --json progress) and fails the run (1) with its cause", async () => {
    // 6 s: on a loaded machine a planner can sit quiet for 2 s while it works
    const run = startDemo(bin, { scenario: "stall=coder", thinkMs: 0, sockets, config: { watchdog: { stuck_after_s: 6 } } });
    const r = await run.done;
    expect(r.code).toBe(1);
    const stuck = jsonEvents(r.stdout).filter((e) => e.kind === "agent_stuck");
    expect(stuck.map((e) => e.agent)).toEqual(["coder"]);
    expect(stuck[0].note).toContain("no output and no tool call for 6 s");
    const dir = join(run.repo, ".agentmux/.sessions", resultOf(r.stdout).session);
    const s = readState(dir);
    expect(s).toMatchObject({ phase: "failed", last_event: "run_failed" });
    expect(s.interruption_cause).toMatch(/^the \[coder\] .* agent is stuck: no output and no tool call for 6 s$/);
    expect(s.interruption_resume_command).toBe(`agentmux resume ${basename(dir)}`);
    expect(resultOf(r.stdout)).toMatchObject({ outcome: "failed", exit_code: 1, cause: s.interruption_cause });
    expect(fsckProblems(run.repo)).toBe("");
  }, 120_000);

  test("the phase limit fires within a second of its deadline (#17.10)", async () => {
    const run = startDemo(bin, { scenario: "stall=coder", thinkMs: 0, sockets, config: { watchdog: { stuck_after_s: 0, phase_timeout_s: 10 } } });
    const r = await run.done;
    expect(r.code).toBe(1);
    const dir = join(run.repo, ".agentmux/.sessions", resultOf(r.stdout).session);
    const s = readState(dir);
    expect(s.interruption_cause).toBe("phase implementing exceeded its time limit (watchdog.phase_timeout_s = 10)");
    const at = (p: string) => Date.parse(s.history.findLast((h: any) => h.phase === p).at);
    const late = at("failed") - at("implementing") - 10000;
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(1500);
  }, 120_000);

  test("resume refuses while the orchestrator is alive, names attach and kill, and changes nothing", async () => {
    const run = startDemo(bin, { scenario: "stall=coder", thinkMs: 0, sockets });
    const { dir, state } = await waitForState(run, "the stalled coder", (s) => s.phase === "implementing" && s.agents?.coder?.status === "working");
    const pid = orchestratorPid(dir)!;
    const files = ["state.json", "runtime_state.json", "tool_events.jsonl", "tool_event_state.json", ".runtime/orchestrator.pid"];
    // the live run itself records its agents' token usage as it reads it: that is not resume's doing
    const own = (f: string, text: string) => {
      if (f !== "state.json") return text;
      const { usage: _u, updated_at: _a, ...rest } = JSON.parse(text);
      return rest;
    };
    const snapshot = () => files.map((f) => (existsSync(join(dir, f)) ? own(f, readFileSync(join(dir, f), "utf8")) : null));
    const before = snapshot();
    const r = await resume(run.repo, run.socket, dir);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`the session is still running (orchestrator pid ${pid})`);
    const id = dir.split("/").pop();
    expect(r.stderr).toContain(`attach with: agentmux attach ${id}   or stop it with: agentmux cancel ${id}`);
    expect(snapshot()).toEqual(before);
    expect(alive(pid)).toBe(true);
    expect(tmux(run.socket, "has-session", "-t", `=${state.session_name}`).code).toBe(0);
    // stop it the way the monitor does: a cancel request file
    writeFileSync(join(dir, ".runtime/cancel_request"), JSON.stringify({ at: new Date().toISOString(), by: "test" }));
    expect((await run.done).code).toBe(130);
    expect(fsckProblems(run.repo)).toBe("");
  }, 120_000);

  test("SIGKILL of the headless `agentmux run` launcher: the detached orchestrator finishes the run", async () => {
    const socket = privateSocket();
    sockets.push(socket);
    const repo = commitSimProject(
      join(makeTmpDir("amx-fault-run-"), "repo"),
      { "src/index.js": "export const main = () => 1;\n" },
      // the coder stays at work until released, so the launcher dies mid-run however fast the machine
      { sim: { think_ms: 0, scenario: [`hold=${CODER_PROMPTS.join("+")}`] } },
    );
    const launcher = spawnBinary(bin, ["run", "Add a greeting module with a unit test", "--ci", "--keep-session"], { cwd: repo, socket });
    const sessions = join(repo, ".agentmux/.sessions");
    const dir = await waitFor(
      "the run to reach implementing",
      () => {
        const id = existsSync(sessions)
          ? require("node:fs")
              .readdirSync(sessions)
              .find((n: string) => !n.startsWith("."))
          : null;
        const s = id ? readState(join(sessions, id)) : null;
        return s?.phase === "implementing" ? join(sessions, id) : null;
      },
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    const pid = orchestratorPid(dir)!;
    launcher.proc.kill("SIGKILL");
    expect((await launcher.done).code).not.toBe(0);
    expect(alive(pid)).toBe(true);
    release(dir, CODER_PROMPTS);
    await waitFor("the orchestrator to finish on its own", () => !alive(pid), { timeoutMs: 90_000, intervalMs: 100 });
    const st = await spawnBinary(bin, ["status", basename(dir), "--json"], { cwd: repo, socket }).done;
    expect(st.code).toBe(0);
    const status = JSON.parse(st.stdout);
    expect(JSON.stringify(status)).toContain('"phase":"done"');
    const s = readState(dir);
    expect(s.phase).toBe("done");
    expect(git(repo, "rev-parse", "--short", s.feature_branch)).toBe(git(repo, "rev-parse", "--short", s.commit_hash));
    expect(fsckProblems(repo)).toBe("");
  }, 150_000);
});
