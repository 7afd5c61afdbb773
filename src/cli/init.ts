import { runInit } from "../onboarding/init-run.ts";
import { Prompter } from "../onboarding/prompter.ts";
import { findProjectDir } from "../session/project.ts";
import { bool, parseArgs } from "./args.ts";

const HELP = `Usage: agentmux init [--defaults]

Set up agentmux in this repository: detect the agent CLIs on PATH, choose the default
provider and per-role overrides, GitHub pull request settings, then write
.agentmux/config.yaml (only values that differ from the defaults), add agentmux's runtime
files to .gitignore, and offer an instructions file for the agents (CLAUDE.md, AGENTS.md, …),
prompt extension stubs and shell completions. Running it again shows the current values and
writes nothing unless something changed.

Options:
  --defaults   ask nothing: the first CLI found (claude, codex, gemini, opencode, copilot, qwen)
               becomes the default provider; also what happens when not in a terminal
`;

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs("init", argv, { flags: { defaults: { type: "boolean" } }, maxPositionals: 0 });
  if (bool(args.flags.help)) {
    process.stdout.write(HELP);
    return 0;
  }
  const interactive = !bool(args.flags.defaults) && !!process.stdin.isTTY && !!process.stdout.isTTY;
  const prompter = interactive ? Prompter.forTerminal() : null;
  try {
    await runInit({ projectDir: findProjectDir(), prompter, env: process.env, say: (l) => process.stdout.write(l + "\n") });
  } finally {
    prompter?.close();
  }
  return 0;
}
