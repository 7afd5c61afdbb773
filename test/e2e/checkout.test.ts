import { expect, test } from "bun:test";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { alive, fsckProblems, jsonEvents, orchestratorPid, readState, spawnBinary } from "../fault/harness.ts";
import { git, privateSocket } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #11.7 and #18.17 through the compiled binary: a run commits only its own changes, starts its
 * branch from the base branch on a name nobody uses, and gives the checkout back as it found it.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

const t = (repo: string, ...args: string[]) => git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args);
const filesOf = (repo: string, ref: string) => git(repo, "show", "--name-only", "--format=", ref).split("\n").filter(Boolean).sort();
const resultOf = (stdout: string) => jsonEvents(stdout).find((e) => e.kind === "result");

function run(repo: string, request: string, extra: string[] = []) {
  const socket = privateSocket();
  sockets.push(socket);
  return { socket, ...spawnBinary(scope.bin, ["run", request, "--ci", "--json", "--keep-session", ...extra], { cwd: repo, socket }) };
}

test("two unrelated uncommitted files are not in the run's commit and are still there, unchanged, afterwards", async () => {
  const repo = simProject({ dirs }, 0);
  writeFileSync(join(repo, "NOTES.md"), "# notes\n");
  t(repo, "add", "NOTES.md");
  t(repo, "commit", "-q", "-m", "notes");
  writeFileSync(join(repo, "NOTES.md"), "# notes\n\nhalf-written thought\n");
  writeFileSync(join(repo, "scratch.txt"), "my scratch\n");
  const r = await run(repo, "Add alpha").done;
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    `{"kind":"notice","message":"2 uncommitted file(s) were already here (NOTES.md, scratch.txt): they stay in your working tree and are left out of this run's commit unless the run changes them`,
  );
  const result = resultOf(r.stdout);
  expect(filesOf(repo, result.branch)).toEqual(["src/alpha.js", "test/alpha.test.js"]);
  expect(result.notes.join("\n")).toContain("left out of the commit: 2 file(s) that were uncommitted before the run");
  // the user's files are exactly as they were, still uncommitted, on the branch the run started from
  expect(readFileSync(join(repo, "NOTES.md"), "utf8")).toBe("# notes\n\nhalf-written thought\n");
  expect(readFileSync(join(repo, "scratch.txt"), "utf8")).toBe("my scratch\n");
  expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
  expect(git(repo, "status", "--porcelain", "--", "NOTES.md", "scratch.txt", "src", "test")).toBe("M NOTES.md\n?? scratch.txt");
  expect(fsckProblems(repo)).toBe("");
}, 180_000);

test("a run started on feature/x branches from main and the checkout is back on feature/x afterwards", async () => {
  const repo = simProject({ dirs }, 0);
  const main = git(repo, "rev-parse", "main");
  t(repo, "switch", "-q", "-c", "feature/x");
  writeFileSync(join(repo, "x.txt"), "work in progress on x\n");
  t(repo, "add", "x.txt");
  t(repo, "commit", "-q", "-m", "x");
  const r = await run(repo, "Add alpha").done;
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const result = resultOf(r.stdout);
  expect(r.stdout).toContain(
    `{"kind":"notice","message":"${result.branch} starts from main, not from feature/x; your checkout goes back to feature/x after the commit`,
  );
  expect(git(repo, "rev-parse", `${result.branch}~1`)).toBe(main);
  expect(filesOf(repo, result.branch)).toEqual(["src/alpha.js", "test/alpha.test.js"]);
  expect(git(repo, "ls-tree", "--name-only", result.branch)).not.toContain("x.txt");
  expect(git(repo, "rev-parse", "--abbrev-ref", "HEAD")).toBe("feature/x");
  expect(readFileSync(join(repo, "x.txt"), "utf8")).toBe("work in progress on x\n");
  expect(git(repo, "status", "--porcelain")).toBe("");
  expect(result.notes).toContain(`your checkout is back on feature/x; the commit is on ${result.branch}`);
  expect(fsckProblems(repo)).toBe("");
}, 180_000);

test("a branch with the run's name holding someone's commits is left alone: the run uses -2, and its resume keeps -2", async () => {
  const repo = simProject({ dirs }, 250);
  t(repo, "switch", "-q", "-c", "feature/add-alpha");
  writeFileSync(join(repo, "theirs.txt"), "someone else's work\n");
  t(repo, "add", "theirs.txt");
  t(repo, "commit", "-q", "-m", "theirs");
  const theirs = git(repo, "rev-parse", "HEAD");
  t(repo, "switch", "-q", "main");
  const first = run(repo, "Add alpha");
  const sessions = join(repo, ".agentmux/.sessions");
  const dir = await waitFor(
    "the run implementing",
    () => {
      const id = readdirSync(sessions)[0];
      return id && readState(join(sessions, id))?.phase === "implementing" ? join(sessions, id) : null;
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );
  const pid = orchestratorPid(dir)!;
  process.kill(pid, "SIGKILL");
  const killed = await first.done;
  await waitFor("the orchestrator to be gone", () => !alive(pid));
  expect(killed.stdout).toContain(`{"kind":"notice","message":"a branch feature/add-alpha exists already; this run uses feature/add-alpha-2`);
  expect(readState(dir).feature_branch).toBe("feature/add-alpha-2");
  const resumed = await spawnBinary(scope.bin, ["resume", basename(dir), "--ci", "--json"], { cwd: repo, socket: first.socket }).done;
  if (resumed.code !== 0) console.error(resumed.stdout, resumed.stderr);
  expect(resumed.code).toBe(0);
  expect(resultOf(resumed.stdout).branch).toBe("feature/add-alpha-2");
  expect(git(repo, "rev-parse", "feature/add-alpha")).toBe(theirs);
  expect(filesOf(repo, "feature/add-alpha-2")).toEqual(["src/alpha.js", "test/alpha.test.js"]);
  expect(git(repo, "branch", "--list", "feature/add-alpha-3")).toBe("");
  expect(fsckProblems(repo)).toBe("");
}, 180_000);
