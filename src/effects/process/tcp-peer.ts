import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * Which local process holds the client end of a loopback TCP connection, on Linux: the socket's
 * inode from /proc/net/tcp (tcp6 too), then the process among `candidates` with an open file
 * descriptor on `socket:[inode]`. The candidates are the processes allowed to hold it (an agent's
 * process tree): only their descriptors are read, never every process's.
 */

/** True where /proc/net/tcp can be read (Linux): the peer can be resolved at all. */
export function tcpPeersResolvable(): boolean {
  try {
    readFileSync("/proc/net/tcp", "utf8");
    return true;
  } catch {
    return false;
  }
}

const hexPort = (address: string): number => Number.parseInt(address.slice(address.lastIndexOf(":") + 1), 16);

/**
 * The inode of the socket whose local port is `clientPort` and whose remote port is `serverPort`
 * (the connecting side, as the kernel of this network namespace lists it), or null when none is
 * listed (the connection closed) or its inode is 0 (a socket in TIME_WAIT has no owner).
 */
export function clientSocketInode(clientPort: number, serverPort: number): number | null {
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      if (hexPort(f[1]!) !== clientPort || hexPort(f[2]!) !== serverPort) continue;
      const inode = Number(f[9]);
      return inode > 0 ? inode : null;
    }
  }
  return null;
}

/** The first of `pids` holding a descriptor on socket `inode`, or null. A process gone in between is skipped. */
export function socketHolder(inode: number, pids: readonly number[]): number | null {
  const want = `socket:[${inode}]`;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === want) return pid;
      } catch {
        /* closed in between */
      }
    }
  }
  return null;
}

/**
 * The pids a process has in each pid namespace it is in, outermost (this one) first: a process in
 * a sandbox's own pid namespace knows itself by the last (/proc/<pid>/status NSpid). Just [pid]
 * where the kernel does not say.
 */
export function namespacePids(pid: number): number[] {
  try {
    const line = /^NSpid:\s*(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    const pids = (line ?? "").trim().split(/\s+/).filter(Boolean).map(Number);
    return pids.length ? pids : [pid];
  } catch {
    return [pid];
  }
}
