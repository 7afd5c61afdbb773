import { afterEach, describe, expect, test } from "bun:test";
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { WriteFailed, writeFailed } from "../../../src/effects/fs/io-error.ts";
import { writeFileAtomic } from "../../../src/effects/fs/atomic.ts";
import { CappedLog } from "../../../src/effects/process/capped-log.ts";
import { runBounded } from "../../../src/effects/process/bounded.ts";
import { createWorktree } from "../../../src/effects/git/worktree.ts";
import { SESSION_FILES } from "../../../src/protocol/files.ts";
import { writeSessionFile } from "../../../src/session/file-io.ts";
import { writeState } from "../../../src/session/write.ts";
import { canMountTmpfs, fillUntil, mountTmpfs, type Tmpfs } from "../../helpers/tmpfs.ts";
import { minimalState } from "../../helpers/minimal-state.ts";

/**
 * #31: a full disk (ENOSPC) or a read-only one (EROFS) is named on every write path, not only the
 * commit's: session files (state.json and its mirror, the approval panel's decision files),
 * output logs of checks and setup steps, worktree creation. On a real tmpfs, filled up or
 * remounted read-only; each failure says the code, the file and what to do, and leaves nothing
 * half-written.
 */
const mounts: Tmpfs[] = [];
afterEach(() => mounts.splice(0).forEach((m) => m.dispose()));

function disk(kind: "full" | "read-only") {
  const t = mountTmpfs(4 * 1024 * 1024)!;
  mounts.push(t);
  const repo = join(t.dir, "repo");
  mkdirSync(repo);
  execSync("git init -q -b main && git -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m init", { cwd: repo });
  const session = join(repo, ".agentmux", ".sessions", "s1");
  mkdirSync(join(session, "08_completion"), { recursive: true });
  if (kind === "read-only") execSync(`mount -o remount,ro '${t.dir}'`);
  else fillUntil(t.dir, 0);
  return { root: t.dir, repo, session, code: kind === "full" ? "ENOSPC" : "EROFS" };
}

const caught = (f: () => unknown): any => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("it did not fail");
};

test("writeFailed names the code a wrapper dropped, passes named errors and ENOENT through", () => {
  const inner = Object.assign(new Error("write failed"), { code: "ENOSPC" });
  const named = writeFailed("state.json", "/s/state.json", inner) as InstanceType<typeof WriteFailed>;
  expect(named).toBeInstanceOf(WriteFailed);
  expect(named.message).toBe("could not write state.json: write failed (ENOSPC)");
  expect(named.where).toBe("/s/state.json");
  expect(named.hint).toContain("free some space");
  const gone = Object.assign(new Error("ENOENT: no such file or directory"), { code: "ENOENT" });
  expect(writeFailed("state.json", "/s/state.json", gone)).toBe(gone);
  expect(writeFailed("x", "/x", named)).toBe(named);
});

describe.skipIf(!canMountTmpfs())("on a real disk that is full or read-only", () => {
  for (const kind of ["full", "read-only"] as const) {
    test(`${kind}: state.json and the panel's decision files fail named (code, file, what to do); nothing half-written is left`, () => {
      const d = disk(kind);
      const state = caught(() => writeState(d.session, minimalState(d.session, "agentmux-s1") as never));
      expect(state).toBeInstanceOf(WriteFailed);
      expect(state.message).toStartWith("could not write state.json: ");
      expect(state.message).toContain(d.code);
      expect(state.where).toBe(join(d.session, "state.json"));
      expect(state.hint).toContain(kind === "full" ? "free some space" : "read-only");
      const approval = caught(() =>
        writeSessionFile(d.session, SESSION_FILES.approval, { action: "approve", commit_message: "m", exclude_files: [] } as never),
      );
      expect(approval.message).toStartWith("could not write 08_completion/approval.json: ");
      expect(approval.message).toContain(d.code);
      const changes = caught(() => writeSessionFile(d.session, SESSION_FILES.changes, "# Changes\n\nmore tests\n" as never));
      expect(changes.message).toContain(d.code);
      expect(readdirSync(d.session, { recursive: true }).filter((f) => String(f).endsWith(".tmp"))).toEqual([]);
      // the lowest layer reports the first failure, not the failed cleanup after it
      expect(caught(() => writeFileAtomic(join(d.session, "x.json"), "{}")).code).toBe(d.code);
    });

    test(`${kind}: a check's or setup step's output log never stops it; the result says why the log is incomplete, named`, async () => {
      const d = disk(kind);
      const log = new CappedLog(join(d.session, ".runtime", "checks", "test.log"));
      log.write(Buffer.from("a line of output\n".repeat(1000)));
      const closed = log.close(2);
      expect(closed.tail).toEqual(["a line of output", "a line of output"]);
      expect(closed.problem).toContain("could not write the output log: ");
      expect(closed.problem).toContain(d.code);
      const r = await runBounded({
        argv: ["sh", "-c", "echo ok; exit 3"],
        cwd: d.repo,
        timeoutMs: 20_000,
        logPath: join(d.session, "setup", "1.log"),
        leftovers: "kill",
      });
      expect(r).toMatchObject({ exitCode: 3, tail: ["ok"] });
      expect(r.logProblem).toContain(d.code);
    });

    test(`${kind}: creating a worktree fails naming the code, with what to do`, async () => {
      const d = disk(kind);
      let err: any;
      await createWorktree(d.repo, { slug: "w1", branch: "feat/w1" }).catch((e) => (err = e));
      expect(err?.message).toContain(`creating the worktree ${join(d.root, "repo-worktrees", "w1")} failed: `);
      expect(err.message).toContain(d.code);
      expect(err.hint).toContain(kind === "full" ? "free some space" : "read-only");
      expect(existsSync(join(d.root, "repo-worktrees", "w1"))).toBe(false);
    });
  }
});
