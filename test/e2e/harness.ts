import { readFileSync, readdirSync } from "node:fs";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket } from "../helpers/tmp.ts";

export type RunResult = { code: number; stdout: string; stderr: string };

/** Run the binary headless on a private tmux socket (CI=true, no TTY). */
export async function runBinary(
  bin: string,
  args: string[],
  o: { cwd?: string; socket: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<RunResult> {
  const p = Bun.spawn([bin, ...args], {
    cwd: o.cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, CI: "true", AGENTMUX_TMUX_SOCKET: o.socket, TMUX: "", NO_COLOR: "1", ...o.env },
  });
  const timer = setTimeout(() => p.kill("SIGKILL"), o.timeoutMs ?? 90_000);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.toString().trim();
}

/** Processes whose command line mentions `needle` (left-behind agents, servers, orchestrators). */
export function processesMentioning(needle: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const text = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      if (text.includes(needle) && Number(pid) !== process.pid) out.push(`${pid} ${text}`);
    } catch {}
  }
  return out;
}

export function tmuxServerRunning(socket: string): boolean {
  return Bun.spawnSync(["tmux", "-L", socket, "list-sessions"], { stdout: "ignore", stderr: "ignore", env: { ...process.env, TMUX: "" } }).exitCode === 0;
}

export { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket };
