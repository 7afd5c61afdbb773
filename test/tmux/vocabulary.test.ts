import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSession, formatLiteral, startDirLiteral } from "../../src/effects/tmux/session.ts";
import { waitFor } from "../helpers/wait.ts";
import {
  classifyTmuxStderr,
  isGone,
  TmuxCommandFailed,
  TmuxDuplicateSession,
  TmuxFormatMismatch,
  TmuxServerNotRunning,
  TmuxSessionNotFound,
  TmuxTargetNotFound,
} from "../../src/effects/tmux/errors.ts";
import { defineFormat, PANE_START, SESSION_PANE } from "../../src/effects/tmux/formats.ts";
import { capturePane, CONTROL_PANE_VAR, killSession, listSessionNames, selectPane, setEnvironment, showEnvironment } from "../../src/effects/tmux/ops.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { killTmuxServer, privateSocket, removeDir } from "../helpers/tmp.ts";
import { startFixture } from "./setup.ts";

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

async function fixture() {
  const f = await startFixture();
  cleanup.push(
    () => killTmuxServer(f.socket),
    () => removeDir(f.dir),
  );
  return f;
}

describe("formats: defined once, parsed with a column check", () => {
  test("the format text and the parsed fields", () => {
    const f = defineFormat("t", { a: "pane_id", b: "@amx_role" });
    expect(f.text).toBe("#{pane_id}\t#{@amx_role}");
    expect(f.parse("%1\tcontrol")).toEqual({ a: "%1", b: "control" });
    expect(f.parseLines("%1\tx\n%2\t\n")).toEqual([
      { a: "%1", b: "x" },
      { a: "%2", b: "" },
    ]);
  });

  test("a line with too few or too many columns is a named error, not a shifted field", () => {
    const f = defineFormat("two", { a: "pane_id", b: "window_id" });
    for (const line of ["%1", "%1\t@2\textra"]) {
      const e = (() => {
        try {
          f.parse(line);
        } catch (err) {
          return err;
        }
      })();
      expect(e).toBeInstanceOf(TmuxFormatMismatch);
      expect((e as InstanceType<typeof TmuxFormatMismatch>).data).toMatchObject({ format: "two", expected: 2, line });
    }
  });

  test("only the last field may be free text, and it keeps its tabs", () => {
    expect(PANE_START.parse("42\t0\t/repo/with\ttab")).toEqual({ pid: "42", dead: "0", path: "/repo/with\ttab" });
    expect(() => PANE_START.parse("42\t0")).toThrow(TmuxFormatMismatch);
    expect(() => defineFormat("bad", { a: "x", b: "y" }, { restField: "a" })).toThrow(/only the last field/);
  });

  test("real tmux output parses", async () => {
    const f = await fixture();
    const rows = SESSION_PANE.parseLines(await f.tmux.run(["list-panes", "-s", "-t", `=${f.session}`, "-F", SESSION_PANE.text]));
    expect(rows.find((r) => r.pane === f.controlPane)).toEqual({ pane: f.controlPane, window: f.window, role: "control" });
  });
});

