/**
 * `agentmux doctor` at 80 columns: its long lines (a CLI's wiring, a fix) were cut by the terminal
 * mid-word ("<private fol" / "der>"); in a terminal they wrap at its width with words whole and
 * continuation lines indented, and a pipe still gets one line per check.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cells } from "../../src/views/width.ts";
import { wrapHanging } from "../../src/views/line.ts";
import { makeTmpDir } from "../helpers/tmp.ts";
import { screensScope } from "../tui/tmux-screen.ts";

const scope = screensScope();

/** A project whose roles all use a claude that is a script on PATH: doctor's long wiring line is printed. */
function project(): { dir: string; env: Record<string, string> } {
  const dir = makeTmpDir("amx-doctor-width-");
  scope.dirs.push(dir);
  mkdirSync(join(dir, ".git"));
  const bin = join(dir, ".bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "claude"), "#!/bin/sh\necho '2.1.332 (Claude Code)'\n", { mode: 0o755 });
  return { dir, env: { PATH: `${bin}:/usr/bin:/bin`, NO_COLOR: "1" } };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).join(" ");

test("doctor in an 80-column terminal: no word is split by the terminal, and the text is what a pipe gets", async () => {
  const { dir, env } = project();
  const piped = Bun.spawnSync([scope.bin, "doctor"], { cwd: dir, env: { ...env, AGENTMUX_TMUX_SOCKET: "amx-doctor-width" } });
  const text = piped.stdout.toString();
  expect(text).toContain("claude wiring: MCP: the run's endpoint over HTTP via --mcp-config <private folder>/<agent>.claude.json");
  expect(text.split("\n").some((l) => cells(l) > 80)).toBe(true); // what the terminal had to cut

  const screen = scope.screen();
  await screen.start([scope.bin, "doctor"], dir, { width: 80, height: 50 }, env);
  const shown = await screen.until("doctor's last line", (s) => /EXIT=\d/.test(s), 20_000);
  const lines = shown.slice(0, shown.indexOf("EXIT=")).trimEnd().split("\n");
  expect(words(lines.join("\n"))).toBe(words(text));
  expect(lines.some((l) => l.includes("folder>/<agent>.claude.json"))).toBe(true); // the terminal cut it "fol" / "der>"
}, 60_000);

test("wrapHanging: a line that fits stays; a long one wraps under the text after its mark, words whole", () => {
  expect(wrapHanging("✓ tmux: tmux 3.3a", 80)).toEqual(["✓ tmux: tmux 3.3a"]);
  const long = "    fix: install the GitHub CLI (https://cli.github.com) and run gh auth login, or set github.pull_request: false";
  const out = wrapHanging(long, 40);
  expect(out[0]!.startsWith("    fix: install")).toBe(true);
  expect(out.slice(1).every((l) => l.startsWith(" ".repeat(9)) && !l.startsWith(" ".repeat(10)))).toBe(true);
  expect(out.every((l) => cells(l) <= 40)).toBe(true);
  expect(words(out.join(" "))).toBe(words(long));
});
