import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { descendants, signalBelow } from "../../src/effects/process/tree.ts";
import { paneCommand } from "../../src/effects/tmux/session.ts";
import { scratch } from "../helpers/tmp.ts";
import { holdsFor, waitFor } from "../helpers/wait.ts";
import { parentOf, procState } from "../helpers/proc.ts";

/**
 * #14.2: the budget pause stops an agent in its tmux pane and the stop holds. tmux continues its
 * own child (the pane's shell) and that child's whole process group as soon as it sees it stop,
 * so the pause stops what runs below the shell, never the shell.
 */
let s = scratch();
afterEach(() => {
  s[Symbol.dispose]();
  s = scratch();
});

/** A private tmux server whose one pane runs `argv` the way agentmux starts an agent (paneCommand with an exits file). */
const servers = new Map<number, (...a: string[]) => string>();
const tmuxOf = (shell: number) => servers.get(shell)!;

async function pane(argv: string[]): Promise<{ shell: number; below: () => number[] }> {
  const socket = s.socket();
  const exitFile = join(s.dir("amx-tree-"), "exits");
  const tmux = (...a: string[]) =>
    Bun.spawnSync(["tmux", "-L", socket, "-f", "/dev/null", ...a], { env: { ...process.env, TMUX: "" } })
      .stdout.toString()
      .trim();
  tmux("new-session", "-d", "-x", "80", "-y", "24", paneCommand(argv, { exitFile }));
  const shell = Number(tmux("display-message", "-p", "#{pane_pid}"));
  expect(shell).toBeGreaterThan(0);
  servers.set(shell, tmux);
  const below = () => descendants(shell);
  await waitFor("the program running below the pane's shell", () => below().some((p) => procState(p) === "S"));
  return { shell, below };
}

/**
 * Every process stopped: "T", or a shell caught in vfork whose child was stopped before its exec
 * (it waits in "D" until the child goes on, and cannot run either; seen 1 run in 6 or 10).
 */
const allHalted = (procs: number[]) =>
  procs.every((p) => procState(p) === "T" || (procState(p) === "D" && procs.some((c) => parentOf(c) === p && procState(c) === "T")));

test("a stop of everything below the pane's shell holds, and SIGCONT lets it go on", async () => {
  const { shell, below } = await pane(["sh", "-c", "sleep 60 & sleep 60; wait"]);
  await waitFor("both sleeps started", () => below().length >= 3);
  const procs = below();
  expect(signalBelow(shell, "SIGSTOP")).toBe(procs.length);
  const stopped = () => allHalted(procs) && procState(shell) !== "T";
  await waitFor("every process below the shell stopped", stopped, { timeoutMs: 5000 });
  await holdsFor("every process below the shell stopped, the shell not", stopped, { forMs: 1000 });
  expect(signalBelow(shell, "SIGCONT")).toBe(procs.length);
  await waitFor("every process running again", () => procs.every((p) => procState(p) !== "T"));
});

test("why not the pane's process group: tmux continues it at once", async () => {
  const { shell, below } = await pane(["sleep", "60"]);
  const [program] = below();
  process.kill(-shell, "SIGSTOP");
  await waitFor("tmux continuing the stopped group", () => procState(program!) === "S" && procState(shell) === "S", { timeoutMs: 5000 });
});

test("a pane whose program has exited leaves nothing to signal (its shell reports the exit and ends); a gone root throws", async () => {
  const { shell, below } = await pane(["sh", "-c", "read x"]);
  expect(below().length).toBe(1);
  process.kill(below()[0]!, "SIGKILL");
  await waitFor("the pane's shell gone", () => procState(shell) === undefined || procState(shell) === "Z");
  const signalled = () => {
    try {
      return signalBelow(shell, "SIGSTOP");
    } catch (e) {
      return (e as NodeJS.ErrnoException).code ?? "?";
    }
  };
  // a zombie not yet reaped by tmux has nothing below it; once reaped, it is gone
  expect([0, "ESRCH"]).toContain(signalled());
  expect(() => signalBelow(2 ** 22 + 1, "SIGSTOP")).toThrow();
  expect(descendants(2 ** 22 + 1)).toEqual([]);
});

test("a stopped agent whose pane is killed (the run cancelled while paused) does not linger stopped", async () => {
  const { shell, below } = await pane(["sh", "-c", "sleep 60 & sleep 60; wait"]);
  await waitFor("both sleeps started", () => below().length >= 3);
  const procs = below();
  signalBelow(shell, "SIGSTOP");
  await waitFor("stopped", () => allHalted(procs));
  tmuxOf(shell)("kill-server");
  await waitFor("every stopped process gone", () => [shell, ...procs].every((p) => procState(p) === undefined || procState(p) === "Z"), { timeoutMs: 5000 });
});
