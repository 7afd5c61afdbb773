import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { jsonEvents, readState, spawnBinary } from "../fault/harness.ts";
import { git, privateSocket } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #11.2: a second `agentmux run` in a checkout where a run is live switched the branch under
 * the first run and committed its files. A run owns its checkout: the second one works in a
 * worktree of its own and says so; each commit holds only its own run's files.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

const filesOf = (repo: string, branch: string) => git(repo, "show", "--name-only", "--format=", branch).split("\n").filter(Boolean).sort();

test("two concurrent `run --ci` in one checkout: the second works in its own worktree; two commits, each with only its files", async () => {
  const repo = simProject({ dirs });
  const socket = privateSocket();
  sockets.push(socket);
  const a = spawnBinary(scope.bin, ["run", "Add alpha", "--ci", "--json", "--keep-session"], { cwd: repo, socket });
  const sessions = join(repo, ".agentmux/.sessions");
  await waitFor(
    "run A implementing",
    () => {
      const id = readdirSync(sessions).find((n) => n.endsWith("add-alpha"));
      return id && readState(join(sessions, id))?.phase === "implementing";
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );
  const b = spawnBinary(scope.bin, ["run", "Add beta", "--ci", "--json", "--keep-session"], { cwd: repo, socket });
  const [ra, rb] = await Promise.all([a.done, b.done]);
  if (ra.code !== 0 || rb.code !== 0) console.error(ra, rb);
  expect([ra.code, rb.code]).toEqual([0, 0]);
  expect(rb.stdout).toMatch(/another run \(\S+add-alpha\) is working in this checkout; this run works in its own worktree/);
  const resultA = jsonEvents(ra.stdout).find((e) => e.kind === "result");
  const resultB = jsonEvents(rb.stdout).find((e) => e.kind === "result");
  expect(filesOf(repo, resultA.branch)).toEqual(["src/alpha.js", "test/alpha.test.js"]);
  expect(filesOf(repo, resultB.branch)).toEqual(["src/beta.js", "test/beta.test.js"]);
  // the first run kept its checkout (nothing of the second run in it) and gave it back where it was
  expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  expect(git(repo, "status", "--porcelain")).toBe("");
  expect(Bun.spawnSync(["git", "fsck", "--strict"], { cwd: repo }).exitCode).toBe(0);
}, 180_000);
