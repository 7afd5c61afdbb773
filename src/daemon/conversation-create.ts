import type { Logger } from "../effects/log.ts";
import type { Runner } from "../effects/process/run.ts";

/** a CLI's create command may reach its service; a start waits no longer than this for it */
export const CREATE_TIMEOUT_MS = 15_000;

const UUID = /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/i;

/** The conversation id in a create command's output: its first UUID (cursor's chat ids), or null. */
export function createdId(output: string): string | null {
  return UUID.exec(output)?.[1]?.toLowerCase() ?? null;
}

/**
 * A new conversation made by the CLI's own command (`conversation.create`, cursor's
 * `create-chat`) before the launch, so its id is known and a restart continues it. Bounded; any
 * failure is no id (the agent starts a fresh, unrecorded conversation) and is logged.
 */
export async function createConversation(
  run: Runner,
  log: Logger,
  o: { agent: string; command: string; args: readonly string[]; env: Record<string, string>; cwd: string },
): Promise<string | null> {
  const what = [o.command, ...o.args].join(" ");
  const r = await run([o.command, ...o.args], { env: o.env, cwd: o.cwd, timeoutMs: CREATE_TIMEOUT_MS });
  const id = r.code === 0 ? createdId(r.stdout) : null;
  if (!id) {
    const why = r.timedOut
      ? `no answer within ${CREATE_TIMEOUT_MS / 1000} s`
      : r.code !== 0
        ? `exit ${r.code}: ${(r.stderr || r.stdout).trim().slice(0, 200)}`
        : `no id in ${JSON.stringify(r.stdout.trim().slice(0, 120))}`;
    log(`${o.agent}: ${what}: ${why}; it starts a conversation agentmux cannot continue after a restart`, { level: "warn", agent: o.agent });
    return null;
  }
  log(`${o.agent}: ${what} made conversation ${id}`, { agent: o.agent, data: { conversation: id } });
  return id;
}
