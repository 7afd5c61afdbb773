import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { resolveAuthor } from "../../src/effects/git/author.ts";
import { commitChanges } from "../../src/effects/git/commit.ts";
import { EmptyCommitMessage, ExcludeEscapesRepo, NoCommitAuthor, NothingToCommit } from "../../src/effects/git/errors.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { gitCli, makeRepo, writeFiles } from "./fixture.ts";

const dirs: string[] = [];
afterEach(() => {
  dirs.splice(0).forEach(removeDir);
});
async function repo(files?: Record<string, string>) {
  const base = makeTmpDir("amx-commit-");
  dirs.push(base);
  return makeRepo(files, base);
}

describe("commitChanges", () => {
  test("commits changed files minus excludes on the feature branch; the CLI sees a clean, valid repo", async () => {
    const dir = await repo({ "a.txt": "a\n", "gone.txt": "bye\n", ".gitignore": "*.log\n" });
    writeFiles(dir, { "a.txt": "A\n", "src/new.ts": "export {};\n", "debug.txt": "keep out\n", "scratch/x.txt": "x\n", "noise.log": "ignored\n" });
    writeFiles(dir, { ".agentmux/.sessions/s/state.json": "{}\n" });
    fs.rmSync(join(dir, "gone.txt"));
    const r = await commitChanges(dir, { branch: "feature/demo", message: "  feat: demo change\n\nbody line\n  ", excludeFiles: ["debug.txt", "./scratch/"] });
    expect(r.files).toEqual(["a.txt", "gone.txt", "src/new.ts"]);
    expect(r.hash).toBe(gitCli(dir, "rev-parse", "feature/demo").trim());
    expect(r.short).toBe(r.hash.slice(0, 7));
    expect(gitCli(dir, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("feature/demo");
    expect(gitCli(dir, "log", "-1", "--format=%B")).toBe("feat: demo change\n\nbody line\n\n");
    expect(gitCli(dir, "log", "-1", "--format=%an <%ae>").trim()).toBe("Test Author <test@example.com>");
    expect(gitCli(dir, "show", "--name-status", "--format=", "HEAD").trim().split("\n").sort()).toEqual(["D\tgone.txt", "M\ta.txt", "A\tsrc/new.ts"].sort());
    expect(gitCli(dir, "status", "--porcelain", "-uall")).toBe("?? .agentmux/.sessions/s/state.json\n?? debug.txt\n?? scratch/x.txt\n");
    gitCli(dir, "fsck", "--strict");
  });

  test("a hostile commit message (the user's, a reviewer's) is committed inert, lines kept (#18.14)", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    writeFiles(dir, { "a.txt": "A\n" });
    const hostile = "feat: x\x1b]52;c;ZXZpbA==\x07\x1b]0;t\x07\x1b[2J\u009b2J\u202eok\r\n\nbody\bX\tend\x1bc";
    await commitChanges(dir, { branch: "feature/x", message: hostile, excludeFiles: [] });
    expect(gitCli(dir, "log", "-1", "--format=%B")).toBe("feat: xok\n\nbodyX\tend\n\n");
  });

  test("nothing to commit: clean tree, or everything excluded; HEAD unchanged", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    const head = gitCli(dir, "rev-parse", "HEAD").trim();
    let err = await commitChanges(dir, { branch: "main", message: "x", excludeFiles: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(NothingToCommit);
    expect(err.data).toEqual({ root: dir, changed: 0, excluded: 0, preexisting: 0 });
    expect(err.message).toBe("nothing to commit: the working tree matches HEAD");
    fs.writeFileSync(join(dir, "a.txt"), "changed\n");
    err = await commitChanges(dir, { branch: "main", message: "x", excludeFiles: ["a.txt"] }).catch((e) => e);
    expect(err).toBeInstanceOf(NothingToCommit);
    expect(err.data).toEqual({ root: dir, changed: 1, excluded: 1, preexisting: 0 });
    expect(err.message).toBe("nothing to commit: all 1 changed files are excluded");
    expect(gitCli(dir, "rev-parse", "HEAD").trim()).toBe(head);
  });

  test("blank message is refused", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    fs.writeFileSync(join(dir, "a.txt"), "changed\n");
    const err = await commitChanges(dir, { branch: "main", message: "  \n ", excludeFiles: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(EmptyCommitMessage);
    expect(err.where).toBe("commit_message");
  });

  test("exclude entries escaping the repository are refused, naming the entry; nothing is committed", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    const outside = makeTmpDir("amx-outside-");
    dirs.push(outside);
    fs.symlinkSync(outside, join(dir, "out-link"));
    fs.writeFileSync(join(dir, "a.txt"), "changed\n");
    const head = gitCli(dir, "rev-parse", "HEAD").trim();
    const cases: [string, string, string][] = [
      ["../x", "outside", "points outside the repository"],
      ["a/../../x", "outside", "points outside the repository"],
      ["/etc/passwd", "absolute", "is an absolute path"],
      ["out-link", "symlink-outside", "is a symlink that points outside the repository"],
      ["out-link/file", "symlink-outside", "is a symlink that points outside the repository"],
    ];
    for (const [entry, reason, why] of cases) {
      const err = await commitChanges(dir, { branch: "main", message: "m", excludeFiles: ["ok.txt", entry] }).catch((e) => e);
      expect(err).toBeInstanceOf(ExcludeEscapesRepo);
      expect(err.data).toEqual({ entry, index: 1, reason });
      expect(err.message).toBe(`exclude entry "${entry}" ${why}`);
      expect(err.where).toBe("exclude_files[1]");
    }
    expect(gitCli(dir, "rev-parse", "HEAD").trim()).toBe(head);
  });

  test("an excluded file the user had staged is left out of the commit", async () => {
    const dir = await repo({ "a.txt": "a\n", "b.txt": "b\n" });
    writeFiles(dir, { "a.txt": "A\n", "b.txt": "B\n", "secret.env": "TOKEN=1\n" });
    gitCli(dir, "add", "b.txt", "secret.env");
    const r = await commitChanges(dir, { branch: "main", message: "m", excludeFiles: ["b.txt", "secret.env"] });
    expect(r.files).toEqual(["a.txt"]);
    expect(gitCli(dir, "show", "--name-only", "--format=", "HEAD").trim()).toBe("a.txt");
    expect(gitCli(dir, "status", "--porcelain")).toBe(" M b.txt\n?? secret.env\n");
  });

  test("commits inside a linked worktree land on the worktree's branch for the CLI", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    const wt = join(dirs[dirs.length - 1], "wt");
    gitCli(dir, "worktree", "add", "-q", "-b", "wt-branch", wt);
    fs.writeFileSync(join(wt, "a.txt"), "from worktree\n");
    const r = await commitChanges(wt, { branch: "wt-branch", message: "wt commit", excludeFiles: [] });
    expect(gitCli(dir, "rev-parse", "wt-branch").trim()).toBe(r.hash);
    expect(gitCli(wt, "status", "--porcelain")).toBe("");
    expect(gitCli(dir, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("main");
    gitCli(dir, "fsck", "--strict");
  });
});

describe("resolveAuthor", () => {
  async function bareRepo() {
    const dir = await repo({});
    gitCli(dir, "config", "--unset", "user.email");
    gitCli(dir, "config", "--unset", "user.name");
    const home = makeTmpDir("amx-home-");
    dirs.push(home);
    // the author's environment: a fresh home, no GIT_AUTHOR_* (process.env is never touched)
    const env: Record<string, string | undefined> = { HOME: home, XDG_CONFIG_HOME: join(home, "xdg") };
    return { dir, home, env };
  }

  test("no author anywhere → error naming the fix; global and XDG files and env fill in", async () => {
    const { dir, home, env } = await bareRepo();
    const err = await resolveAuthor(dir, env).catch((e) => e);
    expect(err).toBeInstanceOf(NoCommitAuthor);
    expect(err.data).toEqual({ root: dir, missing: ["user.name", "user.email"] });
    expect(err.message).toContain("user.name and user.email");
    expect(err.hint).toContain("git config --global user.name");
    fs.mkdirSync(join(home, "xdg", "git"), { recursive: true });
    fs.writeFileSync(join(home, "xdg", "git", "config"), '[user]\n\tname = "Xdg Person" ; comment\n\temail = xdg@example.com\n');
    expect(await resolveAuthor(dir, env)).toEqual({ name: "Xdg Person", email: "xdg@example.com" });
    fs.writeFileSync(join(home, ".gitconfig"), "[core]\n\tname = not-this\n[user]\n\temail = home@example.com\n");
    expect(await resolveAuthor(dir, env)).toEqual({ name: "Xdg Person", email: "home@example.com" });
    gitCli(dir, "config", "user.name", "Repo Person");
    expect(await resolveAuthor(dir, env)).toEqual({ name: "Repo Person", email: "home@example.com" });
    expect(await resolveAuthor(dir, { ...env, GIT_AUTHOR_NAME: "Env Person" })).toEqual({ name: "Env Person", email: "home@example.com" });
  });

  test("commitChanges without an author fails before changing anything", async () => {
    const { dir, env } = await bareRepo();
    fs.writeFileSync(join(dir, "a.txt"), "a\n");
    const err = await commitChanges(dir, { branch: "feature/z", message: "m", excludeFiles: [], env }).catch((e) => e);
    expect(err).toBeInstanceOf(NoCommitAuthor);
    expect(gitCli(dir, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
  });
});

describe("exclude_files patterns and entries that match nothing", () => {
  test("*.log at any depth, secrets/** under a folder, a folder glob; the rest is committed", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    writeFiles(dir, {
      "a.txt": "A\n",
      "debug.log": "x\n",
      "src/deep/trace.log": "x\n",
      "secrets/key.pem": "k\n",
      "secrets/sub/token": "t\n",
      "build-out/bundle.js": "b\n",
      "src/app.ts": "export {};\n",
      "notes.log.txt": "kept\n",
    });
    const r = await commitChanges(dir, { branch: "main", message: "m", excludeFiles: ["*.log", "secrets/**", "build-*"] });
    expect(r.files).toEqual(["a.txt", "notes.log.txt", "src/app.ts"]);
    expect(r.notes).toEqual([]);
    gitCli(dir, "fsck", "--strict");
  });

  test("an entry that matches no changed file is reported; a case-only or NFD/NFC difference still excludes, the case one said", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    const nfd = "cafe\u0301.txt"; // "café" as macOS spells it
    writeFiles(dir, { "a.txt": "A\n", "secrets.env": "TOKEN=1\n", [nfd]: "x\n" });
    const r = await commitChanges(dir, { branch: "main", message: "m", excludeFiles: ["Secrets.env", "caf\u00e9.txt", "*.tmp", "gone/"] });
    expect(r.files).toEqual(["a.txt"]);
    expect(r.notes).toEqual([
      'exclude entry "Secrets.env" matched secrets.env only when case is ignored; excluded anyway',
      'exclude entry "*.tmp" matches no changed file',
      'exclude entry "gone/" matches no changed file',
    ]);
  });

  test("patterns that would name the whole repository or are malformed are refused, naming the entry", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    fs.writeFileSync(join(dir, "a.txt"), "changed\n");
    for (const [entry, why] of [
      ["*", "names the whole repository"],
      ["**", "names the whole repository"],
      ["src/[ab", "is not a valid pattern (an unclosed [ … ])"],
    ] as const) {
      const err = await commitChanges(dir, { branch: "main", message: "m", excludeFiles: [entry] }).catch((e) => e);
      expect(err).toBeInstanceOf(ExcludeEscapesRepo);
      expect(err.message).toBe(`exclude entry "${entry}" ${why}`);
    }
  });
});
