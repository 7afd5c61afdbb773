import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlLine } from "../../src/effects/tmux/control.ts";
import { TmuxServerNotRunning, TmuxSessionNotFound, TmuxTargetNotFound } from "../../src/effects/tmux/errors.ts";
import { attachedClients } from "../../src/effects/tmux/agent-ops.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { REPO_ROOT, killTmuxServer, makeTmpDir } from "../helpers/tmp.ts";
import { holdsFor, waitFor } from "../helpers/wait.ts";
import { HOSTILE, startFixture, type TmuxFixture } from "./setup.ts";

let fixtures: TmuxFixture[] = [];
afterEach(() => {
  for (const f of fixtures) {
    f.tmux.closeControlClient();
    killTmuxServer(f.socket);
  }
  fixtures = [];
});

/** A fixture whose calls go through a control client (`onLost` told when it goes), and a process-per-call Tmux on the same server. */
async function pair(onLost?: () => void) {
  // one client from the start: tmux 3.3a can crash when one detaches as another attaches
  const f = await startFixture();
  if (!(await f.tmux.useControlClient(f.session, onLost))) throw new Error("tmux refused a control-mode client");
  fixtures.push(f);
  // the same server through a tmux process per call, to compare answers with
  return { f, spawned: new Tmux(f.socket) };
}

describe("controlLine: what a control-mode line can carry", () => {
  test("arguments are quoted literally; a lone ';' still separates commands", () => {
    expect(controlLine(["display-message", "-p", "it's #{pane_id}"])).toBe(`'display-message' '-p' 'it'\\''s #{pane_id}'`);
    expect(controlLine(["set-option", "-g", "@a", "1", ";", "show-options", "-gv", "@a"])).toBe(`'set-option' '-g' '@a' '1' ; 'show-options' '-gv' '@a'`);
  });

  test("what only a process of its own can do is refused: newlines, a trailing ';', server flags, client commands", () => {
    expect(controlLine(["send-keys", "-t", "%1", "-l", "a\nb"])).toBeNull();
    expect(controlLine(["send-keys", "-t", "%1", "-l", "a\rb"])).toBeNull();
    expect(controlLine(["send-keys", "-t", "%1", "-l", "x\\;"])).toBeNull(); // argv parsing gives a trailing ';' a meaning
    expect(controlLine(["-f", "/dev/null", "new-session", "-d"])).toBeNull();
    expect(controlLine(["kill-session", "-t", "=s"])).toBeNull();
    expect(controlLine(["display-message", "-p", "x", ";", "kill-server"])).toBeNull();
    expect(controlLine(["attach-session", "-t", "=s"])).toBeNull();
    expect(controlLine(["new-session", "-d", "-s", "s"])).toBeNull();
    expect(controlLine([])).toBeNull();
  });
});

