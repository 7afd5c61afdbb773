import { homedir } from "node:os";
import { loadConfig } from "../config/load.ts";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { formatDoctor, runDoctor } from "../providers/doctor.ts";
import { runProcess } from "../effects/process/run.ts";
import { selfCommand } from "../effects/process/self.ts";
import { findProjectDir } from "../session/project.ts";
import { bool, parseArgs, str } from "./args.ts";

const HELP = `Usage: agentmux doctor [--config PATH]

Check what the configured pipeline needs: tmux 3.2+, each configured agent CLI on PATH and
answering --version, how agentmux wires MCP and folder trust into it, and gh with a login.
Exit 0 when everything needed is there, else 1.
`;


export async function run(argv: string[]): Promise<number> {
  const args = parseArgs("doctor", argv, { flags: {}, maxPositionals: 0 });
  if (bool(args.flags.help)) {
    process.stdout.write(HELP);
    return 0;
  }
  const projectDir = findProjectDir();
  const { config } = loadConfig({ projectDir, configPath: str(args.flags.config) });
  const report = await runDoctor(config, {
    path: process.env.PATH ?? "",
    exec: runProcess,
    tmuxVersionArgv: new Tmux(tmuxSocket(config.tmux.socket)).versionArgv(),
    projectDir,
    home: process.env.HOME || homedir(),
    selfCommand: selfCommand(),
  });
  process.stdout.write(formatDoctor(report));
  return report.ok ? 0 : 1;
}
