/**
 * notify.command: a real command gets one JSON object on stdin when the run needs its user,
 * is done or failed (the run API's events between two states say when), with the link to the
 * run's page when `agentmux serve` runs for the project; it runs bounded and one at a time.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Notifier } from "../../src/daemon/notify.ts";
import type { LogFields } from "../../src/schema/log.ts";
import type { State } from "../../src/schema/state.ts";
import { writeServerFile } from "../../src/session/serve-record.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { stateIn } from "../tui/fixtures.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function setup(command: string, on: ("needs_you" | "done" | "failed")[] = ["needs_you", "done", "failed"], timeout_s = 30) {
  const project = makeTmpDir("amx-notify-");
  dirs.push(project);
  const sessionDir = join(project, ".agentmux/.sessions/20250301-100000-rate-limit");
  mkdirSync(join(sessionDir, ".runtime"), { recursive: true });
  const logged: { msg: string; fields?: LogFields }[] = [];
  const first = stateIn("reviewing", { project_dir: project });
  const n = new Notifier(
    { config: { command, on, timeout_s }, sessionDir, projectDir: project, log: (msg, fields) => void logged.push({ msg, fields }) },
    first,
  );
  return { project, sessionDir, logged, n, first };
}

const received = (file: string) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

test("needs you, done: one JSON object each on the command's stdin, with the run's page on the server that runs for the project", async () => {
  const { project, sessionDir, logged, n, first } = setup(`cat >> notes.jsonl; echo "event=$AGENTMUX_NOTIFY_EVENT" >> env.txt`);
  writeServerFile(project, { url: "http://127.0.0.1:7878/", index: 0, token: "secret-token", pid: process.pid, answer: true, started_at: first.updated_at });
  const waiting: State = { ...stateIn("completing", { project_dir: project }), awaiting_decision: true, decision_waits: 1 };
  n.observe(first); // nothing new
  n.observe(waiting);
  n.observe(waiting); // the same wait: told once
  const done: State = {
    ...stateIn("done", { project_dir: project }),
    commit_hash: "0123456789abcdef",
    feature_branch: "feature/rate-limit",
    decision_waits: 1,
  };
  n.observe(done);
  await n.drain();
  const notes = received(join(project, "notes.jsonl"));
  expect(notes.map((x) => [x.event, x.text])).toEqual([
    ["needs_you", "the run waits for your approval"],
    ["done", "done: committed 0123456789 on feature/rate-limit"],
  ]);
  expect(notes[0]).toMatchObject({
    session: "20250301-100000-rate-limit",
    feature: "Add rate limiting to the public API",
    phase: "completing",
    project,
    url: "http://127.0.0.1:7878/#/run/0/20250301-100000-rate-limit",
    run_event: { kind: "awaiting_decision" },
  });
  expect(notes[1]).toMatchObject({ commit: "0123456789abcdef", run_event: { kind: "phase", phase: "done" } });
  expect(JSON.stringify(notes)).not.toContain("secret-token"); // the link carries no token
  expect(readFileSync(join(project, "env.txt"), "utf8")).toBe("event=needs_you\nevent=done\n");
  expect(logged.filter((l) => l.fields?.event === "notify").map((l) => l.fields?.data)).toEqual([
    { notify: "needs_you", ok: true },
    { notify: "done", ok: true },
  ]);
  expect(existsSync(join(sessionDir, ".runtime/notify.log"))).toBe(true);
});

test("an agent's question and a failed run; no server: no link; `on` filters; a user's cancel is not a failure", async () => {
  const { project, n, first } = setup("cat >> notes.jsonl", ["needs_you", "failed"]);
  const asking: State = {
    ...first,
    agents: {
      reviewer_logic: {
        role: "reviewer_logic",
        label: "reviewer (logic)",
        status: "needs_input",
        since: first.updated_at,
        question: { kind: "question", text: "Sliding window\nor fixed? \x1b[31m", at: first.updated_at },
      },
    } as any,
  };
  n.observe(asking);
  const failed: State = {
    ...stateIn("failed", { project_dir: project }),
    interruption_category: "failed",
    interruption_cause: "reviewer_logic exited 3 times",
  } as State;
  n.observe(failed);
  await n.drain();
  const notes = received(join(project, "notes.jsonl"));
  expect(notes.map((x) => [x.event, x.text, x.url])).toEqual([
    ["needs_you", "reviewer (logic) asks: Sliding window or fixed? ", null],
    ["failed", "failed: reviewer_logic exited 3 times", null],
  ]);

  const canceled = setup("cat >> notes.jsonl");
  canceled.n.observe({
    ...stateIn("failed", { project_dir: canceled.project }),
    interruption_category: "canceled",
    interruption_cause: "canceled by the user (web page)",
  } as State);
  const onlyDone = setup("cat >> notes.jsonl", ["done"]);
  onlyDone.n.observe({ ...stateIn("completing", { project_dir: onlyDone.project }), awaiting_decision: true, decision_waits: 1 });
  await Promise.all([canceled.n.drain(), onlyDone.n.drain()]);
  expect(received(join(canceled.project, "notes.jsonl"))).toEqual([]);
  expect(received(join(onlyDone.project, "notes.jsonl"))).toEqual([]);
});

test("a command that hangs is killed with its process group at timeout_s and said so; the next one still runs", async () => {
  const { project, logged, n, first } = setup(
    `if [ "$AGENTMUX_NOTIFY_EVENT" = needs_you ]; then sleep 600 & wait; fi; cat >> notes.jsonl`,
    ["needs_you", "done"],
    1,
  );
  n.observe({ ...stateIn("completing", { project_dir: project }), awaiting_decision: true, decision_waits: 1 });
  n.observe({ ...stateIn("done", { project_dir: project }), decision_waits: 1, commit_hash: "abc" });
  const t0 = Date.now();
  await n.drain();
  expect(Date.now() - t0).toBeLessThan(30_000);
  expect(received(join(project, "notes.jsonl")).map((x) => x.event)).toEqual(["done"]);
  const msgs = logged.filter((l) => l.fields?.event === "notify").map((l) => l.msg);
  expect(msgs[0]).toContain("notify needs_you: killed after 1 s");
  expect(msgs[1]).toContain("notify done: sent");
  void first;
});

test("no command: nothing is derived or run", async () => {
  const { project, n } = setup("");
  n.observe({ ...stateIn("completing", { project_dir: project }), awaiting_decision: true, decision_waits: 1 });
  await n.drain();
  expect(existsSync(join(project, ".agentmux/.sessions/20250301-100000-rate-limit/.runtime/notify.log"))).toBe(false);
});
