import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { completeApproval, type CompleteApprovalInput } from "../../src/effects/git/complete.ts";
import { pushBranch } from "../../src/effects/git/push.ts";
import { NothingToCommit } from "../../src/effects/git/errors.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { writeFakeGh } from "./fake-gh.ts";
import { gitCli, makeRepo } from "./fixture.ts";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

/** A project with a local bare `origin`, a fake gh on PATH, and one uncommitted change. */
async function project() {
  const base = makeTmpDir("amx-complete-");
  const gh = writeFakeGh(base);
  cleanups.push(() => removeDir(base));
  const dir = await makeRepo({ "app.ts": "export const v = 1;\n" }, base);
  const remote = join(base, "origin.git");
  gitCli(base, "init", "-q", "--bare", remote);
  gitCli(dir, "remote", "add", "origin", remote);
  gitCli(dir, "push", "-q", "origin", "main");
  fs.writeFileSync(join(dir, "app.ts"), "export const v = 2;\n");
  fs.writeFileSync(join(dir, "debug.log.txt"), "scratch\n");
  const sessionDir = join(dir, ".agentmux", ".sessions", "20240101-120000-rate-limit");
  fs.mkdirSync(sessionDir, { recursive: true });
  return { base, dir, remote, gh, sessionDir };
}

function input(p: Awaited<ReturnType<typeof project>>, over: Partial<CompleteApprovalInput> = {}): CompleteApprovalInput {
  return {
    workDir: p.dir,
    mainRepoDir: p.dir,
    sessionDir: p.sessionDir,
    featureName: "20240101-120000-rate-limit",
    branch: "feature/rate-limit",
    approval: { action: "approve", exclude_files: ["debug.log.txt"] },
    draft: { requirements: "# Req\n\n## Initial Request\n\nAdd rate limiting to the API.\n", issueNumber: 12 },
    push: true,
    pullRequest: { enabled: true, base: "main", draft: true, title: "Rate limit", body: "Closes #12\n" },
    run: p.gh.run,
    ...over,
  };
}

const lastCompletion = (dir: string) => JSON.parse(fs.readFileSync(join(dir, ".agentmux", ".last_completion.json"), "utf8"));

describe("completeApproval", () => {
  test("commit with the drafted message, push to the bare remote, PR through gh, .last_completion.json", async () => {
    const p = await project();
    const r = await completeApproval(input(p));
    expect(r.warnings).toEqual([]);
    expect(r.prUrl).toBe("https://github.com/acme/app/pull/7");
    expect(gitCli(p.dir, "log", "-1", "--format=%s", "feature/rate-limit").trim()).toBe("feat: add rate limiting to the API (#12)");
    expect(gitCli(p.remote, "rev-parse", "feature/rate-limit").trim()).toBe(r.hash);
    expect(gitCli(p.dir, "rev-parse", "--abbrev-ref", "feature/rate-limit@{upstream}").trim()).toBe("origin/feature/rate-limit");
    expect(gitCli(p.dir, "show", "--name-only", "--format=", "HEAD").trim()).toBe("app.ts");
    expect(p.gh.calls()).toEqual([["pr", "create", "--title", "Rate limit", "--body-file", "-", "--head", "feature/rate-limit", "--base", "main", "--draft"]]);
    expect(p.gh.prBody()).toBe("Closes #12\n");
    expect(lastCompletion(p.dir)).toEqual({ feature_name: "rate-limit", commit_hash: r.short, pr_url: r.prUrl, branch_name: "feature/rate-limit" });
    expect(r.short).toBe(gitCli(p.dir, "rev-parse", "--short=7", "HEAD").trim());
  });

  test("message precedence: approval's message, then the reviewer's suggestion", async () => {
    const p = await project();
    const commit = (commit_message: string, suggested: string) =>
      completeApproval(
        input(p, {
          approval: { action: "approve", exclude_files: [], commit_message },
          draft: { suggested },
          push: false,
          pullRequest: { enabled: false, base: null, draft: false, title: "", body: "" },
        }),
      );
    await commit("  fix: user words  \n", "feat: reviewer");
    expect(gitCli(p.dir, "log", "-1", "--format=%B").trim()).toBe("fix: user words");
    fs.writeFileSync(join(p.dir, "app.ts"), "export const v = 3;\n");
    await commit("  ", "feat: reviewer words");
    expect(gitCli(p.dir, "log", "-1", "--format=%B").trim()).toBe("feat: reviewer words");
    expect(p.gh.calls()).toEqual([]); // nothing pushed, no PR
    expect(gitCli(p.remote, "branch", "--list", "feature/rate-limit").trim()).toBe("");
    expect(lastCompletion(p.dir).pr_url).toBeNull();
  });

  test("push failure: warning, no PR attempt, commit kept, .last_completion.json written", async () => {
    const p = await project();
    gitCli(p.dir, "remote", "set-url", "origin", join(p.base, "missing.git"));
    const r = await completeApproval(input(p));
    expect(r.prUrl).toBeNull();
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toStartWith("git push origin feature/rate-limit failed:");
    expect(r.warnings[0]).toContain(`commit ${r.short} is kept`);
    expect(r.warnings[1]).toBe("pull request not created: the branch could not be pushed");
    expect(gitCli(p.dir, "rev-parse", "feature/rate-limit").trim()).toBe(r.hash);
    expect(p.gh.calls()).toEqual([]);
    expect(lastCompletion(p.dir)).toMatchObject({ commit_hash: r.short, pr_url: null });
  });

  test("PR failure: warning, commit kept and pushed", async () => {
    const p = await project();
    p.gh.env.FAKE_GH_PR_FAIL = "No commits between main and feature/rate-limit";
    const r = await completeApproval(input(p));
    expect(r.prUrl).toBeNull();
    expect(r.warnings).toEqual([
      `gh pr create failed: GraphQL: No commits between main and feature/rate-limit (commit ${r.short} is kept on feature/rate-limit)`,
    ]);
    expect(gitCli(p.remote, "rev-parse", "feature/rate-limit").trim()).toBe(r.hash);
    expect(lastCompletion(p.dir).pr_url).toBeNull();
  });

  test("commit failure throws and writes no .last_completion.json", async () => {
    const p = await project();
    const err = await completeApproval(input(p, { approval: { action: "approve", exclude_files: ["app.ts", "debug.log.txt"] } })).catch((e) => e);
    expect(err).toBeInstanceOf(NothingToCommit);
    expect(err.data).toEqual({ root: p.dir, changed: 2, excluded: 2, preexisting: 0 });
    expect(fs.existsSync(join(p.dir, ".agentmux", ".last_completion.json"))).toBe(false);
    expect(p.gh.calls()).toEqual([]);
  });

  test("worktree session: commit in the worktree, record in the main repo", async () => {
    const p = await project();
    const wt = join(p.base, "repo-worktrees", "rate-limit");
    gitCli(p.dir, "worktree", "add", "-q", "-b", "feature/rate-limit", wt);
    fs.writeFileSync(join(wt, "app.ts"), "export const v = 9;\n");
    const r = await completeApproval(input(p, { workDir: wt, approval: { action: "approve", exclude_files: [] } }));
    expect(gitCli(p.remote, "rev-parse", "feature/rate-limit").trim()).toBe(r.hash);
    expect(lastCompletion(p.dir).commit_hash).toBe(r.short);
    expect(fs.existsSync(join(wt, ".agentmux", ".last_completion.json"))).toBe(false);
    gitCli(p.dir, "fsck", "--strict");
  });
});