describe("tmux stderr is classified once into named errors", () => {
  test("classification of tmux's own wording", () => {
    expect(classifyTmuxStderr("no server running on /tmp/tmux-0/x")).toBe("server-not-running");
    expect(classifyTmuxStderr("error connecting to /tmp/tmux-0/x (No such file or directory)")).toBe("server-not-running");
    expect(classifyTmuxStderr("can't find session: b")).toBe("session-not-found");
    expect(classifyTmuxStderr("no current target")).toBe("session-not-found");
    expect(classifyTmuxStderr("can't find pane: %99")).toBe("target-not-found");
    expect(classifyTmuxStderr("can't find window: @9")).toBe("target-not-found");
    expect(classifyTmuxStderr("duplicate session: a")).toBe("duplicate-session");
    // the rest of tmux 3.0–3.7's wording for a gone server, session, window or pane (client.c,
    // cmd-find.c, options.c, cmd-{set,show}-environment.c, cmd-attach-session.c)
    expect(classifyTmuxStderr("server exited")).toBe("server-not-running");
    expect(classifyTmuxStderr("server exited unexpectedly")).toBe("server-not-running");
    expect(classifyTmuxStderr("lost server")).toBe("server-not-running");
    expect(classifyTmuxStderr("no such session: b")).toBe("session-not-found");
    expect(classifyTmuxStderr("no current session")).toBe("session-not-found");
    expect(classifyTmuxStderr("no sessions")).toBe("session-not-found");
    expect(classifyTmuxStderr("no such pane: %99")).toBe("target-not-found");
    expect(classifyTmuxStderr("no such window: @9")).toBe("target-not-found");
    expect(classifyTmuxStderr("no current pane")).toBe("target-not-found");
    expect(classifyTmuxStderr("no current window")).toBe("target-not-found");
    expect(classifyTmuxStderr("no current client")).toBe("target-not-found");
    expect(classifyTmuxStderr("can't find client: /dev/pts/9")).toBe("target-not-found");
    expect(classifyTmuxStderr("unknown option -- z")).toBe("failed");
  });

  test("a real server's failures become the matching classes with their data", async () => {
    const none = new Tmux(privateSocket());
    const e1 = await none.run(["kill-session", "-t", "=x"]).catch((e) => e);
    expect(e1).toBeInstanceOf(TmuxServerNotRunning);
    expect(e1.data).toMatchObject({ socket: none.socket, args: ["kill-session", "-t", "=x"], code: 1 });
    expect(e1.message).toStartWith("tmux kill-session failed: error connecting to");

    const f = await fixture();
    expect(await f.tmux.run(["kill-session", "-t", "=nope"]).catch((e) => e)).toBeInstanceOf(TmuxSessionNotFound);
    expect(await f.tmux.run(["select-pane", "-t", "%999"]).catch((e) => e)).toBeInstanceOf(TmuxTargetNotFound);
    expect(await f.tmux.run(["new-session", "-d", "-s", f.session]).catch((e) => e)).toBeInstanceOf(TmuxDuplicateSession);
    expect(await f.tmux.run(["show-environment", "-t", "nope", "X"]).catch((e) => e)).toBeInstanceOf(TmuxSessionNotFound);
    expect(await f.tmux.run(["set-option", "-t", "nope", "status", "off"]).catch((e) => e)).toBeInstanceOf(TmuxSessionNotFound);
    expect(await f.tmux.run(["show-options", "-p", "-t", "%999"]).catch((e) => e)).toBeInstanceOf(TmuxTargetNotFound);
    const other = await f.tmux.run(["set-option", "-g", "no-such-option", "1"]).catch((e) => e);
    expect(other).toBeInstanceOf(TmuxCommandFailed);
    expect(isGone(e1)).toBe(true);
    expect(isGone(other)).toBe(false);
  });
});

describe("typed operations", () => {
  test("kill-session tolerates a gone session and a gone server, lists what lives", async () => {
    const f = await fixture();
    expect([...(await listSessionNames(f.tmux))]).toEqual([f.session]);
    await killSession(f.tmux, f.session);
    await killSession(f.tmux, f.session);
    expect(await listSessionNames(f.tmux)).toEqual(new Set());
    await killSession(new Tmux(privateSocket()), "x");
  });

  test("session environment round trip; capture and select a pane", async () => {
    const f = await fixture();
    expect(await showEnvironment(f.tmux, f.session, CONTROL_PANE_VAR)).toBeUndefined();
    await setEnvironment(f.tmux, f.session, CONTROL_PANE_VAR, f.controlPane);
    expect(await showEnvironment(f.tmux, f.session, CONTROL_PANE_VAR)).toBe(f.controlPane);
    await selectPane(f.tmux, f.controlPane, { window: true });
    expect(await capturePane(f.tmux, f.controlPane, { join: true })).toContain("control");
    await expect(selectPane(f.tmux, "%999")).rejects.toBeInstanceOf(TmuxTargetNotFound);
  });
});

describe("strings tmux format-expands stay literal (#18.10)", () => {
  test("a pane and a session start in a folder named with #(…), #{…}, #H, quotes and unicode; nothing runs", async () => {
    const f = await fixture();
    const canary = join(f.dir, "pwned");
    // #31: `#[` (and a run of # before [) too: tmux keeps those as they are
    const odd = join(f.dir, `x#Hidden #{pane_id} it's "q" 日本`, `#(touch ${canary})`, "##{ #", "a#[red]b##[c]");
    mkdirSync(odd, { recursive: true });
    const { pane } = await f.layout.createPane({ command: ["sh", "-c", "exec tail -f /dev/null"], env: {}, cwd: odd, label: `#(touch ${canary}) #{pane_id}` });
    expect(await f.layout.title(pane)).toBe(`#(touch ${canary}) #{pane_id}`);
    await createSession(f.tmux, {
      name: "odd",
      cwd: odd,
      width: 80,
      height: 24,
      controlWidth: 30,
      controlCommand: ["sh", "-c", "pwd > here; exec tail -f /dev/null"],
    });
    const here = await waitFor("pwd of the control pane", () => existsSync(join(odd, "here")) && readFileSync(join(odd, "here"), "utf8"));
    expect(String(here).trim()).toBe(odd);
    expect(formatLiteral("a#{b}#(c)")).toBe("a##{b}##(c)");
    expect(startDirLiteral("a#{b}#[c]##[d]#")).toBe("a##{b}#[c]##[d]##");
    expect(existsSync(canary)).toBe(false);
  });
});
