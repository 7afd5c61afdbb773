import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic, writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { stateIn, writeSession } from "./fixtures.ts";
import { isolatedBinary, Screen } from "./tmux-screen.ts";

setDefaultTimeout(30_000);

let bin = "";
let socket = "";
let dirs: string[] = [];
const tmp = (p: string) => {
  const d = makeTmpDir(p);
  dirs.push(d);
  return d;
};

beforeAll(() => {
  bin = isolatedBinary();
});
afterEach(() => {
  killTmuxServer(socket);
  for (const d of dirs) removeDir(d);
  dirs = [];
});

function git(cwd: string, ...args: string[]) {
  const p = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${p.stderr}`);
}

describe("blessed screens in the compiled binary", () => {
  test("monitor renders a session and redraws after state.json changes; c → y writes cancel_request", async () => {
    socket = privateSocket();
    const project = tmp("amx-mon-");
    const state = stateIn("architecting", {
      agents: { architect: { role: "architect", label: "architect", status: "working", provider: "claude", model: "opus", since: "x" } },
    });
    const dir = writeSession(project, "s1", state, { created: ["2025-03-01 10:01:00  requirements.md"] });
    const scr = new Screen(socket);
    await scr.start([bin, "monitor", dir], project, { width: 40, height: 30 });
    const first = await scr.until("monitor first frame", (s) => s.includes("▶ architecting"));
    expect(first).toContain("● architect [ WORKING ]");
    expect(first).toContain("+ requirements.md");
    expect(first).toContain("─ PIPELINE");
    writeJsonAtomic(join(dir, "state.json"), {
      ...stateIn("planning", { agents: { planner: { role: "planner", label: "planner", status: "stuck", provider: "codex", since: "x" } } }),
      feature_dir: dir,
    });
    const next = await scr.until("redraw after state.json change", (s) => s.includes("▶ planning"));
    expect(next).toContain("✓ architecting");
    expect(next).toContain("planner [ STUCK ]");
    await scr.keys("c");
    await scr.until("cancel question", (s) => s.includes("Cancel this run? y/N"));
    await scr.keys("y");
    const req = await waitFor(
      "cancel_request",
      () => existsSync(join(dir, ".runtime/cancel_request")) && JSON.parse(readFileSync(join(dir, ".runtime/cancel_request"), "utf8")),
    );
    expect(req.by).toBe("monitor");
    expect(Number.isNaN(Date.parse(req.at))).toBe(false);
    removeDir(dir);
    await scr.until("monitor exits when the session folder goes", (s) => s.includes("EXIT=0"));
  });

  test("home screen lists the project's sessions", async () => {
    socket = privateSocket();
    const project = tmp("amx-home-");
    writeSession(project, "20250301-100000-alpha", stateIn("failed", { updated_at: "2025-03-01T10:00:00.000Z" }));
    writeSession(project, "20250302-100000-beta", stateIn("reviewing", { updated_at: "2025-03-02T10:00:00.000Z" }));
    const scr = new Screen(socket);
    await scr.start([bin], project, { width: 120, height: 20 }, { AGENTMUX_TMUX_SOCKET: socket });
    const s = await scr.until("home lists sessions", (x) => x.includes("20250301-100000-alpha"));
    const lines = s.split("\n");
    const beta = lines.findIndex((l) => l.includes("20250302-100000-beta"));
    const alpha = lines.findIndex((l) => l.includes("20250301-100000-alpha"));
    expect(beta).toBeGreaterThan(-1);
    expect(beta).toBeLessThan(alpha);
    expect(lines[beta]).toMatch(/reviewing\s+code done.*○ stopped/);
    expect(lines[alpha]).toMatch(/failed\s+run failed/);
    expect(s).toContain("n new run");
    await scr.keys("q");
    await scr.until("home quits", (x) => x.includes("EXIT=0"));
  });

  async function completingSession() {
    const repo = tmp("amx-panel-");
    writeFileSync(join(repo, "a.txt"), "a\n");
    writeFileSync(join(repo, "b.txt"), "b\n");
    git(repo, "init", "-q");
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "init");
    writeFileSync(join(repo, "a.txt"), "a\nmore\n");
    writeFileSync(join(repo, "c.txt"), "new\n");
    const dir = writeSession(
      repo,
      "s1",
      stateIn("completing", {
        project_dir: repo,
        review_results: { reviewer_logic: { verdict: "pass", summary: "ok", commit_message: "feat: add rate limiting" } },
      }),
    );
    writeFileAtomic(join(dir, "08_completion/summary.md"), "# What changed\n\nAdded **rate limiting**.\n\n- token bucket\n");
    return { repo, dir };
  }

  test("panel: approve with one file excluded and an edited message → exact approval.json", async () => {
    socket = privateSocket();
    const { repo, dir } = await completingSession();
    const scr = new Screen(socket);
    await scr.start([bin, "panel", dir], repo, { width: 120, height: 30 });
    const s = await scr.until("panel", (x) => x.includes("[x] A c.txt") && x.includes("feat: add rate limiting"));
    expect(s).toContain("What changed");
    expect(s).toContain("• token bucket");
    expect(s).toContain("[x] M a.txt");
    await scr.keys("Enter");
    await scr.until("diff of a.txt", (x) => x.includes("+more"));
    await scr.keys("Escape");
    await scr.until("diff closed", (x) => !x.includes("+more"));
    await scr.keys("Down", "Space");
    await scr.until("c.txt excluded", (x) => x.includes("[ ] A c.txt") && x.includes("1/2 files"));
    await scr.keys("e");
    await scr.until("message editor", (x) => x.includes("Ctrl-S submits"));
    await scr.type(" per client");
    await scr.keys("Enter");
    await scr.type("Token bucket, 10 req/s.");
    await scr.keys("C-s");
    await scr.until("edited message", (x) => x.includes("feat: add rate limiting per client") && !x.includes("Ctrl-S submits"));
    await scr.keys("a");
    await scr.until("confirmation and exit", (x) => x.includes("Approved") && x.includes("EXIT=0"));
    expect(readFileSync(join(dir, "08_completion/approval.json"), "utf8")).toBe(
      JSON.stringify({ action: "approve", exclude_files: ["c.txt"], commit_message: "feat: add rate limiting per client\nToken bucket, 10 req/s." }, null, 2) +
        "\n",
    );
    expect(existsSync(join(dir, "08_completion/changes.md"))).toBe(false);
  });

  test("panel: request changes with two lines → exact changes.md; quitting writes nothing", async () => {
    socket = privateSocket();
    const { repo, dir } = await completingSession();
    const scr = new Screen(socket);
    await scr.start([bin, "panel", dir], repo, { width: 120, height: 30 });
    await scr.until("panel", (x) => x.includes("[x] A c.txt"));
    await scr.keys("r");
    await scr.until("changes editor", (x) => x.includes("What should change?"));
    await scr.keys("Escape");
    await scr.until("back to the panel", (x) => !x.includes("What should change?"));
    await scr.keys("r");
    await scr.until("changes editor again", (x) => x.includes("What should change?"));
    await scr.type("Use a sliding window.");
    await scr.keys("Enter");
    await scr.type("Add a test for bursts.");
    await scr.keys("C-s");
    await scr.until("confirmation and exit", (x) => x.includes("Changes requested") && x.includes("EXIT=0"));
    expect(readFileSync(join(dir, "08_completion/changes.md"), "utf8")).toBe("Use a sliding window.\nAdd a test for bursts.\n");
    expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(false);

    killTmuxServer(socket);
    const again = new Screen(socket);
    const { repo: repo2, dir: dir2 } = await completingSession();
    await again.start([bin, "panel", dir2], repo2, { width: 120, height: 30 });
    await again.until("panel", (x) => x.includes("[x] A c.txt"));
    await again.keys("q");
    await again.until("quit question", (x) => x.includes("Quit without approving"));
    await again.keys("y");
    await again.until("exit without decision", (x) => x.includes("EXIT=130"));
    expect(existsSync(join(dir2, "08_completion/approval.json"))).toBe(false);
    expect(existsSync(join(dir2, "08_completion/changes.md"))).toBe(false);
  });
});
