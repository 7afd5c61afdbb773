import { GhUnavailable } from "../effects/gh-errors.ts";
import { fetchIssue, ghProblem, parseIssueRef } from "../effects/gh.ts";
import { findRepoRoot } from "../effects/git/repo.ts";
import { startRun } from "../launcher/start.ts";
import { followCiAfterRun } from "../launcher/ci-after.ts";
import type { ParsedArgs } from "./args.ts";
import { runOptions } from "./run.ts";
import type { issue } from "./specs/start.ts";

export async function run({ flags, positionals }: ParsedArgs<typeof issue>): Promise<number> {
  const cwd = process.cwd();
  const repo = await findRepoRoot(cwd);
  parseIssueRef(positionals[0]!); // a typo in the reference is named before gh is looked for
  const gh = await ghProblem();
  if (gh) throw new GhUnavailable(gh);
  const found = await fetchIssue(positionals[0]!, repo);
  const options = runOptions(flags);
  return followCiAfterRun(
    await startRun({ ...options, request: `${found.title}\n\n${found.request}`, issue: { number: found.number, title: found.title }, pullBase: true }),
    options,
  );
}
