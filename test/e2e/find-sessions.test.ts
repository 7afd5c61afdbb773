import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { removeDir } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "../tui/fixtures.ts";
import { readState, spawnBinary } from "../fault/harness.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

/**
 * #11.13: `status`/`attach`/`resume` take a unique prefix or suffix of a session id and find
 * demo sessions from anywhere; #18.20: hints stay short with 2000 sessions (it was a 1,334-line
 * hint for `resume` without an id).
 */
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
const tmp = () => {
  const d = makeTmpDir("amx-find-");
  track.dirs.push(d);
  return d;
};
const socket = () => {
  const s = privateSocket();
  track.sockets.push(s);
  return s;
};

test("a unique prefix or suffix names a session; an ambiguous one lists the candidates", async () => {
  const p = tmp();
  writeSession(p, "20250301-100000-rate-limit", stateIn("failed", { updated_at: "2025-03-01T10:00:00.000Z" }));
  writeSession(p, "20250302-100000-health-check", stateIn("failed", { updated_at: "2025-03-02T10:00:00.000Z" }));
  const sock = socket();
  for (const arg of ["20250301", "rate-limit", "limit", "20250301-100000-rate-limit"]) {
    const r = await runBinary(bin, ["status", arg, "--json"], { cwd: p, socket: sock });
    expect({ arg, code: r.code, id: r.code === 0 ? JSON.parse(r.stdout).id : r.stderr }).toEqual({ arg, code: 0, id: "20250301-100000-rate-limit" });
  }
  const amb = await runBinary(bin, ["status", "2025"], { cwd: p, socket: sock });
  expect(amb.code).toBe(1);
  expect(amb.stderr).toContain('"2025" matches 2 sessions');
  expect(amb.stderr).toContain("20250302-100000-health-check, 20250301-100000-rate-limit");
}, 60_000);

test("demo sessions are found from anywhere: a live one through agentmux's tmux server, a finished one in its scratch repository", async () => {
  const elsewhere = tmp();
  const demo = startSlowDemo(bin, { track });
  const dir = await waitForPhase(demo.repo, "implementing");
  const id = dir.split("/").pop()!;
  // a temp folder of its own: demo sessions kept in the machine's would match the name too
  const live = await runBinary(bin, ["status", "greeting-module", "--json"], { cwd: elsewhere, socket: demo.socket, env: { TMPDIR: tmp() } });
  expect(live.code).toBe(0);
  expect(JSON.parse(live.stdout)).toMatchObject({ id, dir, live: true });
  demo.proc.kill("SIGTERM");
  await demo.done;

  // `agentmux demo` without --dir makes its scratch repository in the temp folder
  const tmpRoot = tmp();
  const sock = socket();
  const env = { TMPDIR: tmpRoot };
  const made = await runBinary(bin, ["demo", "--ci", "--keep-session"], { cwd: elsewhere, socket: sock, env });
  expect(made.code).toBe(0);
  const doneId = made.stdout.match(/session (\S+)\s+branch/)![1]!;
  const found = await runBinary(bin, ["status", doneId.slice(-12), "--json"], { cwd: elsewhere, socket: sock, env });
  expect(found.code).toBe(0);
  expect(JSON.parse(found.stdout)).toMatchObject({ id: doneId, phase: "done", live: false });
}, 120_000);

test("with 2000 sessions, `resume` without an id and an unknown id give a short hint", async () => {
  const p = makeTmpDir("amx-find-");
  try {
    mkdirSync(join(p, ".git"));
    for (let i = 0; i < 2000; i++) {
      const id = `20250301-${String(100000 + i)}-task-${i}`;
      writeSession(p, id, stateIn("failed", { updated_at: new Date(Date.parse("2025-03-01T10:00:00Z") + i * 1000).toISOString() }));
    }
    const sock = socket();
    const r = await runBinary(bin, ["resume"], { cwd: p, socket: sock });
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n").length).toBeLessThan(6);
    expect(r.stderr).toContain("2000 sessions can be resumed; name one");
    expect(r.stderr).toContain("20250301-101999-task-1999, 20250301-101998-task-1998");
    expect(r.stderr).toContain("and 1995 more (see: agentmux sessions)");
    const bad = await runBinary(bin, ["status", "nope"], { cwd: p, socket: sock });
    expect(bad.code).toBe(1);
    expect(bad.stderr.split("\n").length).toBeLessThan(6);
    expect(bad.stderr).toContain("and 1995 more");
  } finally {
    removeDir(p);
  }
}, 120_000);
