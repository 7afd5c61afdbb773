import { AgentmuxError } from "../errors.ts";
import { fetchIssue, ghAvailable } from "../effects/gh.ts";
import { findRepoRoot } from "../effects/git/repo.ts";
import { startRun } from "../launcher/start.ts";
import { parseArgs } from "./args.ts";
import { RUN_FLAGS, runOptions } from "./run.ts";

const HELP = `Usage: agentmux issue <N|#N|URL> [run options]

Starts a run from a GitHub issue: the request is the issue's title, body and comments
(fetched with gh), and the pull request closes the issue. Needs gh, logged in.
Options are those of \`agentmux run\` (--worktree, --product-manager, --ci, --json, …).
`;

export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs("issue", argv, { flags: RUN_FLAGS, maxPositionals: 1 });
  if (flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!positionals[0]) throw new AgentmuxError("usage", "an issue number or URL is required", { where: "issue", hint: "agentmux issue 42", exitCode: 2 });
  const cwd = process.cwd();
  const repo = await findRepoRoot(cwd);
  if (!(await ghAvailable())) {
    throw new AgentmuxError("gh", "gh is not installed or not logged in", { where: "issue", hint: "install GitHub's gh CLI and run `gh auth login`" });
  }
  const issue = await fetchIssue(positionals[0], repo);
  return startRun({ ...runOptions(flags), request: `${issue.title}\n\n${issue.request}`, issue: { number: issue.number, title: issue.title } });
}
