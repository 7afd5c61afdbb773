import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { jsonEvents, readState, spawnBinary } from "../fault/harness.ts";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket } from "./harness.ts";

/**
 * #11.2: a second `agentmux run` in a checkout where a run is live switched the branch under
 * the first run and committed its files. A run owns its checkout: the second one works in a
 * worktree of its own and says so; each commit holds only its own run's files.
 */
let bin: string;
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

/** A committed project whose config runs the simulated agents headless. */
export function simProject(track: { dirs: string[] }, thinkMs = 300): string {
  const root = makeTmpDir("amx-two-");
  track.dirs.push(root);
  const repo = join(root, "proj");
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "src/index.js"), "export const main = () => 1;\n");
  writeFileSync(join(repo, ".gitignore"), ".agentmux/.sessions/\n.agentmux/.last_completion.json\n");
  mkdirSync(join(repo, ".agentmux"));
  writeFileSync(join(repo, ".agentmux/config.yaml"), stringify({
    version: 2,
    defaults: { provider: "sim", completion: { skip_final_approval: true } },
    github: { pull_request: false, push: false },
    sim: { think_ms: thinkMs, scenario: [] },
  }));
  git(repo, "init", "-q", "-b", "main");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "add", ".");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "-m", "init");
  return repo;
}

const filesOf = (repo: string, branch: string) => git(repo, "show", "--name-only", "--format=", branch).split("\n").filter(Boolean).sort();

test("two concurrent `run --ci` in one checkout: the second works in its own worktree; two commits, each with only its files", async () => {
  const repo = simProject({ dirs });
  const socket = privateSocket();
  sockets.push(socket);
  const a = spawnBinary(bin, ["run", "Add alpha", "--ci", "--json", "--keep-session"], { cwd: repo, socket });
  const sessions = join(repo, ".agentmux/.sessions");
  await waitFor("run A implementing", () => {
    const id = readdirSync(sessions).find((n) => n.endsWith("add-alpha"));
    return id && readState(join(sessions, id))?.phase === "implementing";
  }, { timeoutMs: 60_000, intervalMs: 20 });
  const b = spawnBinary(bin, ["run", "Add beta", "--ci", "--json", "--keep-session"], { cwd: repo, socket });
  const [ra, rb] = await Promise.all([a.done, b.done]);
  if (ra.code !== 0 || rb.code !== 0) console.error(ra, rb);
  expect([ra.code, rb.code]).toEqual([0, 0]);
  expect(rb.stdout).toMatch(/another run \(\S+add-alpha\) is working in this checkout; this run works in its own worktree/);
  const resultA = jsonEvents(ra.stdout).find((e) => e.kind === "result");
  const resultB = jsonEvents(rb.stdout).find((e) => e.kind === "result");
  expect(filesOf(repo, resultA.branch)).toEqual(["src/alpha.js", "test/alpha.test.js"]);
  expect(filesOf(repo, resultB.branch)).toEqual(["src/beta.js", "test/beta.test.js"]);
  // the first run kept its checkout: still on its own branch, nothing of the second run in it
  expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe(resultA.branch);
  expect(git(repo, "status", "--porcelain")).toBe("");
  expect(Bun.spawnSync(["git", "fsck", "--strict"], { cwd: repo }).exitCode).toBe(0);
}, 180_000);