describe("the control-mode client answers as a tmux process would", () => {
  test("values round-trip unchanged: hostile strings set through one path read the same through the other", async () => {
    const { f, spawned } = await pair();
    // a lone ";" is a command separator either way (callers escape it)
    for (const [i, value] of HOSTILE.filter((v) => v !== ";").entries()) {
      const name = `@v${i}`;
      await f.tmux.run(["set-option", "-t", `=${f.session}:`, name, value]);
      const viaControl = await f.tmux.exec(["show-options", "-v", "-t", `=${f.session}:`, name]);
      const viaProcess = await spawned.exec(["show-options", "-v", "-t", `=${f.session}:`, name]);
      expect(viaControl).toEqual(viaProcess);
      expect(viaProcess.code).toBe(0);
    }
  });

  test("a screen is read byte for byte, and a pane printing tmux's own block lines cannot cut an answer short", async () => {
    const { f, spawned } = await pair();
    // the pane prints lines that look like the end of a control-mode answer
    const pane = await f.layout.createPane({
      command: ["sh", "-c", "printf '%%end 1 2 1\\n%%error 1 2 1\\n%%exit\\ntab\\there é ✓\\n'; exec tail -f /dev/null"],
      env: {},
      cwd: f.dir,
      label: "spoof",
    });
    await waitFor("the pane printed", async () => (await spawned.run(["capture-pane", "-p", "-t", pane.pane])).includes("tab"));
    const viaControl = await f.tmux.exec(["capture-pane", "-p", "-J", "-t", pane.pane]);
    expect(viaControl).toEqual(await spawned.exec(["capture-pane", "-p", "-J", "-t", pane.pane]));
    expect(viaControl.stdout).toContain("%end 1 2 1\n%error 1 2 1\n%exit\n");
    // and the client still answers the next call with its own answer
    expect(await f.tmux.run(["display-message", "-p", "-t", pane.pane, "after #{pane_id}"])).toBe(`after ${pane.pane}`);
  });

  test("a chain that fails part way: the output before the failure, exit 1, and tmux's message classified as usual", async () => {
    const { f, spawned } = await pair();
    const args = ["display-message", "-p", "first", ";", "list-panes", "-t", "%999", ";", "display-message", "-p", "not run"];
    const viaControl = await f.tmux.exec(args);
    const viaProcess = await spawned.exec(args);
    expect(viaControl.code).toBe(1);
    expect(viaControl.stdout).toBe(viaProcess.stdout);
    expect(viaControl.stdout).toBe("first\n");
    expect(viaControl.stderr.trim()).toBe(viaProcess.stderr.trim());
    await expect(f.tmux.run(["list-panes", "-t", "%999"])).rejects.toBeInstanceOf(TmuxTargetNotFound);
    await expect(f.tmux.run(["show-options", "-t", "=no-such-session:", "@x"])).rejects.toBeInstanceOf(TmuxSessionNotFound);
  });

  test("many calls in flight at once each get their own answer", async () => {
    const { f } = await pair();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => f.tmux.run(["display-message", "-p", `n=${i}`])));
    expect(answers).toEqual(Array.from({ length: 60 }, (_, i) => `n=${i}`));
  });

  test("the calls go through the one client: no tmux process per call", async () => {
    const f = await startFixture(); // the child's client is the only one
    fixtures.push(f);
    const dir = makeTmpDir("amx-tmux-count-");
    const log = join(dir, "calls");
    writeFileSync(join(dir, "tmux"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${Bun.which("tmux")}' "$@"\n`);
    chmodSync(join(dir, "tmux"), 0o755);
    // in a process of its own, whose PATH finds the counting tmux first
    const runner = JSON.stringify(join(REPO_ROOT, "src/effects/tmux/runner.ts"));
    const script = `
      const { Tmux } = await import(${runner});
      const tmux = new Tmux(${JSON.stringify(f.socket)});
      if (!(await tmux.useControlClient(${JSON.stringify(f.session)}))) throw new Error("no control client");
      for (let i = 0; i < 20; i++) await tmux.run(["display-message", "-p", "-t", ${JSON.stringify(f.controlPane)}, "#{pane_id}"]);
      await tmux.exec(["load-buffer", "-b", "amx-test", "-"], "text on stdin");
      tmux.closeControlClient();`;
    const p = Bun.spawnSync([process.execPath, "-e", script], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}` }, stderr: "pipe" });
    expect(p.stderr.toString()).toBe("");
    expect(p.exitCode).toBe(0);
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls).toHaveLength(2);
    expect(calls[0]).toContain("-C attach-session");
    expect(calls[1]).toContain("load-buffer"); // stdin: a process of its own
  });

  test("people attached are told apart from the control client", async () => {
    const { f, spawned } = await pair();
    expect((await spawned.run(["list-clients", "-t", `=${f.session}`, "-F", "#{client_control_mode}"])).split("\n")).toEqual(["1"]);
    expect(await attachedClients(f.tmux, f.session)).toEqual([]);
  });
});

describe("a lost control client: calls go on as processes", () => {
  test("the session killed under it: the loss is told once, the next calls run as processes and say what tmux says", async () => {
    let lost = 0;
    const { f, spawned } = await pair(() => lost++);
    await spawned.run(["new-session", "-d", "-s", "other"]);
    await spawned.run(["kill-session", "-t", `=${f.session}`]);
    await waitFor(
      "the client noticed",
      async () =>
        (await f.tmux.exec(["has-session", "-t", "=other"])).code === 0 &&
        (await f.tmux.exec(["display-message", "-p", "#{session_name}"])).stdout.trim() === "other",
    );
    await expect(f.tmux.run(["show-options", "-t", `=${f.session}:`, "@x"])).rejects.toBeInstanceOf(TmuxSessionNotFound);
    await waitFor("the loss told", () => lost === 1);
  });

  test("a client closed on purpose is not a loss", async () => {
    let lost = 0;
    const { f, spawned } = await pair(() => lost++);
    f.tmux.closeControlClient();
    await waitFor("the client gone", async () => (await spawned.run(["list-clients", "-F", "#{client_control_mode}"])) === "");
    await holdsFor("no loss told", () => lost === 0, { forMs: 300 });
  });

  test("the server killed: calls fail as a server that is not running", async () => {
    const { f } = await pair();
    killTmuxServer(f.socket);
    await waitFor("calls fail as a lost server", async () => {
      try {
        await f.tmux.run(["display-message", "-p", "x"]);
        return false;
      } catch (e) {
        return e instanceof TmuxServerNotRunning;
      }
    });
  });
});
