import { command, CONFIG_FLAG } from "../spec.ts";

/** The flags of a run; `issue` takes the same. */
export const RUN_FLAGS = {
  name: { type: "string", value: "SLUG", help: "session folder name (default: <timestamp>-<slug of the request>)" },
  "product-manager": { type: "boolean", help: "start with a product-manager phase that refines the requirements" },
  worktree: { type: "boolean", help: "work in a separate git worktree next to the repository" },
  "keep-session": { type: "boolean", help: "keep the session folder after a successful commit" },
  ci: { type: "boolean", help: "headless: no attach, final approval skipped, progress on stdout (also when CI=true or without a terminal)" },
  json: { type: "boolean", help: "with --ci: progress as one JSON object per line" },
  serve: { type: "boolean", help: "also serve the run's live web page (agentmux serve, read-only) until it ends; prints its link" },
  ...CONFIG_FLAG,
} as const;

export const run = command({
  name: "run",
  summary: "start a pipeline run for a request (the default command)",
  usage: ['run "<request>" [options]      (or just: agentmux "<request>")', "run path/to/request.md [options]"],
  about: "Starts the pipeline for a request in the current git repository.",
  flags: RUN_FLAGS,
  args: [{ name: "request", about: "a request", variadic: true, values: "files" }],
  notes: `Without "run", the first word must not be a command name or look like one: a request of
one word (agentmux stauts) is refused as a probable typo ("did you mean status?"), because the
shell passes agentmux "stauts" and agentmux stauts alike. Start a one-word request explicitly:
  agentmux run refactor`,
});

export const issue = command({
  name: "issue",
  summary: "start a run from a GitHub issue (needs gh)",
  usage: ["issue <N|#N|URL> [run options]"],
  about: `Starts a run from a GitHub issue: the request is the issue's title, body and comments
(fetched with gh), and the pull request closes the issue. Needs gh, logged in.`,
  flags: RUN_FLAGS,
  args: [{ name: "issue", about: "an issue number or URL", required: true }],
});

export const demo = command({
  name: "demo",
  summary: "run the whole pipeline with simulated agents in a scratch repository",
  about: `Runs the whole pipeline with simulated agents (no AI subscription needed) in a scratch git
repository: architect → planner → coder → reviewer → commit on a feature branch.`,
  flags: {
    dir: { type: "string", value: "PATH", values: "files", help: "create the scratch repository here (new or empty folder; default: a temp dir)" },
    ci: { type: "boolean", help: "headless: progress lines on stdout, exit 0 on success, 1 on failure" },
    json: { type: "boolean", help: "with --ci: one JSON object per line" },
    scenario: {
      type: "string",
      value: "LIST",
      values: "sim-switches",
      help: "simulated-agent scenario switches, comma-separated (e.g. parallel,review_fail_once,reviewers=logic+quality+expert)",
    },
    "think-ms": { type: "string", value: "N", help: "simulated thinking time per step (default 600 in a terminal, 0 headless)" },
    approve: { type: "boolean", help: "in a terminal: stop at the approval panel instead of auto-approving" },
    "keep-session": { type: "boolean", help: "keep the session folder after the commit" },
    serve: { type: "boolean", help: "also serve the run's live web page (read-only) until it ends; prints its link" },
    ...CONFIG_FLAG,
  },
  args: [],
});
