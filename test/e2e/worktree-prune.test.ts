import { expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { waitFor } from "../helpers/wait.ts";
import { alive, fsckProblems, orchestratorPid, readState, spawnBinary } from "../fault/harness.ts";
import { git, privateSocket } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #17.1: a `--worktree` run started from a linked worktree pruned the main checkout's live
 * worktrees (its keep-list held only the linked worktree's sessions).
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

test("a --worktree run from a linked worktree leaves the main checkout's live worktree alone", async () => {
  const repo = simProject({ dirs }, 0, ["stall=architect"]);
  const socket = privateSocket();
  sockets.push(socket);
  const live = spawnBinary(scope.bin, ["run", "Add alpha", "--worktree", "--ci", "--name", "live-wt"], { cwd: repo, socket });
  const dir = join(repo, ".agentmux/.sessions/live-wt");
  const { worktree_path: livePath } = await waitFor(
    "the live run's worktree",
    () => {
      const s = existsSync(join(dir, "state.json")) ? readState(dir) : null;
      return s?.worktree_path && existsSync(s.worktree_path) && s.phase === "architecting" && orchestratorPid(dir) ? s : null;
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );
  const pid = orchestratorPid(dir)!;

  const linked = join(repo, "..", "proj-linked");
  git(repo, "worktree", "add", "-q", linked, "-b", "mywork");
  const extra = join(repo, "..", "no-stall.yaml");
  writeFileSync(extra, stringify({ sim: { scenario: [] } }));
  const other = await spawnBinary(scope.bin, ["run", "Add beta", "--worktree", "--ci", "--config", extra], { cwd: linked, socket }).done;
  if (other.code !== 0) console.error(other.stdout, other.stderr);
  expect(other.code).toBe(0);
  expect(other.stdout).not.toContain("removed the orphaned worktree");
  expect(existsSync(livePath)).toBe(true);
  expect(git(repo, "worktree", "list")).toContain(livePath);
  expect(alive(pid)).toBe(true);
  expect(readState(dir).phase).toBe("architecting");

  writeFileSync(join(dir, ".runtime/cancel_request"), JSON.stringify({ at: new Date().toISOString(), by: "test" }));
  expect((await live.done).code).toBe(130);
  expect(existsSync(livePath)).toBe(true); // a canceled run is resumable: its worktree stays
  expect(fsckProblems(repo)).toBe("");
  expect(readdirSync(join(repo, ".agentmux/.sessions"))).toContain("live-wt");
}, 180_000);
