import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { dirname } from "node:path";
import { homedir } from "node:os";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { ROLE_TOOLS } from "../schema/catalog.ts";
import { mcpWiring, TURN_FILE_ENV, TURN_ID_ENV, type LaunchContext, type LaunchFile, type LaunchPart } from "./mcp.ts";
import { toolNameForAgent, type ResolvedAgent } from "./resolve.ts";
import { preTrust } from "./trust.ts";
import { adapterFor } from "./adapters/registry.ts";
import { sandboxed } from "./sandboxed.ts";
import { inside } from "../sandbox/bwrap.ts";

export type { LaunchContext } from "./mcp.ts";

export type LaunchSpec = {
  argv: string[];
  /** added to the pane's environment (on top of agentmux's own); reaches it through a 0600 file, never argv */
  env: Record<string, string>;
  cwd: string;
  /** files to write before launching (absolute paths); see writeLaunchFiles */
  files: LaunchFile[];
  /** symlinks to make before launching (absolute paths) */
  links?: { path: string; target: string }[];
  /** folders to make before launching (0700): what the sandbox shows must exist */
  dirs?: string[];
  /** files to create (empty, 0600) before launching when missing: the sandbox shows them read-write */
  touch?: string[];
  /** batch mode "stdin": feed this file to the process's standard input */
  stdinFile?: string;
};

/**
 * The command line, environment and files that start one agent:
 *   command (or ctx.selfCommand for "@self") + provider args + batch verb/prompt (flag mode)
 *   + model flag and model + role args (roles.<r>.args replace the provider's) + model args
 *   + MCP wiring + pre-trust + prompt (positional mode).
 * Pure apart from reading ~/.claude.json when claude pre-trust is switched on.
 */
export function buildLaunch(agent: ResolvedAgent, ctx: LaunchContext): LaunchSpec {
  const p = agent.provider;
  const command = p.command === "@self" ? [...ctx.selfCommand] : [p.command];
  const batch = ctx.batchPrompt !== undefined ? (p.batch ?? { args: [], mode: "positional" as const }) : null;

  const argv = [...command, ...p.args, ...conversationArgs(agent, ctx, batch !== null)];
  if (batch) argv.push(...batch.args, ...(batch.mode === "flag" ? [ctx.batchPrompt!] : []));
  if (p.model_flag && agent.model) argv.push(p.model_flag, agent.model);
  argv.push(...withMcpAllowances(agent, agent.roleArgs ?? [...p.default_role_args, ...(p.role_args[agent.role] ?? [])], ctx.workDir));
  if (!batch) argv.push(...versionArgs(agent, ctx));
  if (agent.model) argv.push(...(p.model_args[agent.model] ?? []));

  // In a worktree the session folder is outside the agent's workspace: let the CLI write there.
  if (!inside(ctx.workDir, ctx.sessionDir)) argv.push(...p.session_dir_args.map((a) => a.replaceAll("{dir}", ctx.sessionDir)));

  const mcp = mcpWiring(agent, ctx);
  const trust = preTrust(agent, ctx.workDir, ctx.home ?? homedir());
  const hook = turnEndHook(agent, ctx, batch !== null);
  argv.push(...mcp.argv, ...trust.argv, ...hook.argv);
  if (batch?.mode === "positional") argv.push(ctx.batchPrompt!);

  const spec: LaunchSpec = {
    argv,
    env: { ...p.env, ...mcp.env, ...trust.env, ...hook.env },
    cwd: ctx.workDir,
    files: [...mcp.files, ...trust.files, ...hook.files],
    ...(mcp.links?.length ? { links: mcp.links } : {}),
  };
  if (batch?.mode === "stdin") spec.stdinFile = ctx.batchPrompt!;
  return agent.sandbox ? sandboxed(agent, ctx, spec) : spec;
}

