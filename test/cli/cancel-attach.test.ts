import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processIdentity } from "../../src/effects/process/identity.ts";
import { killTmuxServer, makeTmpDir, privateSocket, REPO_ROOT } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "../tui/fixtures.ts";

/**
 * `agentmux cancel` against a session whose orchestrator is a stand-in process: what it asks
 * for and what it refuses; and which session `cancel` and `attach` take when none is named.
 * The whole path (a real run canceled, then resumed to a commit) is in
 * test/e2e/cancel-resume.test.ts.
 */
const children: Bun.Subprocess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

function agentmux(project: string, args: string[], socket = "amx-none-" + process.pid) {
  const p = Bun.spawnSync([process.execPath, join(REPO_ROOT, "src/main.ts"), ...args], {
    cwd: project,
    env: { ...process.env, NO_COLOR: "1", AGENTMUX_TMUX_SOCKET: socket },
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}
const cancel = (project: string, ...args: string[]) => agentmux(project, ["cancel", ...args]);

/** A session in `phase` whose recorded orchestrator is a live process (or, with `dead`, one that has exited). */
async function session(phase: "implementing" | "done", dead = false, o: { project?: string; id?: string; updatedAt?: string } = {}) {
  const project = o.project ?? makeTmpDir("amx-cancel-cmd-");
  const id = o.id ?? "20250301-100000-delta";
  const dir = writeSession(project, id, stateIn(phase, { session_name: `agentmux-${id}`, ...(o.updatedAt ? { updated_at: o.updatedAt } : {}) }));
  const stand = Bun.spawn(["sleep", "60"]);
  children.push(stand);
  const start = processIdentity(stand.pid)!.start;
  if (dead) {
    stand.kill();
    await stand.exited;
  }
  mkdirSync(join(dir, ".runtime"), { recursive: true });
  writeFileSync(join(dir, ".runtime", "orchestrator.pid"), `${stand.pid} ${start}\n`);
  return { project, id, dir };
}

test("--no-wait asks the orchestrator to cancel (by: command) and returns at once", async () => {
  const { project, id, dir } = await session("implementing");
  const r = cancel(project, "--no-wait");
  expect(r).toEqual({ code: 0, stdout: `cancel requested for ${id} (implementing); see: agentmux status ${id}\n`, stderr: "" });
  expect(JSON.parse(readFileSync(join(dir, ".runtime", "cancel_request"), "utf8"))).toMatchObject({ by: "command" });
});

test("a session whose orchestrator is gone, or a finished one, is refused and nothing is written", async () => {
  for (const [phase, dead, hint] of [
    ["implementing", true, "resume it with: agentmux resume"],
    ["done", false, "it has finished"],
  ] as const) {
    const { project, id, dir } = await session(phase, dead);
    const r = cancel(project, id);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`session ${id} is not running`);
    expect(r.stderr).toContain(hint);
    expect(existsSync(join(dir, ".runtime", "cancel_request"))).toBe(false);
  }
});

test("without a session named: the newest running one, though a finished one is newer", async () => {
  const { project, id, dir } = await session("implementing", false, { updatedAt: "2025-03-01T10:00:00.000Z" });
  await session("done", false, { project, id: "20250302-100000-later", updatedAt: "2025-03-02T10:00:00.000Z" });
  const r = cancel(project, "--no-wait");
  expect(r).toEqual({ code: 0, stdout: `cancel requested for ${id} (implementing); see: agentmux status ${id}\n`, stderr: "" });
  expect(existsSync(join(dir, ".runtime", "cancel_request"))).toBe(true);
});

test("attach without a session named: the newest running one, though a finished one is newer", async () => {
  const { project, id, dir } = await session("implementing", false, { updatedAt: "2025-03-01T10:00:00.000Z" });
  await session("done", false, { project, id: "20250302-100000-later", updatedAt: "2025-03-02T10:00:00.000Z" });
  await withRunTmux(id, dir, (socket) => {
    // no terminal here: attach says so, naming the session it chose
    const r = agentmux(project, ["attach"], socket);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(id);
    expect(r.stderr).not.toContain("is not running");
  });
});

test("resume without a session named while the only unfinished run is still running: names it and says how to attach or stop it", async () => {
  const { project, id, dir } = await session("implementing");
  await withRunTmux(id, dir, (socket) => {
    // it said "there is no session to resume / see: agentmux sessions" without naming the running one
    const r = agentmux(project, ["resume"], socket);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`there is no session to resume: ${id} is still running`);
    expect(r.stderr).toContain(`agentmux attach ${id}`);
    expect(r.stderr).toContain(`agentmux cancel ${id}`);
  });
});

/** A run's tmux session for `id` on a private server, recording its folder as a run's does, for `check`. */
async function withRunTmux(id: string, dir: string, check: (socket: string) => void | Promise<void>): Promise<void> {
  const socket = privateSocket();
  const tmux = (...a: string[]) => Bun.spawnSync(["tmux", "-L", socket, "-f", "/dev/null", ...a], { env: { ...process.env, TMUX: "" } });
  try {
    expect(tmux("new-session", "-d", "-s", `agentmux-${id}`, "sh", "-c", "exec tail -f /dev/null").exitCode).toBe(0);
    tmux("set-environment", "-t", `agentmux-${id}`, "AMX_SESSION_DIR", dir);
    await check(socket);
  } finally {
    killTmuxServer(socket);
  }
}
