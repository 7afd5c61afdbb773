import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { bwrapArgv, inside } from "../sandbox/bwrap.ts";
import { agentFileName, F } from "../protocol/paths.ts";
import { findOnPath } from "./doctor.ts";
import { CONVERSATION_FILE_ENV, privateMcpDir, TURN_FILE_ENV, type LaunchContext, type LaunchFile } from "./mcp.ts";
import type { LaunchSpec } from "./launch.ts";
import type { ResolvedAgent } from "./resolve.ts";
import { homeOf } from "./usage/read.ts";

/**
 * A launch put in the sandbox (`sandbox: true`, sandbox/bwrap.ts): the same argv, env and files,
 * run by bubblewrap. What the agent sees besides its work and session folders comes from the
 * launch itself: its own MCP config and settings files, its CLI's private home (gemini), the CLI
 * and agentmux programs, `providers.<p>.sandbox_home`, and the folder its CLI keeps the records
 * agentmux reads its usage from.
 */
export function sandboxed(
  agent: ResolvedAgent,
  ctx: LaunchContext,
  spec: LaunchSpec,
  o: { path?: string; env?: Record<string, string | undefined> } = {},
): LaunchSpec {
  const env = o.env ?? process.env;
  const home = ctx.home ?? homedir();
  const path = spec.env.PATH ?? o.path ?? env.PATH ?? "";
  const command = spec.argv[0]!;
  const programs = [findOnPath(command, path) ?? command, ...ctx.selfCommand.filter((a) => isAbsolute(a))];
  const cli = cliHome(agent, ctx, home);
  const records = recordFolders(agent, ctx, home);
  const ownDirs = [spec.env.GEMINI_CLI_HOME, ...records].filter((d): d is string => !!d);
  // the simulated agent keeps its own state (once-switches, usage transcripts) under .runtime/sim,
  // agentmux's opencode plugin its sessions' token figures under .runtime/opencode, and a launch's
  // link may point there (gemini's chats of a user who has none: .runtime/gemini/tmp; hidden, the
  // link dangled and gemini 0.61.0 exited 1 at start)
  const runtime = join(ctx.sessionDir, F.runtimeDir);
  const linked = (spec.links ?? []).map((l) => relative(runtime, l.target).split(sep)[0]!).filter((d) => d && d !== ".." && !isAbsolute(d));
  const runtimeDirs = [...new Set([...(agent.provider.mcp === "sim" ? ["sim"] : agent.provider.mcp === "opencode" ? ["opencode"] : []), ...linked])];
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
      home,
      cliHome: cli.folders,
      homeCopies: cli.copies.map((c) => ({ part: c.part, copy: c.file.path })),
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
  const made = [...cli.missing, ...records, ...runtimeDirs.map((d) => join(ctx.sessionDir, F.runtimeDir, d))];
  return {
    ...spec,
    argv,
    files: [...spec.files, ...cli.copies.map((c) => c.file)],
    ...(made.length || spec.dirs?.length ? { dirs: [...(spec.dirs ?? []), ...made] } : {}),
    ...(turnEnds ? { touch: [...(spec.touch ?? []), turnEnds] } : {}),
  };
}

/**
 * `sandbox_home` as the sandbox shows it: a folder read-write (an entry ending in `/` is a folder
 * and is made when missing, so what the CLI writes there on its first run is kept); a file as
 * this launch's own copy, taken now (0600, in the run's private folder): the CLI may change it
 * there, the user's file is never written from inside.
 */
function cliHome(agent: ResolvedAgent, ctx: LaunchContext, home: string) {
  const folders: string[] = [];
  const missing: string[] = [];
  const copies: { part: string; file: LaunchFile }[] = [];
  for (const entry of agent.provider.sandbox_home) {
    const part = entry.replace(/\/+$/, "");
    const full = join(home, part);
    const kind = kindOf(full);
    if (kind === "file") {
      const copy = join(privateMcpDir(ctx.sessionDir, home), `${agentFileName(ctx.agentKey)}.home`, part);
      copies.push({ part, file: { path: copy, content: readFileSync(full, "utf8"), secret: true } });
    } else if (kind === "folder" || entry.endsWith("/")) {
      folders.push(part);
      if (kind === null) missing.push(full);
    }
  }
  return { folders, missing, copies };
}

/** The folders the CLI keeps its usage records in (its adapter's default, or `usage[].home`), outside the work and session folders and never the home itself. */
function recordFolders(agent: ResolvedAgent, ctx: LaunchContext, home: string): string[] {
  const env = { HOME: home, ...agent.provider.env };
  const dirs = agent.provider.usage
    .map((s) => homeOf(s, { sessionDir: ctx.sessionDir, env }))
    .filter((d) => isAbsolute(d) && !inside(ctx.sessionDir, d) && !inside(ctx.workDir, d) && !inside(d, home));
  return [...new Set(dirs)];
}

function kindOf(path: string): "file" | "folder" | null {
  try {
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return null;
  }
}
