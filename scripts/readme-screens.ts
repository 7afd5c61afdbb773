/**
 * The README's pictures of agentmux at work, taken from the compiled binary running the demo:
 * `tmux capture-pane -e -p` of the terminal attached to it, rendered by ansi-svg.ts.
 *
 *   node_modules/.bin/bun build.ts && node_modules/.bin/bun scripts/readme-screens.ts
 *
 * writes docs/images/monitor.svg (coders at work) and docs/images/approval-panel.svg.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Tmux } from "../src/effects/tmux/runner.ts";
import { ansiToSvg } from "./ansi-svg.ts";

const ROOT = resolve(import.meta.dir, "..");
const BIN = join(ROOT, "dist", "agentmux");
const OUT = join(ROOT, "docs", "images");
const [W, H] = [120, 32];

const outer = new Tmux(`agentmux-readme-${process.pid}-o`);
const inner = `agentmux-readme-${process.pid}-i`;
const work = mkdtempSync(join(tmpdir(), "agentmux-readme-"));

async function until(what: string, test: (s: string) => boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (test(await outer.run(["capture-pane", "-p", "-t", "t"]).catch(() => ""))) return;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function shoot(name: string, title: string): Promise<void> {
  const ansi = await outer.run(["capture-pane", "-e", "-p", "-t", "t"]);
  writeFileSync(join(OUT, name), ansiToSvg(ansi, { title, cols: W }));
  console.log(`wrote docs/images/${name}`);
}

try {
  mkdirSync(OUT, { recursive: true });
  const cmd = `cd '${work}' && env TMUX= TERM=xterm-256color AGENTMUX_TMUX_SOCKET=${inner} '${BIN}' demo --approve --dir '${join(work, "repo")}' --think-ms 2500; sleep 600`;
  await outer.run(["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", String(W), "-y", String(H), cmd]);
  await until("a coder at work", (s) => s.includes("[coder]") && s.includes("▶ implementing") && s.includes("created src/"));
  await shoot("monitor.svg", "agentmux — the monitor and a coder at work");
  await until("the approval panel", (s) => s.includes("a approve") && s.includes("Commit message"));
  await shoot("approval-panel.svg", "agentmux — the approval panel");
} finally {
  Bun.spawnSync(["tmux", "-L", inner, "kill-server"]);
  await outer.exec(["kill-server"]);
  rmSync(work, { recursive: true, force: true });
}
