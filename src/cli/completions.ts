import { bool, parseArgs, usage } from "./args.ts";
import { COMMANDS } from "./commands.ts";
import { buildCompletionSpec, SHELLS, type Shell } from "../completions/spec.ts";
import { bashScript } from "../completions/bash.ts";
import { zshScript } from "../completions/zsh.ts";
import { fishScript } from "../completions/fish.ts";

export const FLAGS = {} as const;

const HELP = `Usage: agentmux completions <bash|zsh|fish>

Prints a shell completion script: commands, their options, and session ids for
status, resume, attach and clean (from .agentmux/.sessions/ of the nearest project).

Install:
  bash  echo 'source <(agentmux completions bash)' >> ~/.bashrc
  zsh   agentmux completions zsh > "\${fpath[1]}/_agentmux"     (then restart zsh)
  fish  agentmux completions fish > ~/.config/fish/completions/agentmux.fish
`;

const GENERATORS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export async function run(argv: string[]): Promise<number> {
  const a = parseArgs("completions", argv, { flags: FLAGS, maxPositionals: 1 });
  if (bool(a.flags.help)) return process.stdout.write(HELP), 0;
  const shell = a.positionals[0];
  if (!shell) throw usage("completions", `which shell? expected one of: ${SHELLS.join(", ")}`);
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw usage("completions", `unknown shell "${shell}"; valid shells: ${SHELLS.join(", ")}`);
  }
  const spec = await buildCompletionSpec(COMMANDS);
  process.stdout.write(GENERATORS[shell as Shell](spec));
  return 0;
}
