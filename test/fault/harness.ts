import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { releaseFile } from "../../src/sim/scenario.ts";
import { stringify } from "yaml";
import { waitFor } from "../helpers/wait.ts";
import { git, makeTmpDir, privateSocket, type RunResult } from "../e2e/harness.ts";

/** One demo run on its own tmux socket and scratch repo, started in the background. */
export type Run = {
  socket: string;
  repo: string;
  extraConfig: string | null;
  proc: ReturnType<typeof Bun.spawn>;
  done: Promise<RunResult>;
};

export const env = (socket: string, extra: Record<string, string> = {}) => ({
  ...process.env,
  CI: "true",
  AGENTMUX_TMUX_SOCKET: socket,
  TMUX: "",
  NO_COLOR: "1",
  ...extra,
});

/** Spawn a binary headless and collect its output; SIGKILL after `timeoutMs`. */
export function spawnBinary(bin: string, args: string[], o: { cwd?: string; socket: string; timeoutMs?: number }) {
  const proc = Bun.spawn([bin, ...args], { cwd: o.cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: env(o.socket) });
  const timer = setTimeout(() => proc.kill("SIGKILL"), o.timeoutMs ?? 120_000);
  const done = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]).then(([stdout, stderr, code]) => {
    clearTimeout(timer);
    return { code, stdout, stderr } as RunResult;
  });
  return { proc, done };
}

/** `agentmux demo --ci --json --keep-session` in a fresh scratch repo. */
export function startDemo(bin: string, o: { scenario: string; thinkMs: number; config?: object; sockets: string[]; dir?: string }): Run {
  const socket = privateSocket();
  o.sockets.push(socket);
  const root = makeTmpDir("amx-fault-");
  const repo = o.dir ?? join(root, "repo");
  let extraConfig: string | null = null;
  const args = ["demo", "--ci", "--json", "--keep-session", "--dir", repo, "--scenario", o.scenario, "--think-ms", String(o.thinkMs)];
  if (o.config) {
    extraConfig = join(root, "extra.yaml");
    writeFileSync(extraConfig, stringify(o.config));
    args.push("--config", extraConfig);
  }
  const { proc, done } = spawnBinary(bin, args, { socket });
  return { socket, repo, extraConfig, proc, done };
}

export function sessionDir(repo: string): string | null {
  const dir = join(repo, ".agentmux", ".sessions");
  if (!existsSync(dir)) return null;
  const id = readdirSync(dir).find((n) => !n.startsWith(".")); // .archive is not a session
  return id ? join(dir, id) : null;
}

/** state.json as it is now (null while missing); it is written atomically, so it always parses. */
export function readState(dir: string): any | null {
  const p = join(dir, "state.json");
  return existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : null;
}

export function toolLines(dir: string): any[] {
  const p = join(dir, "tool_events.jsonl");
  if (!existsSync(p)) return [];
  return readFileSync(p, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

export function orchestratorPid(dir: string): number | null {
  try {
    const pid = parseInt(readFileSync(join(dir, ".runtime/orchestrator.pid"), "utf8"), 10); // "<pid> <start token>"
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

/** Let the sim agents held on these prompts (the `hold=` scenario switch) go on. */
export function release(dir: string, names: string[]): void {
  for (const name of names) {
    mkdirSync(dirname(releaseFile(dir, name)), { recursive: true });
    writeFileSync(releaseFile(dir, name), "");
  }
}

/** Wait for the session folder, then for `when(state, dir)`; polls every 5 ms to catch short windows. */
export async function waitForState(run: Run, what: string, when: (s: any, dir: string) => boolean, timeoutMs = 90_000): Promise<{ dir: string; state: any }> {
  return waitFor(
    what,
    () => {
      const dir = sessionDir(run.repo);
      const state = dir ? readState(dir) : null;
      return dir && state && when(state, dir) ? { dir, state } : null;
    },
    { timeoutMs, intervalMs: 5 },
  );
}

export function tmux(socket: string, ...args: string[]): { code: number; out: string } {
  const r = Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe", env: { ...process.env, TMUX: "" } });
  return { code: r.exitCode ?? 1, out: r.stdout.toString() };
}

/** Titles of the panes of every tmux session on the socket (the sim sets "sim: working" / "sim: idle"). */
export function paneTitles(socket: string): string[] {
  const r = tmux(socket, "list-panes", "-a", "-F", "#{pane_title}");
  return r.code === 0 ? r.out.split("\n").filter(Boolean) : [];
}

/**
 * After the orchestrator died, the agents it had started go on working and report through the
 * MCP server; wait until none of them is working (two polls in a row), so what they finished
 * is on disk and nothing is half done when `resume` closes their panes.
 */
export async function waitAgentsSettled(socket: string, timeoutMs = 60_000): Promise<void> {
  let quiet = 0;
  await waitFor(
    "the orphaned agents to finish their work",
    () => {
      quiet = paneTitles(socket).some((t) => t === "sim: working") ? 0 : quiet + 1;
      return quiet >= 3;
    },
    { timeoutMs, intervalMs: 150 },
  );
}

/** `git fsck --strict` of the repository: every fault test that touches it ends with this. */
export function fsckProblems(repo: string): string {
  const r = Bun.spawnSync(["git", "fsck", "--strict", "--no-dangling"], { cwd: repo, stdout: "pipe", stderr: "pipe" });
  return r.exitCode === 0 ? "" : `git fsck --strict failed (${r.exitCode}): ${r.stdout.toString()}${r.stderr.toString()}`.trim();
}

export const branchTree = (repo: string, branch: string) => git(repo, "rev-parse", `${branch}^{tree}`);

/** Every JSON / JSONL / YAML file under the session folder must parse (no half-written file). */
export function unparsableFiles(dir: string): string[] {
  const { parse } = require("yaml") as typeof import("yaml");
  const bad: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const text = readFileSync(p, "utf8");
        try {
          if (e.name.endsWith(".json")) JSON.parse(text);
          else if (e.name.endsWith(".jsonl"))
            text
              .split("\n")
              .filter((l) => l.trim())
              .forEach((l) => JSON.parse(l));
          else if (/\.ya?ml$/.test(e.name)) parse(text);
          else if (/^done_\d+$/.test(e.name)) JSON.parse(text);
          else continue;
        } catch (err) {
          bad.push(`${p}: ${(err as Error).message}`);
        }
      }
    }
  };
  walk(dir);
  return bad;
}

export const jsonEvents = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
