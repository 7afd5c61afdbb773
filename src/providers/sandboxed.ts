import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { bwrapArgv } from "../sandbox/bwrap.ts";
import { F } from "../protocol/paths.ts";
import { findOnPath } from "./doctor.ts";
import { CONVERSATION_FILE_ENV, TURN_FILE_ENV, type LaunchContext } from "./mcp.ts";
import type { LaunchSpec } from "./launch.ts";
import type { ResolvedAgent } from "./resolve.ts";

/**
 * A launch put in the sandbox (`sandbox: true`, sandbox/bwrap.ts): the same argv, env and files,
 * run by bubblewrap. What the agent sees besides its work and session folders comes from the
 * launch itself: its own MCP config and settings files, its CLI's private home (gemini), the CLI
 * and agentmux programs, and `providers.<p>.sandbox_home`.
 */
export function sandboxed(
  agent: ResolvedAgent,
  ctx: LaunchContext,
  spec: LaunchSpec,
  o: { path?: string; env?: Record<string, string | undefined> } = {},
): LaunchSpec {
  const env = o.env ?? process.env;
  const path = spec.env.PATH ?? o.path ?? env.PATH ?? "";
  const command = spec.argv[0]!;
  const programs = [findOnPath(command, path) ?? command, ...ctx.selfCommand.filter((a) => isAbsolute(a))];
  const ownDirs = [spec.env.GEMINI_CLI_HOME].filter((d): d is string => !!d);
  // the simulated agent keeps its own state (once-switches, usage transcripts) under .runtime/sim,
  // agentmux's opencode plugin its sessions' token figures under .runtime/opencode
  const runtimeDirs = agent.provider.mcp === "sim" ? ["sim"] : agent.provider.mcp === "opencode" ? ["opencode"] : [];
  // the CLI's turn-end hook appends to the session's turn-end file (under the hidden .runtime)
  const turnEnds = spec.env[TURN_FILE_ENV];
  // and a CLI's plugin writes the conversation id it picked to this launch's file (opencode)
  const writable = [spec.env[TURN_FILE_ENV], spec.env[CONVERSATION_FILE_ENV]].filter((f): f is string => !!f);
  const tmuxDir = env.TMUX_TMPDIR ? join(env.TMUX_TMPDIR, `tmux-${process.getuid?.() ?? 0}`) : null;
  const argv = bwrapArgv(
    {
      workDir: ctx.workDir,
      projectDir: ctx.projectDir,
      sessionDir: ctx.sessionDir,
      home: ctx.home ?? homedir(),
      cliHome: agent.provider.sandbox_home,
      ownFiles: spec.files.map((f) => f.path),
      ownDirs,
      programs,
      path,
      runtimeDirs,
      ...(writable.length ? { ownWritable: writable } : {}),
      ...(tmuxDir ? { hide: [tmuxDir] } : {}),
    },
    spec.argv,
  );
  return {
    ...spec,
    argv,
    dirs: [...(spec.dirs ?? []), ...runtimeDirs.map((d) => join(ctx.sessionDir, F.runtimeDir, d))],
    ...(turnEnds ? { touch: [...(spec.touch ?? []), turnEnds] } : {}),
  };
}