describe("pushBranch", () => {
  test("never throws: missing remote, and non-HTTPS remote without the git CLI", async () => {
    const p = await project();
    // with the git CLI too: named plainly, not as git's "Could not read from remote repository"
    for (const useCli of [true, false])
      expect(await pushBranch(p.dir, "main", { remote: "nope", useCli })).toEqual({
        ok: false,
        error: 'there is no remote "nope" to push to (git remote add nope <url>)',
      });
    const iso = await pushBranch(p.dir, "main", { useCli: false });
    expect(iso).toEqual({ ok: false, error: `pushing to ${p.remote} needs the git CLI on PATH; without it only HTTPS remotes can be pushed` });
    gitCli(p.dir, "remote", "set-url", "origin", "http://127.0.0.1:9/acme/app.git");
    const http = await pushBranch(p.dir, "main", { useCli: false, run: p.gh.run });
    expect(http.ok).toBe(false);
    expect(p.gh.calls()).toEqual([["auth", "token"]]);
  });
});

describe("completeApproval after a restart", () => {
  test("a commit already made on the branch since baseCommit is reused, not an error", async () => {
    const p = await project();
    const base = gitCli(p.dir, "rev-parse", "HEAD").trim();
    const first = await completeApproval(
      input(p, { push: false, pullRequest: { enabled: false, base: null, draft: true, title: "t", body: "b" }, baseCommit: base }),
    );
    // the orchestrator died before recording it: the same approval runs again
    const again = await completeApproval(
      input(p, { push: false, pullRequest: { enabled: false, base: null, draft: true, title: "t", body: "b" }, baseCommit: base }),
    );
    expect(again.hash).toBe(first.hash);
    expect(again.warnings.join(" ")).toContain("reused");
    expect(gitCli(p.dir, "rev-list", "--count", `${base}..feature/rate-limit`).trim()).toBe("1");
  });

  test("a tip this session did not make (another run's commit on the branch) is not taken for its own", async () => {
    const p = await project();
    const base = gitCli(p.dir, "rev-parse", "HEAD").trim();
    const opts = { push: false, pullRequest: { enabled: false, base: null, draft: true, title: "t", body: "b" }, baseCommit: base } as const;
    // another run committed these files on the same branch; this session's record has no commit
    const otherDir = join(p.dir, ".agentmux", ".sessions", "20240101-120001-rate-limit");
    fs.mkdirSync(otherDir, { recursive: true });
    const other = await completeApproval(input(p, { ...opts, sessionDir: otherDir }));
    await expect(completeApproval(input(p, opts))).rejects.toBeInstanceOf(NothingToCommit);
    expect(gitCli(p.dir, "rev-parse", "feature/rate-limit").trim()).toBe(other.hash);
  });

  test("without a base commit, nothing to commit stays an error", async () => {
    const p = await project();
    const opts = { push: false, pullRequest: { enabled: false, base: null, draft: true, title: "t", body: "b" } };
    await completeApproval(input(p, opts));
    await expect(completeApproval(input(p, opts))).rejects.toBeInstanceOf(NothingToCommit);
  });
});
