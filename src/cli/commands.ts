/**
 * The command table: each command's spec (data, see spec.ts) and its code, loaded with a
 * dynamic import only when the command runs — so `--help`, `--version`, completions and
 * `mcp-server` never load blessed, isomorphic-git or the MCP client.
 */
import { HELP, parseCommand, type ParsedArgs } from "./args.ts";
import { commandHelp } from "./help.ts";
import type { CommandSpec } from "./spec.ts";
import type { Leanness } from "../effects/process/lean.ts";
import * as internal from "./specs/internal.ts";
import * as sessions from "./specs/sessions.ts";
import * as setup from "./specs/setup.ts";
import * as start from "./specs/start.ts";

export type CommandEntry = {
  spec: CommandSpec;
  /** how lean the command's process runs (undefined: as it is) */
  lean?: Leanness;
  /** parse `argv` by the spec (or print the help) and run the command */
  start(argv: readonly string[]): Promise<number>;
};

/**
 * `lean`: a long-lived process restarts itself once, before it does anything, with the JSC
 * options that keep its memory down (effects/process/lean.ts): the same command line, pid and
 * stdio. A usage error or the help is answered first, without a restart.
 */
function entry<const S extends CommandSpec>(spec: S, load: () => Promise<{ run(args: ParsedArgs<S>): Promise<number> }>, lean?: Leanness): CommandEntry {
  return {
    spec,
    ...(lean ? { lean } : {}),
    async start(argv) {
      const args = parseCommand(spec, argv);
      if (args === HELP) {
        (spec.helpToStderr ? process.stderr : process.stdout).write(commandHelp(spec));
        return 0;
      }
      if (lean) (await import("../effects/process/lean.ts")).restartLean(process.argv.slice(2), lean);
      return (await load()).run(args);
    },
  };
}

const table: CommandEntry[] = [
  entry(start.run, () => import("./run.ts"), "hot-only"),
  entry(start.demo, () => import("./demo.ts"), "hot-only"),
  entry(start.issue, () => import("./issue.ts"), "hot-only"),
  entry(setup.init, () => import("./init.ts")),
  entry(setup.configure, () => import("./configure.ts")),
  entry(sessions.status, () => import("./status.ts")),
  entry(sessions.sessions, () => import("./sessions.ts")),
  entry(sessions.resume, () => import("./resume.ts"), "hot-only"),
  entry(sessions.attach, () => import("./attach.ts"), "hot-only"),
  entry(sessions.cancel, () => import("./cancel.ts")),
  entry(sessions.clean, () => import("./clean.ts")),
  entry(sessions.serve, () => import("./serve.ts")),
  entry(setup.checks, () => import("./checks.ts")),
  entry(setup.validate, () => import("./validate.ts")),
  entry(setup.config, () => import("./config.ts")),
  entry(setup.doctor, () => import("./doctor.ts")),
  entry(setup.preferences, () => import("./preferences.ts")),
  entry(setup.completions, () => import("./completions.ts")),
  entry(internal.githubAction, () => import("./github-action.ts"), "hot-only"),
  entry(internal.orchestrate, () => import("./orchestrate.ts"), "hot-only"),
  entry(internal.simAgent, () => import("./sim-agent.ts")),
  entry(internal.mcpServer, () => import("./mcp-server.ts"), "interpreter"),
  entry(internal.monitor, () => import("./monitor.ts"), "interpreter"),
  entry(internal.home, () => import("./home.ts")),
  entry(internal.panel, () => import("./panel.ts")),
];

export const COMMANDS: Readonly<Record<string, CommandEntry>> = Object.fromEntries(table.map((e) => [e.spec.name, e]));
export const SPECS: readonly CommandSpec[] = table.map((e) => e.spec);
/** The names a user may type (hidden commands are internal: never suggested or completed). */
export const VISIBLE_COMMANDS: readonly string[] = SPECS.filter((s) => !s.hidden).map((s) => s.name);
