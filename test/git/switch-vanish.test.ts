import { afterEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { returnToStart } from "../../src/effects/git/run-branch.ts";
import { gitCli, makeRepo } from "./fixture.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/**
 * #31.3: a concurrent run's atomic-write temp file vanishing while the checkout switched back
 * to its base branch failed the switch (ENOENT, lstat '.agentmux/.sessions/…/.tmp-…'): the
 * switch walked the whole working tree, ignored folders too. It touches only what differs.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

test("16 switches between two branches while files come and go in ignored and untracked folders: none fails", async () => {
  const base = makeTmpDir("amx-vanish-");
  dirs.push(base);
  const files: Record<string, string> = { ".gitignore": "ign/\n.agentmux/.sessions/\n" };
  for (let i = 0; i < 30; i++) files[`src/f${i}.txt`] = `${i}\n`;
  const root = await makeRepo(files, base);
  gitCli(root, "checkout", "-qb", "other");
  writeFileSync(join(root, "src/f1.txt"), "changed\n");
  gitCli(root, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "other");
  gitCli(root, "checkout", "-q", "main");
  const churned = [".agentmux/.sessions/x", "ign", "src/untracked"];
  for (const d of churned) mkdirSync(join(root, d), { recursive: true });
  let stop = false;
  const churn = (async () => {
    for (let n = 0; !stop; n++) {
      for (const d of churned) {
        const p = join(root, d, `.tmp-${n}`);
        writeFileSync(p, "x");
        rmSync(p, { force: true });
      }
      if (n % 20 === 0) await Bun.sleep(0);
    }
  })();
  const failures: string[] = [];
  for (let i = 0; i < 16; i++) {
    const r = await returnToStart(root, { branch: i % 2 ? "main" : "other", commit: null });
    if (!r.ok) failures.push(r.error);
  }
  stop = true;
  await churn;
  expect(failures).toEqual([]);
  expect(gitCli(root, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe("main");
  expect(gitCli(root, "status", "--porcelain")).toBe("");
  gitCli(root, "fsck", "--strict");
}, 60_000);
