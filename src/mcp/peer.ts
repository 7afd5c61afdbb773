import { descendants } from "../effects/process/tree.ts";
import { clientSocketInode, socketHolder } from "../effects/process/tcp-peer.ts";
import type { AgentLink } from "./identity.ts";

/** Whether a request's connection comes from the agent its token names: the pid holding it, or why not. */
export type PeerVerdict = { ok: true; pid: number } | { ok: false; reason: string };

/** Checks one request's TCP peer (its client port on 127.0.0.1) against the link its token named. */
export type PeerCheck = (link: AgentLink, clientPort: number, serverPort: number) => Promise<PeerVerdict>;

/**
 * A token alone does not make a caller an agent: the connection must come from the agent's own
 * process tree — the pane process agentmux started it in (`rootPid`, bound at launch) or a process
 * below it (the CLI, its stdio bridge, a tool it runs). The client end of the loopback connection
 * is resolved to the process holding it (effects/process/tcp-peer.ts); a process anywhere else
 * that read the token (another agent, a script in another pane) is refused. A launch's pane pid is
 * bound just after its token is issued: a request that comes first waits for it up to `bindWaitMs`.
 */
export function processTreeCheck(o: { bindWaitMs?: number; pollMs?: number } = {}): PeerCheck {
  // a kept-alive connection is checked once: its socket, the process found holding it, the tree it was under
  const seen = new Map<number, { root: number; pid: number }>();
  return async (link, clientPort, serverPort) => {
    const deadline = Date.now() + (o.bindWaitMs ?? 10_000);
    while (link.rootPid === undefined && Date.now() < deadline) await Bun.sleep(o.pollMs ?? 20);
    const root = link.rootPid;
    if (root === undefined) return { ok: false, reason: `no process was started for ${link.identity.agent} yet` };
    const inode = clientSocketInode(clientPort, serverPort);
    if (inode === null) return { ok: false, reason: `its connection (port ${clientPort}) is not listed in /proc/net/tcp` };
    const known = seen.get(inode);
    if (known && known.root === root && socketHolder(inode, [known.pid]) === known.pid) return { ok: true, pid: known.pid };
    const pid = socketHolder(inode, [root, ...descendants(root)]);
    if (pid === null) return { ok: false, reason: `it comes from a process outside ${link.identity.agent}'s process tree (pane process ${root})` };
    if (seen.size > 256) seen.clear();
    seen.set(inode, { root, pid });
    return { ok: true, pid };
  };
}
