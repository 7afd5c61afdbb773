import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWorktree } from "../../src/effects/git/worktree.ts";
import { copyIntoWorktree } from "../../src/launcher/worktree-setup.ts";
import { gitCli, makeRepo } from "../git/fixture.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/**
 * #31.5: `worktree.copy` wrote outside the repository through a symlink tracked in HEAD: the
 * new worktree has `config` as that symlink, and the user's real config/app.local.json (their
 * checkout has a folder there) was copied to where it points. Same for a dangling symlink.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

test("worktree.copy never writes through a symlink in the new worktree; what it left out is named", async () => {
  const base = makeTmpDir("amx-wt-copy-");
  dirs.push(base);
  const outside = join(base, "outside");
  mkdirSync(outside);
  const repo = await makeRepo({ "README.md": "# r\n" }, base);
  symlinkSync(outside, join(repo, "config"));
  symlinkSync(join(base, "planted.env"), join(repo, ".env")); // dangling
  gitCli(repo, "add", "config", ".env");
  gitCli(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qm", "links");
  // the user's checkout has real files there (uncommitted)
  rmSync(join(repo, "config"));
  rmSync(join(repo, ".env"));
  mkdirSync(join(repo, "config"));
  writeFileSync(join(repo, "config/app.local.json"), '{"secret": 1}\n');
  writeFileSync(join(repo, ".env"), "TOKEN=secret\n");
  writeFileSync(join(repo, "local.txt"), "fine\n");
  const wt = await createWorktree(repo, { slug: "w", branch: "feature/w" });
  const r = copyIntoWorktree(repo, wt.path, ["config/*.local.json", ".env", "local.txt"]);
  expect(r.copied).toEqual(["local.txt"]);
  expect(r.refused).toEqual([".env (.env is a symlink in the worktree)", "config/app.local.json (config is a symlink in the worktree)"]);
  expect(existsSync(join(outside, "app.local.json"))).toBe(false);
  expect(existsSync(join(base, "planted.env"))).toBe(false);
  expect(readFileSync(join(wt.path, "local.txt"), "utf8")).toBe("fine\n");
});
