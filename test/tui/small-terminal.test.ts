import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/effects/fs/atomic.ts";
import { killTmuxServer, makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { stateIn, writeSession } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(40_000);

/** #11.10: an 80×24 terminal — every screen keeps its keys and its content (compiled binary in tmux). */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

function git(cwd: string, ...args: string[]) {
  const p = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr}`);
}

/** A run waiting for approval with 30 new files in a deep folder. */
function completing(): { repo: string; dir: string } {
  const repo = makeTmpDir("amx-small-");
  dirs.push(repo);
  writeFileSync(join(repo, "a.txt"), "a\n");
  git(repo, "init", "-q");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "init");
  mkdirSync(join(repo, "src/limits/backends"), { recursive: true });
  for (let i = 0; i < 30; i++) writeFileSync(join(repo, `src/limits/backends/store_${String(i).padStart(2, "0")}.ts`), `export const n = ${i};\n`);
  const dir = writeSession(
    repo,
    "s1",
    stateIn("completing", {
      project_dir: repo,
      awaiting_decision: true,
      review_results: { reviewer_logic: { verdict: "pass", summary: "ok", commit_message: "feat: add rate limiting" } },
    }),
  );
  writeFileAtomic(join(dir, "08_completion/summary.md"), "# What changed\n\nAdded **rate limiting**.\n");
  return { repo, dir };
}

test("the completion panel at 80×24: its whole key bar, whole file names, every file reachable", async () => {
  socket = privateSocket();
  const { repo, dir } = completing();
  const scr = new Screen(socket);
  await scr.start([scope.bin, "panel", dir], repo, { width: 80, height: 24 });
  // the whole frame, key bar included (blessed may draw the list before the bar on a loaded machine)
  const s = await scr.until("the panel", (x) => x.includes("store_00.ts") && x.includes("feat: add rate limiting") && x.includes("q quit"));
  for (const key of ["a approve", "r request changes", "q quit", "space exclude", "Enter diff", "e edit"]) expect(s).toContain(key);
  expect(s).toContain("› [x] A src/limits/backends/store_00.ts");
  for (let i = 1; i < 30; i++) await scr.keys("Down");
  const last = await scr.until("the last file", (x) => x.includes("› [x] A src/limits/backends/store_29.ts"));
  expect(last).toContain("a approve");
  await scr.keys("Space");
  await scr.until("the last file excluded", (x) => x.includes("› [ ] A src/limits/backends/store_29.ts") && x.includes("29/30 files"));
});

test("the completion panel in a run's narrow pane zooms to the whole window", async () => {
  socket = privateSocket();
  const { repo, dir } = completing();
  const scr = new Screen(socket);
  await scr.start(["sh", "-c", "sleep 600"], repo, { width: 80, height: 24 });
  // as in a run at 80×24: a 30-column monitor on the left, the panel in the 49 columns left over
  const left = (await scr.tmux.run(["display-message", "-p", "-t", "t", "#{pane_id}"])).trim();
  await Bun.write(join(dir, "runtime_state.json"), JSON.stringify({ tmux_session: "t", tmux_socket: socket, panes: {}, control_pane: left }));
  const panel = (
    await scr.tmux.run(["split-window", "-h", "-l", "49", "-t", left, "-P", "-F", "#{pane_id}", `env TERM=xterm-256color ${scope.bin} panel ${dir}`])
  ).trim();
  await waitFor(
    "the panel zoomed",
    async () => (await scr.tmux.run(["display-message", "-p", "-t", panel, "#{window_zoomed_flag} #{pane_width}"])).trim() === "1 80",
  );
  await waitFor("its key bar", async () => (await scr.tmux.run(["capture-pane", "-p", "-t", panel])).includes("a approve"));
});

test("the home screen at 80 columns keeps every column, the session ids whole", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-small-home-");
  dirs.push(project);
  writeSession(project, "20250301-100000-rate-limiting", stateIn("completing", { awaiting_decision: true, updated_at: "2025-03-01T10:00:00.000Z" }));
  writeSession(project, "20250302-100000-redis-backend", stateIn("implementing", { updated_at: "2025-03-02T10:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 80, height: 24 }, { AGENTMUX_TMUX_SOCKET: socket });
  const s = await scr.until("home", (x) => x.includes("SESSION"));
  expect(s).toMatch(/› 20250302-100000-redis-backend\s+implementing\s.*○ stopped/);
  expect(s).toMatch(/ {2}20250301-100000-rate-limiting\s+awaiting approval\s.*○ stopped/);
  expect(s).toContain("q quit");
});

test("#31: home-screen notices longer than 80 columns wrap onto the lines above the key bar, whole, never cut mid-word", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-small-home-");
  dirs.push(project);
  writeSession(project, "20250302-100000-a-rather-long-feature-name-for-the-notice", stateIn("implementing", { updated_at: "2025-03-02T10:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 80, height: 24 }, { AGENTMUX_TMUX_SOCKET: socket });
  await scr.until("home", (x) => x.includes("SESSION"));
  await scr.keys("a"); // not running: "<id> is not running — press r to resume", longer than the screen
  const s = await scr.until("the notice", (x) => x.includes("is not running"));
  const lines = s.trimEnd().split("\n");
  const at = lines.findIndex((l) => l.includes("is not running"));
  expect(
    lines
      .slice(at)
      .map((l) => l.trim())
      .join(" "),
  ).toBe("20250302-100000-a-rather-long-feature-name-for-the-notice is not running — press r to resume");
  expect(lines.every((l) => l.length <= 80)).toBe(true);
  expect(lines.slice(at).join("")).not.toContain("…");
});

test("the home screen outside a git repository says so where the sessions would be, and n says what to do, whole, at 80 columns", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-small-home-");
  dirs.push(project);
  const scr = new Screen(socket);
  await scr.start([scope.bin], project, { width: 80, height: 24 }, { AGENTMUX_TMUX_SOCKET: socket });
  const home = await scr.until("home", (x) => x.includes("q quit"));
  // where the sessions would be: why none can start here, not "start one with agentmux run"
  expect(home.replace(/\s+/g, " ")).toContain(`${project} is not a git repository. agentmux works on a branch and commits the result`);
  expect(home).not.toContain("Start one with");
  await scr.keys("n");
  const s = await scr.until("the notice", (x) => x.includes("is not a git repository:"));
  const lines = s.trimEnd().split("\n");
  const at = lines.findIndex((l) => l.includes("is not a git repository:"));
  expect(
    lines
      .slice(at)
      .map((l) => l.trim())
      .join(" "),
  ).toEndWith("make a first commit, then press n");
  expect(s).not.toContain("…");
});
