import { expect, test } from "bun:test";
import { join } from "node:path";
import { writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import { mkdirSync, rmSync } from "node:fs";
import { makeTmpDir, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { stateIn, writeSession } from "./fixtures.ts";

/** `agentmux status --watch <id>` in `project`, from source. */
const watchStatus = (project: string, id: string) =>
  Bun.spawn([process.execPath, join(REPO_ROOT, "src/main.ts"), "status", "--watch", id], {
    cwd: project,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1", AGENTMUX_TMUX_SOCKET: "amx-none-" + process.pid },
  });

test("status --watch redraws as the session changes and ends once the run is finished", async () => {
  const project = makeTmpDir("amx-watch-");
  const dir = writeSession(project, "20250301-100000-alpha", stateIn("implementing"));
  const p = watchStatus(project, "20250301-100000-alpha");
  let out = "";
  const reader = (async () => {
    for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk);
  })();
  await waitFor("the first frame", () => /Phase\s+implementing/.test(out), { timeoutMs: 10000 });
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("reviewing"), feature_dir: dir });
  await waitFor("a redraw", () => /Phase\s+reviewing/.test(out), { timeoutMs: 10000 });
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("done"), feature_dir: dir });
  const code = await Promise.race([p.exited, Bun.sleep(10000).then(() => "still running")]);
  p.kill();
  await reader;
  expect(code).toBe(0);
  expect(out).toMatch(/Phase\s+done/);
  // stdout is a pipe: frames one after another, no clear-screen escapes in it
  expect(out).not.toContain("\x1b[");
  expect(out.split(/\n(?=Session )/).length).toBe(3);
});

test("status --watch into a pipe whose reader went away (| head -1) ends at its next frame instead of watching on", async () => {
  const project = makeTmpDir("amx-watch-");
  const dir = writeSession(project, "20250301-100000-delta", stateIn("implementing"));
  const p = Bun.spawn(["sh", "-c", `"$0" "$1" status --watch 20250301-100000-delta | head -1`, process.execPath, join(REPO_ROOT, "src/main.ts")], {
    cwd: project,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1", AGENTMUX_TMUX_SOCKET: "amx-none-" + process.pid },
  });
  let out = "";
  const reader = (async () => {
    for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk);
  })();
  await waitFor("head's one line", () => out.includes("\n"), { timeoutMs: 10000 });
  expect(out).toBe("Session    20250301-100000-delta  ○ stopped\n");
  // the next change makes a frame the closed pipe refuses: the watcher (and the pipeline) end
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("reviewing"), feature_dir: dir });
  await waitFor(
    "the watcher to end",
    async () => {
      writeJsonAtomic(join(dir, "state.json"), { ...stateIn("reviewing", { updated_at: new Date().toISOString() }), feature_dir: dir });
      return Promise.race([p.exited.then(() => true), Bun.sleep(200).then(() => false)]);
    },
    { timeoutMs: 10000 },
  );
  expect(await p.exited).toBe(0);
  await reader;
  removeDir(project);
}, 20_000);

test("status --watch: a run that commits and removes its folder at once still ends on the final frame (from its archive)", async () => {
  const project = makeTmpDir("amx-watch-");
  const id = "20250301-100000-beta";
  const dir = writeSession(project, id, stateIn("completing"));
  const p = watchStatus(project, id);
  let out = "";
  const reader = (async () => {
    for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk);
  })();
  await waitFor("the first frame", () => /Phase\s+completing/.test(out), { timeoutMs: 10000 });
  // what the orchestrator does at the end of a successful run, faster than the watcher's debounce
  const archive = join(project, ".agentmux/.sessions/.archive", id);
  mkdirSync(archive, { recursive: true });
  writeJsonAtomic(join(archive, "state.json"), { ...stateIn("done", { commit_hash: "abc1234" }), feature_dir: dir });
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("done", { commit_hash: "abc1234" }), feature_dir: dir });
  rmSync(dir, { recursive: true, force: true });
  const code = await Promise.race([p.exited, Bun.sleep(10000).then(() => "still running")]);
  p.kill();
  await reader;
  expect(code).toBe(0);
  const last = out.split(/\n(?=Session )/).at(-1)!;
  expect(last).toMatch(/Phase\s+done/);
  expect(last).toMatch(/Commit\s+abc1234/);
  removeDir(project);
});

