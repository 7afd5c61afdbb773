import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { isolatedBinary, Screen } from "./tmux-screen.ts";

/**
 * #11.14: in a terminal tmux cannot drive (TERM=dumb, or a TERM it does not know), a run said
 * "Detached. The run goes on in the background" the moment it started. Now it shows its
 * progress right there, like a headless run, to the end.
 */
let bin = "";
const sockets: string[] = [];
const dirs: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
  dirs.push(join(bin, ".."));
});
afterAll(() => {
  sockets.forEach(killTmuxServer);
  dirs.forEach(removeDir);
});

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
    await scr.start([bin, "demo", "--dir", join(root, "repo"), "--think-ms", "0"], root, { width: 200, height: 50 }, { TERM: term, AGENTMUX_TMUX_SOCKET: inner, CI: "", NO_COLOR: "1" });
    const out = await scr.until("the end of the run", (s) => s.includes("EXIT="), 90_000);
    expect(out.replace(/\n/g, "")).toContain(says);
    expect(out).not.toContain("Detached.");
    expect(out).toMatch(/implementing\s+plan ready/);
    expect(out).toMatch(/session \S+\s+branch feature\/greeting-module\s+commit [0-9a-f]{7}/);
    expect(out).toContain("EXIT=0");
  }, 120_000);
}