/** `start` (a new conversation with agentmux's id) or `resume` args (a resumed one, or one `create` made); codex's `resume <id>` is a subcommand, so they come first. */
function conversationArgs(agent: ResolvedAgent, ctx: LaunchContext, batch: boolean): string[] {
  const c = agent.provider.conversation;
  if (!c || !ctx.conversation || batch) return [];
  // an id made before the launch (conversation.create) is continued like a resumed one
  return (ctx.conversation.resume || !c.start.length ? c.resume : c.start).map((a) => a.replaceAll("{id}", ctx.conversation!.id));
}

/** The CLI's own turn-end signal (its adapter's hook), told its launch's id and the run's file in its env; none for a batch run. */
function turnEndHook(agent: ResolvedAgent, ctx: LaunchContext, batch: boolean): LaunchPart {
  const wire = adapterFor(agent.provider.mcp)?.turnEndHook;
  if (!wire || !ctx.turnEnd || batch) return { argv: [], env: {}, files: [] };
  const part = wire(ctx);
  return { ...part, env: { ...part.env, [TURN_ID_ENV]: ctx.turnEnd.id, [TURN_FILE_ENV]: ctx.turnEnd.file } };
}

/** What the CLI's probed version takes (cursor's `--trust` from 2026.07.20 on), not already in its args. */
function versionArgs(agent: ResolvedAgent, ctx: LaunchContext): string[] {
  const v = adapterFor(agent.provider.mcp)?.version;
  if (!v || !ctx.cliVersion) return [];
  const have = new Set([...agent.provider.args, ...(agent.roleArgs ?? [...agent.provider.default_role_args, ...(agent.provider.role_args[agent.role] ?? [])])]);
  return v.adapt(ctx.cliVersion).argv.filter((a) => !have.has(a));
}

/**
 * A CLI that asks before every MCP tool call (claude) gets the role's agentmux tools added to
 * its allow list by its adapter, so replacing role args in config never breaks the completion tools.
 */
function withMcpAllowances(agent: ResolvedAgent, args: string[], workDir: string): string[] {
  const allow = adapterFor(agent.provider.mcp)?.allowTools;
  const tools = ROLE_TOOLS[agent.role].map((t) => toolNameForAgent(agent, t));
  return allow && tools.length ? allow(args, tools, workDir) : [...args];
}

/**
 * Write a launch's files atomically, each only when its content differs (CLIs cache approvals
 * by file content and mtime). A secret file (it holds a token) is always 0600; any other existing
 * file keeps its permissions. Returns the paths written.
 */
export function writeLaunchFiles(spec: Pick<LaunchSpec, "files" | "links" | "dirs" | "touch">): string[] {
  for (const d of spec.dirs ?? []) mkdirSync(d, { recursive: true, mode: 0o700 });
  for (const f of spec.touch ?? []) {
    mkdirSync(dirname(f), { recursive: true, mode: 0o700 });
    closeSync(openSync(f, "a", 0o600));
  }
  for (const l of spec.links ?? []) {
    mkdirSync(dirname(l.path), { recursive: true, mode: 0o700 });
    // a target that does not exist yet is a folder the CLI will fill (gemini's chats)
    if (!existsSync(l.target)) mkdirSync(l.target, { recursive: true, mode: 0o700 });
    if (!existsSync(l.path)) symlinkSync(l.target, l.path);
  }
  const written: string[] = [];
  for (const f of spec.files) {
    let mode: number | null = null;
    if (existsSync(f.path)) {
      if (readFileSync(f.path, "utf8") === f.content) continue;
      mode = statSync(f.path).mode & 0o777;
    }
    mkdirSync(dirname(f.path), { recursive: true, mode: 0o700 }); // private: see privateMcpDir
    writeFileAtomic(f.path, f.content, f.secret ? { mode: 0o600 } : {});
    if (f.secret) chmodSync(f.path, 0o600);
    else if (mode !== null) chmodSync(f.path, mode);
    written.push(f.path);
  }
  return written;
}
