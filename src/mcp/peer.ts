import { descendants, isAtOrBelow } from "../effects/process/tree.ts";
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
  // a kept-alive connection (same client port) is resolved once: its socket, the process holding it, the tree it was under
  const byPort = new Map<number, { inode: number; pid: number; root: number }>();
  // processes found holding an agent's connections before: a new connection is most likely theirs
  const holders = new WeakMap<AgentLink, Set<number>>();
  return async (link, clientPort, serverPort) => {
    const deadline = Date.now() + (o.bindWaitMs ?? 10_000);
    while (link.rootPid === undefined && Date.now() < deadline) await Bun.sleep(o.pollMs ?? 20);
    const root = link.rootPid;
    if (root === undefined) return { ok: false, reason: `no process was started for ${link.identity.agent} yet` };
    // the same connection as before: its socket still held by the same process (a closed one's port may be reused)
    const cached = byPort.get(clientPort);
    if (cached && cached.root === root && socketHolder(cached.inode, [cached.pid]) === cached.pid) return { ok: true, pid: cached.pid };
    const inode = clientSocketInode(clientPort, serverPort);
    if (inode === null) return { ok: false, reason: `its connection (port ${clientPort}) is not listed in /proc/net/tcp` };
    const mine = holders.get(link) ?? new Set<number>();
    const before = [...mine].filter((p) => isAtOrBelow(p, root));
    const pid = socketHolder(inode, before) ?? socketHolder(inode, [root, ...descendants(root)]);
    if (pid === null) return { ok: false, reason: `it comes from a process outside ${link.identity.agent}'s process tree (pane process ${root})` };
    if (byPort.size > 256) byPort.clear();
    byPort.set(clientPort, { inode, pid, root });
    holders.set(link, new Set([...before, pid]));
    return { ok: true, pid };
  };
}
