import { homedir } from "node:os";
import { loadConfig } from "../config/load.ts";
import { Tmux, tmuxSocket } from "../effects/tmux/runner.ts";
import { formatDoctor, runDoctor } from "../providers/doctor.ts";
import { runProcess } from "../effects/process/run.ts";
import { selfCommand } from "../effects/process/self.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { doctor } from "./specs/setup.ts";
import { wrapHanging } from "../views/line.ts";

export async function run(args: ParsedArgs<typeof doctor>): Promise<number> {
  const projectDir = findProjectDir();
  const { config } = loadConfig({ projectDir, configPath: args.flags.config });
  const report = await runDoctor(config, {
    path: process.env.PATH ?? "",
    exec: runProcess,
    tmuxVersionArgv: new Tmux(tmuxSocket(config.tmux.socket)).versionArgv(),
    projectDir,
    home: process.env.HOME || homedir(),
    selfCommand: selfCommand(),
  });
  // a terminal gets lines wrapped at its width, words whole; a pipe gets one line per check
  const width = process.stdout.isTTY ? process.stdout.columns : 0;
  const text = formatDoctor(report);
  process.stdout.write(
    width
      ? text
          .split("\n")
          .flatMap((l) => wrapHanging(l, width))
          .join("\n")
      : text,
  );
  return report.ok ? 0 : 1;
}
