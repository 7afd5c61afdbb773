import { actionCheck, actionRun } from "../launcher/github/action.ts";
import { parseArgs, usage } from "./args.ts";

const HELP = `Usage: agentmux github-action check|run

The entry of the agentmux GitHub Action (action.yml); it runs as a step of a GitHub Actions
job and reads the job's environment: GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY,
GITHUB_OUTPUT, and the action's inputs as INPUT_<NAME> variables.

  check   decide from the event whether to run (issue labelled or assigned, a comment or
          review starting with the trigger phrase, by a trusted author; bots never) and
          which agent CLI packages to install; writes the step outputs run, reason,
          target, packages, artifact. Exits 0 either way.
  run     the whole run: the request from the issue or the review, one progress comment
          kept up to date, agentmux headless with --json progress, commit, push, pull
          request (or, for a review, a fix round pushed to the pull request's branch).
          Exits with agentmux's exit code.

See docs/github-action.md.
`;

export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs("github-action", argv, { flags: {}, maxPositionals: 1 });
  if (flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const io = { env: process.env, cwd: process.cwd(), out: (l: string) => process.stdout.write(l + "\n") };
  if (positionals[0] === "check") return actionCheck(io);
  if (positionals[0] === "run") return actionRun(io);
  throw usage("github-action", positionals[0] ? `unknown step "${positionals[0]}" (check or run)` : "check or run is required");
}