test("status --watch started as the run is being created (its folder there, no state.json yet) waits for it instead of 'no session'", async () => {
  const project = makeTmpDir("amx-watch-");
  const id = "20250301-100000-gamma";
  const dir = join(project, ".agentmux/.sessions", id);
  mkdirSync(dir, { recursive: true }); // what the launcher claims first
  const p = watchStatus(project, id);
  let out = "";
  let err = "";
  const readers = [
    (async () => {
      for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk);
    })(),
    (async () => {
      for await (const chunk of p.stderr) err += new TextDecoder().decode(chunk);
    })(),
  ];
  await waitFor("the watcher waiting for the session", () => err.includes(`waiting for session ${id}: it is being created`), { timeoutMs: 10000 });
  writeSession(project, id, stateIn("done", { commit_hash: "abc1234" }));
  const code = await Promise.race([p.exited, Bun.sleep(10000).then(() => "still running")]);
  p.kill();
  await Promise.all(readers);
  expect(code).toBe(0);
  expect(out).toMatch(/Phase\s+done/);
  removeDir(project);
});

test("#31: status --watch at 80×24 draws a frame that fits: the header stays on screen, the rest is counted", async () => {
  const { Screen } = await import("./tmux-screen.ts");
  const { BINARY, privateSocket, killTmuxServer } = await import("../helpers/tmp.ts");
  const project = makeTmpDir("amx-watch-");
  const id = "20250301-100000-tall";
  // a run in its second review round: a timeline, reviews and notes make a frame taller than 24 rows
  writeSession(
    project,
    id,
    stateIn("completing", {
      review_iteration: 2,
      review_results: {
        reviewer_logic: { verdict: "pass", summary: "ok" },
        reviewer_quality: { verdict: "pass", summary: "ok" },
        reviewer_expert: { verdict: "pass", summary: "ok" },
      },
      completion_notes: ["one", "two", "three", "four"],
    }),
  );
  const socket = privateSocket();
  const screen = new Screen(socket);
  try {
    await screen.start(
      [BINARY, "status", "--watch", id],
      project,
      { width: 80, height: 24 },
      { NO_COLOR: "1", AGENTMUX_TMUX_SOCKET: "amx-none-" + process.pid },
    );
    const shown = await screen.until("the frame", (x) => x.includes("more lines: agentmux status"), 15_000);
    const rows = shown.split("\n");
    expect(rows[0]).toStartWith(`Session    ${id}`);
    expect(rows.some((r) => /^Phase\s+completing/.test(r))).toBe(true);
    // the run ends: the last frame is whole (in the scrollback), not cut with "… more lines"
    writeJsonAtomic(join(project, ".agentmux/.sessions", id, "state.json"), {
      ...stateIn("done", { review_iteration: 2, completion_notes: Array.from({ length: 20 }, (_, i) => `note ${i + 1}`) }),
      feature_dir: join(project, ".agentmux/.sessions", id),
    });
    await screen.until("the watch to end", (x) => x.includes("EXIT=0"), 15_000);
    const all = await screen.tmux.run(["capture-pane", "-p", "-S", "-", "-t", "t"]);
    const last = all.slice(all.lastIndexOf(`Session    ${id}`));
    expect(last).toMatch(/^Phase\s+done/m);
    expect(last).toContain("note 20");
    expect(last).not.toContain("more lines: agentmux status");
  } finally {
    killTmuxServer(socket);
    removeDir(project);
  }
}, 30_000);
