/**
 * docs/checks.md's picture of the approval panel's Checks section, taken from the compiled
 * binary: the demo at 100x30 whose coder writes a bug its test catches (sim switch check_bug)
 * with no fix round allowed (max_review_iterations: 0), so the panel opens over a failing
 * required check; `tmux capture-pane -e -p`, rendered by ansi-svg.ts.
 *
 *   node_modules/.bin/bun build.ts && node_modules/.bin/bun scripts/checks-screen.ts
 *
 * writes docs/images/checks-panel.svg.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stringify } from "yaml";
import { Tmux } from "../src/effects/tmux/runner.ts";
import { ansiToSvg } from "./ansi-svg.ts";

const ROOT = resolve(import.meta.dir, "..");
const BIN = join(ROOT, "dist", "agentmux");
const OUT = join(ROOT, "docs", "images");
const [W, H] = [100, 30];

const outer = new Tmux(`agentmux-checks-shot-${process.pid}-o`);
const inner = `agentmux-checks-shot-${process.pid}-i`;
const work = mkdtempSync(join(tmpdir(), "agentmux-checks-shot-"));

async function until(what: string, test: (s: string) => boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (test(await outer.run(["capture-pane", "-p", "-t", "t"]).catch(() => ""))) return;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

try {
  mkdirSync(OUT, { recursive: true });
  const extra = join(work, "extra.yaml");
  writeFileSync(
    extra,
    stringify({
      defaults: { max_review_iterations: 0 },
      checks: { syntax: { command: "node --check src/greeting.js", required: false, kind: "build" } },
    }),
  );
  const cmd = `cd '${work}' && env TMUX= TERM=xterm-256color AGENTMUX_TMUX_SOCKET=${inner} '${BIN}' demo --approve --scenario check_bug --config '${extra}' --dir '${join(work, "repo")}' --think-ms 300; sleep 600`;
  await outer.run(["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", String(W), "-y", String(H), cmd]);
  await until("the approval panel with its checks", (s) => s.includes("a approve") && s.includes("Checks (c: output)"));
  const ansi = await outer.run(["capture-pane", "-e", "-p", "-t", "t"]);
  writeFileSync(join(OUT, "checks-panel.svg"), ansiToSvg(ansi, { title: "agentmux — the approval panel over a failing required check", cols: W }));
  console.log("wrote docs/images/checks-panel.svg");
} finally {
  Bun.spawnSync(["tmux", "-L", inner, "kill-server"]);
  await outer.exec(["kill-server"]);
  rmSync(work, { recursive: true, force: true });
}
