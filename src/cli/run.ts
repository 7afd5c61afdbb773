import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { AgentmuxError } from "../errors.ts";
import { isHeadless, startRun, type StartOptions } from "../launcher/start.ts";
import { invalidSessionName } from "../session/create.ts";
import { sessionNameProblem } from "../session/slug.ts";
import { bool, parseArgs, str } from "./args.ts";
import type { ParsedArgs } from "./args.ts";

export const RUN_FLAGS = {
  name: { type: "string" },
  "product-manager": { type: "boolean" },
  worktree: { type: "boolean" },
  "keep-session": { type: "boolean" },
  ci: { type: "boolean" },
  json: { type: "boolean" },
} as const;

const HELP = `Usage: agentmux run "<request>" [options]      (or just: agentmux "<request>")
       agentmux run path/to/request.md [options]

Starts the pipeline for a request in the current git repository.

Options:
  --name SLUG          session folder name (default: <timestamp>-<slug of the request>)
  --product-manager    start with a product-manager phase that refines the requirements
  --worktree           work in a separate git worktree next to the repository
  --keep-session       keep the session folder after a successful commit
  --ci                 headless: no attach, final approval skipped, progress on stdout
                       (also when CI=true or without a terminal)
  --json               with --ci: progress as one JSON object per line
  --config PATH        an extra config file, applied last
`;

export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs("run", argv, { flags: RUN_FLAGS });
  if (flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const name = str(flags.name);
  const nameProblem = name === undefined ? undefined : sessionNameProblem(name);
  if (nameProblem) throw invalidSessionName(name!, nameProblem); // before any repository or CLI check
  const text = positionals.join(" ").trim();
  if (!text) throw new AgentmuxError("usage", "a request is required", { where: "run", hint: 'agentmux run "Add rate limiting to the API"', exitCode: 2 });
  let request = text;
  let slugSource: string | undefined;
  if (positionals.length === 1 && text.endsWith(".md") && existsSync(text)) {
    request = readFileSync(text, "utf8");
    slugSource = basename(text, ".md");
    if (!request.trim()) throw new AgentmuxError("usage", `the request file is empty`, { where: text, exitCode: 2 });
  }
  return startRun({ ...runOptions(flags), request, slugSource });
}

/** The start options the run flags (RUN_FLAGS) give; shared by `run` and `issue`. */
export function runOptions(flags: ParsedArgs["flags"]): Omit<StartOptions, "request"> {
  return {
    cwd: process.cwd(),
    name: str(flags.name),
    productManager: bool(flags["product-manager"]),
    worktree: bool(flags.worktree),
    keepSession: bool(flags["keep-session"]),
    configPath: str(flags.config) ? resolve(str(flags.config)!) : undefined,
    headless: isHeadless(bool(flags.ci)),
    progress: bool(flags.json) ? "json" : "plain",
    out: (l) => process.stdout.write(l + "\n"),
  };
}
