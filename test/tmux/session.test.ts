import { afterEach, describe, expect, test } from "bun:test";
import { SessionExists, StartDirMissing, UnsafePaneCommand } from "../../src/effects/tmux/errors.ts";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { createSession, paneCommand, shellQuote } from "../../src/effects/tmux/session.ts";
import { writeEnvFile } from "../../src/effects/tmux/env-file.ts";
import { killSession } from "../../src/effects/tmux/ops.ts";
import { waitFor } from "../helpers/wait.ts";
import { killTmuxServer, makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { ARGV_DUMP, BUN, HOSTILE, startFixture } from "./setup.ts";

let sockets: string[] = [];
afterEach(() => {
  for (const s of sockets) killTmuxServer(s);
  sockets = [];
});

describe("shellQuote", () => {
  test("round-trips hostile argv through sh exactly", () => {
    const r = Bun.spawnSync(["sh", "-c", `printf '%s\\0' ${shellQuote(HOSTILE)}`]);
    expect(r.stdout.toString().split("\0").slice(0, -1)).toEqual(HOSTILE);
  });
  test("refuses NUL bytes", () => {
    expect(() => shellQuote(["a\0b"])).toThrow(UnsafePaneCommand);
  });
});

describe("createSession", () => {
  test("hostile argv and env reach the control command byte-exact through tmux", async () => {
    const socket = privateSocket();
    sockets.push(socket);
    const tmux = new Tmux(socket);
    const dir = makeTmpDir();
    const out = join(dir, "argv.json");
    const hostileEnv = "x'y\"$(z) #{pane_id} ;";
    await createSession(tmux, {
      name: "hostile",
      cwd: dir,
      width: 120,
      height: 40,
      controlWidth: 40,
      controlCommand: [BUN, ARGV_DUMP, out, ...HOSTILE],
      env: { vars: { AMX_HOSTILE: hostileEnv }, dir: join(dir, ".env") },
    });
    const got = await waitFor("argv dump", () => existsSync(out) && readFileSync(out, "utf8"));
    expect(JSON.parse(String(got))).toEqual({ args: HOSTILE, env: hostileEnv, cwd: dir });
    expect(existsSync("/tmp/amx-pwned")).toBe(false);
    // the env travelled through a private file the pane deleted, not through an argv
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(dir, ".env"))).toEqual([]);
  });

  test("an env file is 0600, its names are checked, and a pane sources then deletes it", async () => {
    const dir = makeTmpDir();
    const file = writeEnvFile(join(dir, "env"), { A_B: "it's\nmulti $(x) `y` #{z};" });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(() => writeEnvFile(join(dir, "env"), { "BAD-NAME": "x" })).toThrow(UnsafePaneCommand);
    const cmd = paneCommand(["sh", "-c", 'printf %s "$A_B" > out; [ -e "$0" ] && echo left >> out; true', file], { envFile: file });
    expect(cmd).not.toContain("multi");
    const r = Bun.spawnSync(["sh", "-c", cmd], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, "out"), "utf8")).toBe("it's\nmulti $(x) `y` #{z};");
    expect(existsSync(file)).toBe(false);
  });

  test("the session has the explicit size, not 80x24, and agentmux options", async () => {
    const f = await startFixture({ width: 211, height: 57 });
    sockets.push(f.socket);
    const size = await f.tmux.run([
      "display-message",
      "-p",
      "-t",
      f.controlPane,
      "#{window_width}x#{window_height} #{window-size} #{pane-border-status} #{allow-rename} #{mouse}",
    ]);
    expect(size).toBe("211x57 manual top 0 1");
    // parked windows are pinned to the session size too
    const parked = await f.tmux.run(["list-windows", "-t", "=amx-test", "-F", "#{window_name} #{window_width}x#{window_height}"]);
    for (const line of parked.split("\n")) expect(line.endsWith("211x57")).toBe(true);
    // a tiny client must not shrink the pipeline window: window-size manual survives a resize attempt
    const opt = await f.tmux.run(["show-options", "-w", "-v", "-t", f.window, "window-size"]);
    expect(opt).toBe("manual");
  });

  test("the control pane starts at its final width beside the placeholder: the monitor's first screen is never reflowed by a later split", async () => {
    const socket = privateSocket();
    sockets.push(socket);
    const tmux = new Tmux(socket);
    const dir = makeTmpDir("amx-tmux-");
    const { controlPane, window } = await createSession(tmux, {
      name: "first-width",
      cwd: dir,
      width: 200,
      height: 50,
      controlWidth: 40,
      controlCommand: ["sh", "-c", "exec tail -f /dev/null"],
    });
    const rows = (await tmux.run(["list-panes", "-t", window, "-F", "#{pane_id} #{pane_width} #{@amx_role}"])).split("\n");
    expect(rows).toEqual([`${controlPane} 40 control`, expect.stringMatching(/^%\d+ 159 placeholder$/)]);
  });

  test("refuses a session that exists and a missing cwd, naming them", async () => {
    const f = await startFixture();
    sockets.push(f.socket);
    const base = { cwd: f.dir, width: 100, height: 30, controlWidth: 40, controlCommand: ["true"] };
    const exists = await createSession(f.tmux, { ...base, name: f.session }).catch((e) => e);
    expect(exists).toBeInstanceOf(SessionExists);
    expect(exists.data).toEqual({ session: f.session, socket: f.socket, attach: f.tmux.attachCommand(f.session) });
    const missing = await createSession(f.tmux, { ...base, name: "other", cwd: join(f.dir, "missing") }).catch((e) => e);
    expect(missing).toBeInstanceOf(StartDirMissing);
    expect(missing.data).toEqual({ dir: join(f.dir, "missing") });
  });

  test("killSession removes the session and tolerates a missing one", async () => {
    const f = await startFixture();
    sockets.push(f.socket);
    await killSession(f.tmux, f.session);
    expect(await f.tmux.hasSession(f.session)).toBe(false);
    await killSession(f.tmux, f.session);
  });
});
