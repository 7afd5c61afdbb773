/**
 * The command table: each command's spec (data, see spec.ts) and its code, loaded with a
 * dynamic import only when the command runs — so `--help`, `--version`, completions and
 * `mcp-server` never load blessed, isomorphic-git or the MCP client.
 */
import { HELP, parseCommand, type ParsedArgs } from "./args.ts";
import { commandHelp } from "./help.ts";
import type { CommandSpec } from "./spec.ts";
import * as internal from "./specs/internal.ts";
import * as sessions from "./specs/sessions.ts";
import * as setup from "./specs/setup.ts";
import * as start from "./specs/start.ts";

export type CommandEntry = {
  spec: CommandSpec;
  /** parse `argv` by the spec (or print the help) and run the command */
  start(argv: readonly string[]): Promise<number>;
};

function entry<const S extends CommandSpec>(spec: S, load: () => Promise<{ run(args: ParsedArgs<S>): Promise<number> }>): CommandEntry {
  return {
    spec,
    async start(argv) {
      const args = parseCommand(spec, argv);
      if (args === HELP) {
        (spec.helpToStderr ? process.stderr : process.stdout).write(commandHelp(spec));
        return 0;
      }
      return (await load()).run(args);
    },
  };
}

const table: CommandEntry[] = [
  entry(start.run, () => import("./run.ts")),
  entry(start.demo, () => import("./demo.ts")),
  entry(start.issue, () => import("./issue.ts")),
  entry(setup.init, () => import("./init.ts")),
  entry(setup.configure, () => import("./configure.ts")),
  entry(sessions.status, () => import("./status.ts")),
  entry(sessions.sessions, () => import("./sessions.ts")),
  entry(sessions.resume, () => import("./resume.ts")),
  entry(sessions.attach, () => import("./attach.ts")),
  entry(sessions.clean, () => import("./clean.ts")),
  entry(setup.validate, () => import("./validate.ts")),
  entry(setup.config, () => import("./config.ts")),
  entry(setup.doctor, () => import("./doctor.ts")),
  entry(setup.preferences, () => import("./preferences.ts")),
  entry(setup.completions, () => import("./completions.ts")),
  entry(internal.githubAction, () => import("./github-action.ts")),
  entry(internal.orchestrate, () => import("./orchestrate.ts")),
  entry(internal.simAgent, () => import("./sim-agent.ts")),
  entry(internal.mcpServer, () => import("./mcp-server.ts")),
  entry(internal.monitor, () => import("./monitor.ts")),
  entry(internal.home, () => import("./home.ts")),
  entry(internal.panel, () => import("./panel.ts")),
];

export const COMMANDS: Readonly<Record<string, CommandEntry>> = Object.fromEntries(table.map((e) => [e.spec.name, e]));
export const SPECS: readonly CommandSpec[] = table.map((e) => e.spec);
/** The names a user may type (hidden commands are internal: never suggested or completed). */
export const VISIBLE_COMMANDS: readonly string[] = SPECS.filter((s) => !s.hidden).map((s) => s.name);
