import { afterEach, expect, test } from "bun:test";
import { callAttention } from "../../src/daemon/attention.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { killTmuxServer, privateSocket } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { Screen } from "./tmux-screen.ts";

let sockets: string[] = [];
afterEach(() => {
  sockets.forEach(killTmuxServer);
  sockets = [];
});

/**
 * tmux freezes a client's screen while a status-line message shows (TTY_FREEZE: the panes'
 * output is not drawn). A stuck agent's 10 s message kept the monitor saying WORKING for 10 s
 * after the agent was marked STUCK (demo --scenario stall=coder at 80x24). The message is short,
 * so what the agents and the monitor write shows again soon.
 */
test("the attention message lets the attached terminal show the panes' output again within a few seconds", async () => {
  const innerSocket = privateSocket();
  const outerSocket = privateSocket();
  sockets.push(innerSocket, outerSocket);
  const inner = new Tmux(innerSocket);
  await inner.run(["-f", "/dev/null", "new-session", "-d", "-s", "run", "-x", "80", "-y", "20", "i=0; while :; do i=$((i+1)); echo tick-$i; sleep 0.2; done"]);
  await inner.run(["set-option", "-g", "status", "off"]);
  const outer = new Screen(outerSocket);
  await outer.start(["tmux", "-L", innerSocket, "attach", "-t", "run"], "/tmp", { width: 80, height: 20 }, { TMUX: "" });
  const ticks = async () => Math.max(0, ...[...(await outer.capture()).matchAll(/tick-(\d+)/g)].map((m) => Number(m[1])));
  await waitFor("the attached terminal to show the ticks", async () => (await ticks()) > 0);
  expect(await callAttention(inner, "run", "[coder] is stuck: no output and no tool call for 8 s")).toBe(1);
  await outer.until("the message", (x) => x.includes("agentmux: [coder] is stuck"));
  const frozenAt = await ticks();
  await waitFor("the ticks to move on screen again", async () => (await ticks()) > frozenAt + 2, { timeoutMs: 6000 });
}, 20_000);
