import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, watch, type FSWatcher } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import type { Tmux } from "./runner.ts";
import { classifyTmuxStderr } from "./errors.ts";
import { PANE_LIVENESS } from "./formats.ts";

/**
 * The hook command. pane-died / pane-exited are window hooks in tmux 3.3 (a session hook is
 * never run for them), so they are installed globally on our server and each session names
 * its own exits file in the session option @amx_exits; sessions without it are skipped.
 * `#{q:…}` escapes the path for sh, `#{hook_pane}` is the pane that exited (the pane itself
 * is already gone for pane-exited). Single tmux quotes: nothing in it is expanded at parse time.
 */
export const EXIT_HOOK = `run-shell -b 'f=#{q:@amx_exits}; [ -n "$f" ] && echo "#{hook_pane}" >> "$f"; true'`;

/** Make tmux append the id of every pane of `session` that exits to `file`, at once. */
export async function installExitHooks(tmux: Tmux, session: string, file: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) writeFileAtomic(file, "");
  await tmux.run([
    "set-option",
    "-t",
    `=${session}:`,
    "@amx_exits",
    file,
    ";",
    "set-hook",
    "-g",
    "pane-died",
    EXIT_HOOK,
    ";",
    "set-hook",
    "-g",
    "pane-exited",
    EXIT_HOOK,
  ]);
}

/**
 * The fallback poll. Not only for panes that vanish without a hook: with tmux 3.3a under our
 * pane commands, about one exit in five left an unreaped zombie, so tmux never collected the
 * exit status and never ran pane-died although #{pane_dead} was already 1. The poll reports
 * those; one list-panes costs ~3 ms, so 500 ms bounds that case cheaply.
 */
export const DEFAULT_POLL_MS = 500;

export type ExitWatchOptions = {
  /** with tmux + session: the slow fallback poll for panes that vanish without a hook */
  tmux?: Tmux;
  session?: string;
  pollMs?: number;
  /** panes killed on purpose (Layout.isExpectedExit): never reported */
  expected?: (pane: string) => boolean;
  /**
   * The panes the caller runs (its live agents): the poll reports one that is gone even when no
   * earlier poll saw it alive (killed with kill-pane, which runs no hook, within a poll interval
   * of its start)
   */
  tracked?: () => Iterable<string>;
  /** also report ids already in the file (resume); default: only new lines */
  fromStart?: boolean;
};

export type ExitWatcher = {
  close(): void;
  /** read new hook lines now */
  drain(): void;
  /** run the fallback check now (also runs every pollMs) */
  poll(): Promise<void>;
};

/**
 * Report each exited pane once, as soon as its line lands in `file`: `%id` from the tmux hook,
 * `%id status` from the pane's own wrapper (paneCommand), so the exit status comes along.
 */
export function watchPaneExits(file: string, onExit: (paneId: string, status?: string) => void, opts: ExitWatchOptions = {}): ExitWatcher {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) writeFileAtomic(file, "");
  const fd = openSync(file, "r");
  let offset = opts.fromStart ? 0 : fstatSync(fd).size;
  let partial = "";
  const reported = new Set<string>();
  let closed = false;

  const report = (pane: string, status?: string) => {
    if (closed || reported.has(pane)) return;
    reported.add(pane);
    if (opts.expected?.(pane)) return;
    onExit(pane, status);
  };

  const drain = () => {
    if (closed) return;
    const size = fstatSync(fd).size;
    if (size < offset) offset = 0; // truncated: start over
    if (size === offset) return;
    const buf = Buffer.alloc(size - offset);
    const n = readSync(fd, buf, 0, buf.length, offset);
    offset += n;
    const lines = (partial + buf.subarray(0, n).toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const m = /^(%\d+)(?: (\d+))?$/.exec(line.trim());
      if (m) report(m[1]!, m[2]);
    }
  };

  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(file, () => drain());
  } catch {
    watcher = null; // the poll below still catches exits
  }

  const known = new Set<string>();
  let polling = false;
  const poll = async () => {
    drain();
    if (closed || !opts.tmux || !opts.session || polling) return;
    polling = true;
    try {
      // taken before the list: a pane started while the list is made is not in it, yet alive
      const tracked = [...(opts.tracked?.() ?? [])];
      const r = await opts.tmux.exec(["list-panes", "-s", "-t", `=${opts.session}`, "-F", PANE_LIVENESS.text]);
      if (closed) return;
      const alive = new Set<string>();
      if (r.code === 0) {
        for (const { pane, dead } of PANE_LIVENESS.parseLines(r.stdout)) {
          if (dead === "0") alive.add(pane);
          else if (dead === "1") report(pane); // kept by remain-on-exit: exited, whatever the hook did
        }
      } else if (!["session-not-found", "server-not-running"].includes(classifyTmuxStderr(r.stderr))) {
        return; // a transient tmux failure is not evidence that panes vanished
      }
      for (const pane of known) if (!alive.has(pane)) report(pane);
      for (const pane of tracked) if (!alive.has(pane)) report(pane);
      known.clear();
      for (const pane of alive) known.add(pane);
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll(), opts.pollMs ?? DEFAULT_POLL_MS);
  void poll();

  return {
    drain,
    poll,
    close() {
      if (closed) return;
      drain();
      closed = true;
      clearInterval(timer);
      watcher?.close();
      closeSync(fd);
    },
  };
}
