import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "./fixtures.ts";

// each case starts agentmux from source several times: on a loaded machine that is seconds
setDefaultTimeout(30_000);

const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
const MAIN = join(REPO_ROOT, "src", "main.ts");
let socket = "";
let dirs: string[] = [];

function cli(cwd: string, args: string[], stdin?: string) {
  const p = Bun.spawnSync([BUN, MAIN, ...args], {
    cwd,
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, AGENTMUX_TMUX_SOCKET: socket, NO_COLOR: "1", TMUX: "" },
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

function project(): string {
  const d = makeTmpDir("amx-tui-cmd-");
  dirs.push(d);
  writeSession(
    d,
    "20250301-100000-old",
    stateIn("failed", { session_name: "agentmux-20250301-100000-old", interruption_cause: "pane died", updated_at: "2025-03-01T10:00:00.000Z" }),
  );
  writeSession(d, "20250302-100000-new", stateIn("implementing", { session_name: "agentmux-20250302-100000-new", updated_at: "2025-03-02T10:00:00.000Z" }));
  return d;
}

afterEach(() => {
  if (socket) killTmuxServer(socket);
  for (const d of dirs) removeDir(d);
  dirs = [];
});

describe("status / sessions / clean", () => {
  test("sessions lists newest first with live state from tmux", () => {
    socket = privateSocket();
    const d = project();
    Bun.spawnSync(["tmux", "-L", socket, "new-session", "-d", "-s", "agentmux-20250302-100000-new", "sleep 60"], { env: { ...process.env, TMUX: "" } });
    const table = cli(d, ["sessions"]);
    expect(table.code).toBe(0);
    const rows = table.out.trim().split("\n");
    expect(rows[0]).toMatch(/SESSION\s+PHASE\s+LAST EVENT/);
    expect(rows[1]).toMatch(/20250302-100000-new\s+implementing\s+design ready.*● live/);
    expect(rows[2]).toMatch(/20250301-100000-old\s+failed\s+run failed.*○ stopped/);
    const json = JSON.parse(cli(d, ["sessions", "--json"]).out);
    expect(json.map((s: any) => [s.id, s.phase, s.live])).toEqual([
      ["20250302-100000-new", "implementing", true],
      ["20250301-100000-old", "failed", false],
    ]);
  });

  test("status: newest by default, by id, --json, counts tool events, unknown id lists ids", () => {
    socket = privateSocket();
    const d = project();
    const old = join(d, ".agentmux/.sessions/20250301-100000-old");
    writeFileSync(join(old, "tool_events.jsonl"), '{"tool":"submit_plan","timestamp":"t","payload":{}}\n'.repeat(123));
    expect(cli(d, ["status"]).out).toContain("Session    20250302-100000-new");
    const text = cli(d, ["status", "20250301-100000-old"]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/Cause\s+pane died/);
    expect(text.out).toContain("Tool calls 123");
    expect(text.out).toContain("agentmux resume 20250301-100000-old");
    const j = JSON.parse(cli(d, ["status", old, "--json"]).out);
    expect(j).toMatchObject({ id: "20250301-100000-old", phase: "failed", tool_events: 123, live: false });
    const bad = cli(d, ["status", "nope"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('no session "nope"');
    expect(bad.err).toContain("sessions here: 20250302-100000-new, 20250301-100000-old");
  });

  test("status names the bad field of a broken state.json", () => {
    socket = privateSocket();
    const d = project();
    writeFileSync(join(d, ".agentmux/.sessions/20250302-100000-new/state.json"), JSON.stringify({ ...stateIn("planning"), phase: "lunch" }));
    const r = cli(d, ["status", "20250302-100000-new"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('state.json: phase: must be one of "product_management"');
  });

  test("clean refuses without --force when not a TTY and changes nothing", () => {
    socket = privateSocket();
    const d = project();
    const r = cli(d, ["clean"], "y\n");
    expect(r.code).toBe(2);
    expect(r.out).toContain("20250301-100000-old");
    expect(r.err).toContain("--force");
    expect(existsSync(join(d, ".agentmux/.sessions/20250301-100000-old/state.json"))).toBe(true);
  });

  test("clean --force removes the named session and kills its live tmux session only", () => {
    socket = privateSocket();
    const d = project();
    const env = { ...process.env, TMUX: "" };
    Bun.spawnSync(["tmux", "-L", socket, "new-session", "-d", "-s", "agentmux-20250302-100000-new", "sleep 60"], { env });
    Bun.spawnSync(["tmux", "-L", socket, "new-session", "-d", "-s", "keep-me", "sleep 60"], { env });
    const r = cli(d, ["clean", "--force", "20250302-100000-new"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("agentmux-20250302-100000-new (socket");
    expect(r.out).toContain("Removed 1 session, stopped 1 live run.");
    expect(existsSync(join(d, ".agentmux/.sessions/20250302-100000-new"))).toBe(false);
    expect(existsSync(join(d, ".agentmux/.sessions/20250301-100000-old"))).toBe(true);
    const ls = Bun.spawnSync(["tmux", "-L", socket, "list-sessions", "-F", "#{session_name}"], { env, stdout: "pipe" }).stdout.toString();
    expect(ls.trim()).toBe("keep-me");
    expect(cli(d, ["clean", "--force"]).out).toContain("Removed 1 session.");
    expect(cli(d, ["clean", "--force"]).out).toContain("Nothing to clean");
  });
});
