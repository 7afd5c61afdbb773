import { expect, test } from "bun:test";
import { join } from "node:path";
import { makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #11.14: in a terminal tmux cannot drive (TERM=dumb, or a TERM it does not know), a run said
 * "Detached. The run goes on in the background" the moment it started. Now it shows its
 * progress right there, like a headless run, to the end.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

for (const [term, says] of [
  ["dumb", "this terminal (TERM=dumb) cannot show tmux: progress is shown here instead"],
  ["xterm-nonexistent-zz", "tmux cannot use this terminal (TERM=xterm-nonexistent-zz): following the run here instead"],
] as const) {
  test(`TERM=${term}: the run's progress in this terminal, to the commit`, async () => {
    const root = makeTmpDir("amx-term-");
    dirs.push(root);
    const outer = privateSocket();
    const inner = privateSocket();
    sockets.push(outer, inner);
    const scr = new Screen(outer);
    await scr.start(
      [scope.bin, "demo", "--dir", join(root, "repo"), "--think-ms", "0"],
      root,
      { width: 200, height: 50 },
      { TERM: term, AGENTMUX_TMUX_SOCKET: inner, CI: "", NO_COLOR: "1" },
    );
    const out = await scr.until("the end of the run", (s) => s.includes("EXIT="), 90_000);
    expect(out.replace(/\n/g, "")).toContain(says);
    expect(out).not.toContain("Detached.");
    expect(out).toMatch(/implementing\s+plan ready/);
    expect(out).toMatch(/session \S+\s+branch feature\/greeting-module\s+commit [0-9a-f]{7}/);
    expect(out).toContain("EXIT=0");
  }, 120_000);
}
