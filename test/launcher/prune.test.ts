import { afterEach, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { createWorktree } from "../../src/effects/git/worktree.ts";
import { pruneOrphanWorktrees, sessionWorktrees } from "../../src/launcher/prune.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { gitCli, makeRepo } from "../git/fixture.ts";
import { minimalState } from "../helpers/minimal-state.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** A session folder in `checkout` whose state names `worktree`. */
function session(checkout: string, id: string, worktree: string): void {
  const dir = join(checkout, ".agentmux", ".sessions", id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(join(dir, "state.json"), JSON.stringify({ ...minimalState(dir, `agentmux-${id}`), worktree_path: worktree }));
}

test("the keep-list holds the worktrees of every checkout's sessions; the folder the user stands in is never removed", async () => {
  const base = makeTmpDir("amx-prune-");
  dirs.push(base);
  const repo = await makeRepo({ "a.txt": "a\n" }, base);
  const ofMain = (await createWorktree(repo, { slug: "of-main", branch: "feature/of-main" })).path;
  const ofLinked = (await createWorktree(repo, { slug: "of-linked", branch: "feature/of-linked" })).path;
  const standing = (await createWorktree(repo, { slug: "standing", branch: "feature/standing" })).path;
  const orphan = (await createWorktree(repo, { slug: "orphan", branch: "feature/orphan" })).path;
  const linked = join(base, "linked");
  gitCli(repo, "worktree", "add", "-q", linked, "-b", "mywork");
  session(repo, "s-main", ofMain);
  session(linked, "s-linked", ofLinked);
  expect((await sessionWorktrees(linked)).sort()).toEqual([ofLinked, ofMain].sort());

  const said: string[] = [];
  await pruneOrphanWorktrees(linked, (l) => said.push(l), join(standing, "sub"));
  expect(said).toEqual([`agentmux: removed the orphaned worktree ${orphan}`, `agentmux: kept the orphaned worktree ${standing}: you are in it`]);
  for (const p of [ofMain, ofLinked, standing, linked]) expect(fs.existsSync(p)).toBe(true);
  expect(fs.existsSync(orphan)).toBe(false);
  gitCli(repo, "fsck", "--strict");
});
