import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { ensureFeatureBranch } from "../../src/effects/git/branch.ts";
import { currentBranch, findRepoRoot, headCommit } from "../../src/effects/git/repo.ts";
import { InvalidBranchName, NoCommitsYet, NotAGitRepo, UncommittedChangesInTheWay } from "../../src/effects/git/errors.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { gitCli, makeRepo } from "./fixture.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
async function repo(files?: Record<string, string>) {
  const base = makeTmpDir("amx-branch-");
  dirs.push(base);
  return makeRepo(files, base);
}

describe("repo", () => {
  test("findRepoRoot walks up; outside a repository it names the dir and the fix", async () => {
    const dir = await repo();
    fs.mkdirSync(join(dir, "a", "b"), { recursive: true });
    expect(await findRepoRoot(join(dir, "a", "b"))).toBe(dir);
    const outside = makeTmpDir("amx-norepo-");
    dirs.push(outside);
    const err = await findRepoRoot(outside).catch((e) => e);
    expect(err).toBeInstanceOf(NotAGitRepo);
    expect(err.data).toEqual({ start: outside });
    expect(err.message).toBe("not inside a git repository");
    expect(err.where).toBe(outside);
    expect(err.hint).toContain("git init");
  });

  test("headCommit and currentBranch agree with the CLI; empty repo → null head", async () => {
    const dir = await repo();
    expect(await headCommit(dir)).toBe(gitCli(dir, "rev-parse", "HEAD").trim());
    expect(await currentBranch(dir)).toBe("main");
    const empty = await repo({});
    expect(await headCommit(empty)).toBeNull();
  });
});

describe("ensureFeatureBranch", () => {
  test("creates the branch at HEAD without touching uncommitted work", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    fs.writeFileSync(join(dir, "a.txt"), "work in progress\n");
    fs.writeFileSync(join(dir, "new.txt"), "untracked\n");
    const head = gitCli(dir, "rev-parse", "HEAD").trim();
    const r = await ensureFeatureBranch(dir, "feature/x");
    expect(r).toEqual({ branch: "feature/x", created: true, baseCommit: head });
    expect(gitCli(dir, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("feature/x");
    expect(gitCli(dir, "rev-parse", "feature/x").trim()).toBe(head);
    expect(fs.readFileSync(join(dir, "a.txt"), "utf8")).toBe("work in progress\n");
    expect(gitCli(dir, "status", "--porcelain")).toBe(" M a.txt\n?? new.txt\n");
    // second call: already on it
    expect(await ensureFeatureBranch(dir, "feature/x")).toEqual({ branch: "feature/x", created: false, baseCommit: head });
  });

  test("checks out an existing branch; refuses when changes would be overwritten", async () => {
    const dir = await repo({ "a.txt": "a\n", "b.txt": "b\n" });
    gitCli(dir, "checkout", "-q", "-b", "other");
    fs.writeFileSync(join(dir, "a.txt"), "changed on other\n");
    gitCli(dir, "commit", "-q", "-am", "other change");
    const otherHead = gitCli(dir, "rev-parse", "HEAD").trim();
    gitCli(dir, "checkout", "-q", "main");
    // a change to a file both branches agree on is carried over
    fs.writeFileSync(join(dir, "b.txt"), "local edit\n");
    expect(await ensureFeatureBranch(dir, "other")).toEqual({ branch: "other", created: false, baseCommit: otherHead });
    expect(gitCli(dir, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("other");
    expect(fs.readFileSync(join(dir, "a.txt"), "utf8")).toBe("changed on other\n");
    expect(fs.readFileSync(join(dir, "b.txt"), "utf8")).toBe("local edit\n");
    gitCli(dir, "checkout", "-q", "main");
    // a local edit to a file that differs between the branches blocks the switch
    fs.writeFileSync(join(dir, "a.txt"), "would be lost\n");
    const err = await ensureFeatureBranch(dir, "other").catch((e) => e);
    expect(err).toBeInstanceOf(UncommittedChangesInTheWay);
    expect(err.data).toEqual({ branch: "other", files: ["a.txt"], root: dir });
    expect(err.message).toContain("uncommitted changes to a.txt would be overwritten");
    expect(gitCli(dir, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("main");
    expect(fs.readFileSync(join(dir, "a.txt"), "utf8")).toBe("would be lost\n");
  });

  test("empty repository: refused by default, unborn branch with allowEmpty", async () => {
    const dir = await repo({});
    const err = await ensureFeatureBranch(dir, "feature/y").catch((e) => e);
    expect(err).toBeInstanceOf(NoCommitsYet);
    expect(err.data).toEqual({ root: dir, branch: "feature/y" });
    expect(err.hint).toContain("git commit");
    expect(await ensureFeatureBranch(dir, "feature/y", { allowEmpty: true })).toEqual({ branch: "feature/y", created: true, baseCommit: null });
    expect(gitCli(dir, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/feature/y");
  });

  test("invalid branch names are refused before anything changes", async () => {
    const dir = await repo();
    for (const bad of ["a..b", "-x", "with space", "x.lock", "a/", "q?"]) {
      const err = await ensureFeatureBranch(dir, bad).catch((e) => e);
      expect(err).toBeInstanceOf(InvalidBranchName);
      expect(err.data).toEqual({ branch: bad });
    }
    expect(gitCli(dir, "branch", "--format=%(refname:short)").trim()).toBe("main");
  });
});
