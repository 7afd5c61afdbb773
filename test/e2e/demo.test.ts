import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, processesMentioning, runBinary, tmuxServerRunning } from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

describe("agentmux demo --ci (compiled binary, node_modules out of reach)", () => {
  test("runs architect → planner → coder → reviewer → commit twice in a row and leaves nothing behind", async () => {
    for (const round of [1, 2]) {
      const socket = privateSocket();
      sockets.push(socket);
      const repo = join(makeTmpDir(), `repo${round}`);
      const r = await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket });
      if (r.code !== 0) console.error(r.stdout, r.stderr);
      expect(r.code).toBe(0);
      // one line per phase transition, then the session id, branch and commit
      for (const phase of ["architecting", "planning", "implementing", "reviewing", "completing", "done"]) expect(r.stdout).toContain(phase);
      const summary = r.stdout.match(/session (\S+)\s+branch (\S+)\s+commit ([0-9a-f]{7,})/);
      expect(summary).not.toBeNull();
      const [, , branch, commit] = summary!;
      expect(branch).toMatch(/^feature\/greeting-module/);
      expect(git(repo, "rev-parse", "--short", branch!)).toStartWith(commit!.slice(0, 7));
      // the pipeline's commit holds the coder's change and never agentmux's own files
      const files = git(repo, "show", "--name-only", "--format=", branch!).split("\n");
      expect(files.some((f) => f.startsWith("src/"))).toBe(true);
      expect(files.some((f) => f.startsWith(".agentmux"))).toBe(false);
      expect(git(repo, "log", "--format=%s", "-1", branch!)).not.toBe("Initial commit");
      // the checkout is back where the run found it (#11.7); the commit is on the run's branch
      expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
      expect(r.stdout).toContain(`your checkout is back on main; the commit is on ${branch}`);
      expect(Bun.spawnSync(["git", "fsck"], { cwd: repo }).exitCode).toBe(0);
      // .last_completion.json per the seeds; the session folder is cleaned up after the commit
      const last = JSON.parse(await Bun.file(join(repo, ".agentmux", ".last_completion.json")).text());
      expect(last).toEqual({ feature_name: expect.stringMatching(/^greeting-module/), commit_hash: commit, pr_url: null, branch_name: branch });
      const sessions = join(repo, ".agentmux", ".sessions");
      // only the compact archive of the finished run stays (status works after the run)
      expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([".archive"]);
      // no tmux server, no agent/MCP/orchestrator process left behind
      expect(tmuxServerRunning(socket)).toBe(false);
      expect(processesMentioning(repo)).toEqual([]);
    }
  }, 180_000);

  test("#31: with --json every stdout line is a JSON object, the demo's own first and last lines too", async () => {
    const socket = privateSocket();
    sockets.push(socket);
    const repo = join(makeTmpDir(), "repo");
    const r = await runBinary(bin, ["demo", "--ci", "--json", "--dir", repo], { socket });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    expect(JSON.parse(lines[0]!)).toEqual({ kind: "notice", message: `agentmux demo: scratch repository ${repo}` });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ kind: "notice", message: `agentmux demo: repository ${repo}` });
    expect(lines.map((l) => JSON.parse(l).kind)).toContain("result");
  }, 120_000);
});
