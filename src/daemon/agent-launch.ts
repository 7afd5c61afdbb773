import { join } from "node:path";
import type { Role } from "../schema/catalog.ts";
import type { Event } from "../schema/events.ts";
import { buildLaunch, writeLaunchFiles } from "../providers/launch.ts";
import { resolveRole } from "../providers/resolve.ts";
import { F } from "../protocol/paths.ts";
import { systemClock } from "../effects/clock.ts";
import { recordWorktreeFiles } from "../session/worktree-files.ts";
import type { FirstStarts } from "./first-starts.ts";
import type { CliVersions } from "./cli-versions.ts";
import { createConversation } from "./conversation-create.ts";
import { runProcess } from "../effects/process/run.ts";
import { adapterFor } from "../providers/adapters/registry.ts";
import type { AgentRuntimeOptions, LaunchOptions, Started } from "./agent-types.ts";

const now = () => new Date().toISOString();

/** Start the agent's CLI in a new parked pane with a fresh token (not yet an agent of the run). */
export async function spawnAgent(
  o: AgentRuntimeOptions,
  starts: { first: FirstStarts; versions: CliVersions },
  agent: string,
  role: Role,
  label: string,
  lo: LaunchOptions,
  size?: { width: number; height: number },
): Promise<Started> {
  const resolved = resolveRole(o.config, role, lo.provider);
  const conv = resolved.provider.conversation;
  let conversation: { id: string; resume: boolean } | undefined;
  if (conv && !lo.batchPrompt) {
    if (lo.conversation) conversation = { id: lo.conversation, resume: true };
    else if (conv.start.length) conversation = { id: crypto.randomUUID(), resume: false };
    else if (conv.create.length && resolved.provider.command !== "@self") {
      const env = { ...(o.runEnv ?? {}), ...resolved.provider.env };
      const id = await createConversation(runProcess, o.log, { agent, command: resolved.provider.command, args: conv.create, env, cwd: o.workDir });
      if (id) conversation = { id, resume: false };
    }
  }
  const token = o.mcp.tokens.issue(agent, role, o.workDir);
  // the CLI's own turn-end hook reports this id (TurnEndTail → agentOfTurnId)
  const turnId = crypto.randomUUID();
  // what this CLI's version takes (cursor's --trust from 2026.07.20): asked once per run, bounded
  const cliVersion = await starts.versions.of(resolved.provider.command, adapterFor(resolved.provider.mcp) ?? undefined, resolved.provider.env);
  const spec = buildLaunch(resolved, {
    ...(cliVersion ? { cliVersion } : {}),
    turnEnd: { id: turnId, file: join(o.sessionDir, F.turnEnds) },
    env: process.env,
    sessionDir: o.sessionDir,
    projectDir: o.projectDir,
    workDir: o.workDir,
    agentKey: agent,
    selfCommand: o.selfCommand,
    mcp: { url: o.mcp.url(), token },
    ...(lo.batchPrompt ? { batchPrompt: join(o.sessionDir, lo.batchPrompt) } : {}),
    ...(conversation ? { conversation } : {}),
  });
  recordWorktreeFiles(o.sessionDir, spec.files);
  writeLaunchFiles(spec);
  // only a CLI whose first starts fight over its caches waits for its first start (FirstStarts)
  const first = resolved.provider.first_start_alone ? await starts.first.before(resolved.provider.command, agent) : null;
  // the env (with the token for CLIs that read it there) reaches the pane through a 0600 file, never argv
  const command = spec.stdinFile ? ["sh", "-c", 'exec "$@" < "$0"', spec.stdinFile, ...spec.argv] : spec.argv;
  const exitFile = join(o.sessionDir, F.paneExits);
  const { pane, pid } = await o.layout.createPane({ command, env: { ...o.runEnv, ...spec.env }, cwd: spec.cwd, label, exitFile, ...(size ? { size } : {}) });
  first?.(pane, resolved.provider.ready, resolved.provider.trust);
  // the token is this pane's: requests with it must come from its process tree (mcp/peer.ts)
  o.mcp.tokens.bindProcess(agent, pid);
  const capture = !!conv && conv.capture !== "none" && !conversation && !lo.batchPrompt;
  return {
    pane: {
      pane,
      pid,
      role,
      resolved,
      prompted: false,
      env: { ...resolved.provider.env, ...spec.env },
      launchedAt: (o.wallClock ?? systemClock).now(),
      capture,
      turnId,
    },
    ...(conversation ? { conversation } : {}),
    argv: spec.argv,
  };
}

/** The agent_launched record (bench/pipeline.ts reads "launched <agent> (…) in %N"); the conversation it starts is its event. */
export function announceLaunch(
  o: AgentRuntimeOptions,
  agent: string,
  s: Started,
  pre?: { ms: number; byRole: string | null; readyMs: number | null },
): Event[] {
  const { resolved, pane } = s.pane;
  const c = s.conversation;
  // whether the pre-start was ready for its prompt says where a slow handoff's time went
  const note = !pre
    ? ""
    : ` (pre-started ${pre.byRole ? `by role as ${pre.byRole} ` : ""}${pre.ms} ms before, ${pre.readyMs === null ? "not ready yet" : `ready for ${pre.readyMs} ms`})`;
  o.log(
    `launched ${agent} (${resolved.providerName}${resolved.model ? "/" + resolved.model : ""}${c ? `, conversation ${c.id}${c.resume ? " resumed" : ""}` : ""}) in ${pane}${note}: ${s.argv.join(" ").slice(0, 300)}`,
    {
      event: "agent_launched",
      agent,
      pane,
      data: {
        provider: resolved.providerName,
        model: resolved.model,
        argv: s.argv,
        ...(c ? { conversation: c.id, resumed: c.resume } : {}),
        ...(pre ? { prestarted_ms: pre.ms, prestart_ready_ms: pre.readyMs } : {}),
        ...(pre?.byRole ? { prestarted_as: pre.byRole } : {}),
      },
    },
  );
  return c && !c.resume ? [{ type: "conversation_captured", at: now(), agent, id: c.id }] : [];
}
