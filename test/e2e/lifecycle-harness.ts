import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { readState, sessionDir, spawnBinary } from "../fault/harness.ts";
import { makeTmpDir, privateSocket, type RunResult } from "./harness.ts";

export type Demo = { socket: string; root: string; repo: string; proc: ReturnType<typeof Bun.spawn>; done: Promise<RunResult> };

/** `agentmux demo --ci --json --keep-session` (`json: false`: text progress; slow enough to act in each phase) in a fresh temp dir. */
export function startSlowDemo(
  bin: string,
  o: { thinkMs?: number; extra?: string[]; keepSession?: boolean; json?: boolean; track: { sockets: string[]; dirs: string[] } },
): Demo {
  const socket = privateSocket();
  const root = makeTmpDir("amx-life-");
  o.track.sockets.push(socket);
  o.track.dirs.push(root);
  const repo = join(root, "repo");
  const args = [
    "demo",
    "--ci",
    ...(o.json === false ? [] : ["--json"]),
    ...(o.keepSession === false ? [] : ["--keep-session"]),
    "--dir",
    repo,
    "--think-ms",
    String(o.thinkMs ?? 250),
    ...(o.extra ?? []),
  ];
  return { socket, root, repo, ...spawnBinary(bin, args, { socket }) };
}

/** Wait until the run is in `phase` with its agents launched; returns the session folder. */
export function waitForPhase(repo: string, phase: string, timeoutMs = 60_000): Promise<string> {
  return waitFor(
    `the run to reach ${phase}`,
    () => {
      const d = sessionDir(repo);
      const s = d ? readState(d) : null;
      return s?.phase === phase && Object.keys(s.agents ?? {}).length ? d : null;
    },
    { timeoutMs, intervalMs: 10 },
  );
}
