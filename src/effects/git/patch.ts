import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstError, GIT_ENV, type Runner } from "./proc.ts";
import { runProcess } from "../process/run.ts";
import { defineError } from "../../errors.ts";

export const PatchFailed = defineError("PatchFailed", "git", (d: { dir: string; step: string; detail: string }) => ({
  message: `could not save the working tree as a patch (git ${d.step}): ${d.detail}`,
  where: d.dir,
}));

/**
 * Every change in the working tree against HEAD — modified, deleted and new files — as one
 * binary patch that `git apply` takes. Staged through a temporary index: the repository's own
 * index and files are not touched. `exclude` are pathspecs left out (e.g. ".agentmux").
 */
export async function workingTreePatch(dir: string, o: { exclude?: string[]; run?: Runner } = {}): Promise<string> {
  const run = o.run ?? runProcess;
  const tmp = mkdtempSync(join(tmpdir(), "agentmux-patch-"));
  const env = { ...GIT_ENV, GIT_INDEX_FILE: join(tmp, "index") };
  try {
    const steps: string[][] = [
      ["read-tree", "HEAD"],
      ["add", "--all", "--", ".", ...(o.exclude ?? []).map((p) => `:(exclude)${p}`)],
      ["diff", "--cached", "--binary", "--no-color", "HEAD"],
    ];
    let out = "";
    for (const args of steps) {
      const r = await run(["git", ...args], { cwd: dir, env });
      if (r.code !== 0) throw new PatchFailed({ dir, step: args[0]!, detail: firstError(r) });
      out = r.stdout;
    }
    return out;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
