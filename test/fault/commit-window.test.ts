import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readLog } from "../../src/session/log.ts";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { git, isolatedBinary, killTmuxServer } from "../e2e/harness.ts";
import { canMountTmpfs, fillUntil, mountTmpfs, type Tmpfs } from "../helpers/tmpfs.ts";
import { waitFor } from "../helpers/wait.ts";
import { alive, fsckProblems, jsonEvents, orchestratorPid, readState, release, spawnBinary, startDemo, waitForState } from "./harness.ts";

/**
 * The commit window: the orchestrator dies (SIGKILL) or the disk fills (ENOSPC) while it writes
 * the commit's objects. The repository must stay intact (`git fsck --strict`) and `agentmux
 * resume` must commit the right tree with blobs that read back.
 */
const BRANCH = "feature/greeting-module";
let bin: string;
const sockets: string[] = [];
const mounts: Tmpfs[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  sockets.forEach(killTmuxServer);
  mounts.forEach((m) => m.dispose());
});

const blobId = (content: Buffer) => createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
const resultOf = (stdout: string) => jsonEvents(stdout).find((e) => e.kind === "result");

/** The committed file reads back byte for byte (`git cat-file` inflates and checks it). */
function expectBlobReadsBack(repo: string, path: string, content: Buffer) {
  const r = Bun.spawnSync(["git", "cat-file", "blob", `${BRANCH}:${path}`], { cwd: repo, stdout: "pipe", stderr: "pipe" });
  expect(r.stderr.toString()).toBe("");
  expect(blobId(Buffer.from(r.stdout))).toBe(blobId(content));
}

const expectFsckClean = (repo: string) => expect(fsckProblems(repo)).toBe("");

/** The reviewers stay at work until released: the large file lands before the commit, however slow the machine. */
const REVIEWS = ["review_logic_prompt", "review_quality_prompt", "review_expert_prompt"];
const HOLD_REVIEWS = `hold=${REVIEWS.join("+")}`;

describe("the commit window (compiled binary, private tmux)", () => {
  test("SIGKILL while a large file's object is being written: fsck clean, resume commits a readable blob", async () => {
    // incompressible, so writing its object takes long enough for the kill to land mid-write:
    // against the code before the fix, 2 MB tore the object in 3 of 4 trials, 4 MB in 4 of 4, 8 MB in 9 of 9
    const big = randomBytes(8 * 1024 * 1024);
    const oid = blobId(big);
    const run = startDemo(bin, { scenario: HOLD_REVIEWS, thinkMs: 0, sockets });
    const { dir } = await waitForState(run, "the review", (s) => s.phase === "reviewing");
    writeFileSync(join(run.repo, "assets.bin"), big);
    release(dir, REVIEWS);
    const pid = orchestratorPid(dir)!;
    const objDir = join(run.repo, ".git", "objects", oid.slice(0, 2));
    // the object (or its temp file) appears while it is written: kill at once
    const seen = await waitFor(
      "the large file's object to appear",
      () => {
        if (!existsSync(objDir)) return null;
        return readdirSync(objDir).find((n) => n === oid.slice(2) || n.startsWith("tmp_obj_")) ?? null;
      },
      { timeoutMs: 90_000, intervalMs: 1 },
    );
    process.kill(pid, "SIGKILL");
    await run.done;
    await waitFor("the orchestrator to be gone", () => !alive(pid));
    expect(seen).toBeTruthy();
    expect(readState(dir).phase).toBe("completing");
    expectFsckClean(run.repo);

    const resumed = await spawnBinary(bin, ["resume", basename(dir), "--ci", "--json"], { cwd: run.repo, socket: run.socket }).done;
    if (resumed.code !== 0) console.error(resumed.stdout, resumed.stderr);
    expect(resumed.code).toBe(0);
    expect(resultOf(resumed.stdout)?.outcome).toBe("success");
    expectFsckClean(run.repo);
    expectBlobReadsBack(run.repo, "assets.bin", big);
    // no temp file of the killed writer is left behind
    expect(readdirSync(objDir).filter((n) => n.startsWith("tmp_obj_"))).toEqual([]);
  }, 240_000);

  const tmpfsTest = canMountTmpfs() ? test : test.skip;
  tmpfsTest(
    "ENOSPC during the commit (a full tmpfs): no torn object, the branch is not moved; after space is freed resume commits the right tree",
    async () => {
      const fsys = mountTmpfs(96 * 1024 * 1024)!;
      mounts.push(fsys);
      const big = randomBytes(12 * 1024 * 1024);
      const run = startDemo(bin, { scenario: HOLD_REVIEWS, thinkMs: 0, sockets, dir: join(fsys.dir, "repo") });
      const { dir } = await waitForState(run, "the review", (s) => s.phase === "reviewing");
      writeFileSync(join(run.repo, "assets.bin"), big);
      // room for the session's own small files, not for the large object
      const filler = fillUntil(fsys.dir, 2 * 1024 * 1024);
      release(dir, REVIEWS);
      const failed = await run.done;
      expect(failed.code).toBe(1);
      expect(readLog(dir).find((r) => r.event === "commit_failed")).toMatchObject({ level: "error", error: expect.stringContaining("ENOSPC") });
      // no empty or torn object was left, and no branch points at a missing object
      expectFsckClean(run.repo);
      expect(git(run.repo, "rev-parse", BRANCH)).toBe(git(run.repo, "rev-parse", "main"));

      rmSync(filler);
      const resumed = await spawnBinary(bin, ["resume", basename(dir), "--ci", "--json"], { cwd: run.repo, socket: run.socket }).done;
      if (resumed.code !== 0) console.error(resumed.stdout, resumed.stderr);
      expect(resumed.code).toBe(0);
      expectFsckClean(run.repo);
      expectBlobReadsBack(run.repo, "assets.bin", big);
      expect(git(run.repo, "ls-tree", "-r", "--name-only", BRANCH).split("\n")).toEqual(expect.arrayContaining(["assets.bin", "src/index.js"]));
      expect(git(run.repo, "status", "--porcelain", "--untracked-files=no")).toBe("");
      git(run.repo, "checkout", "-q", "main");
      git(run.repo, "checkout", "-q", BRANCH);
      expectFsckClean(run.repo);
    },
    240_000,
  );
});
