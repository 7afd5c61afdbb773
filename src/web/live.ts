import { existsSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { F, sessionsRoot } from "../protocol/paths.ts";
import { events } from "../report/events.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";
import { logFrom, runDir, runSummary, runView, SESSION_ID, type RunKey } from "./source.ts";

/**
 * Server-sent events: the page never polls. The server watches the session folders of its
 * projects (a change notification, and a one-second check of each session's state, runtime and
 * log for what a notification missed — and for a run whose tmux session went away), and sends
 * each client the run API's new snapshot of a run that changed with the run API's events since
 * the last one (`run`), and to a client that follows one run, the log lines it has not seen (`log`).
 */
export type Client = {
  send(event: string, data: unknown): void;
  /** the run this client shows (its log is sent too), null for the list */
  follows: RunKey | null;
  /** the byte of the log it reads from next (null: it has seen none: it gets the log's end) */
  logNext: number | null;
};

const signature = (dir: string) =>
  [F.state, F.runtime, F.orchestratorLog]
    .map((f) => {
      try {
        const st = statSync(join(dir, f));
        return `${st.mtimeMs}:${st.size}`;
      } catch {
        return "-";
      }
    })
    .join("|");

export class LiveRuns {
  private clients = new Set<Client>();
  private watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private debounce: ReturnType<typeof setTimeout> | null = null;
  private seen = new Map<string, string>();
  private liveness = new Map<string, boolean>();
  private last = new Map<string, RunSnapshot>();
  private busy = false;

  constructor(
    private readonly projects: readonly string[],
    private readonly pollMs = 1000,
  ) {}

  start(): void {
    for (const project of this.projects) {
      const root = sessionsRoot(project);
      if (!existsSync(root)) continue; // the poll finds sessions made later
      try {
        const w = watch(root, { recursive: true }, () => this.soon());
        w.on("error", () => {});
        this.watchers.push(w);
      } catch {
        // no notifications here: the poll alone
      }
    }
    this.timer = setInterval(() => void this.scan(true), this.pollMs);
    void this.scan(false);
  }

  stop(): void {
    this.watchers.forEach((w) => w.close());
    if (this.timer) clearInterval(this.timer);
    if (this.debounce) clearTimeout(this.debounce);
  }

  add(c: Client): () => void {
    this.clients.add(c);
    return () => this.clients.delete(c);
  }

  private soon(): void {
    if (this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.scan(false);
    }, 50);
  }

  private keys(): RunKey[] {
    const out: RunKey[] = [];
    for (const [project, dir] of this.projects.entries()) {
      let names: string[] = [];
      try {
        names = readdirSync(sessionsRoot(dir));
      } catch {}
      for (const id of names) if (SESSION_ID.test(id)) out.push({ project, id });
    }
    return out;
  }

  /** Send what changed since the last scan; `checkLiveness`: also ask tmux whether each live run still is. */
  private async scan(checkLiveness: boolean): Promise<void> {
    if (this.busy) return this.soon();
    this.busy = true;
    try {
      for (const key of this.keys()) {
        const dir = runDir(this.projects, key);
        if (!dir) continue;
        const name = `${key.project}/${key.id}`;
        const sig = signature(dir);
        const changed = this.seen.get(name) !== sig;
        if (!changed && !(checkLiveness && this.liveness.get(name))) continue;
        const s = await runSummary(this.projects, key);
        if (!s || !s.state) continue;
        if (!changed && this.liveness.get(name) === s.live) continue;
        this.seen.set(name, sig);
        this.liveness.set(name, s.live);
        let run;
        try {
          run = runView(key.project, s);
        } catch {
          continue; // mid-replace: the next change or poll sends it
        }
        // a run first seen has no events: its snapshot (its timeline) already says what happened
        const prev = this.last.get(name);
        const happened = prev ? events(prev, run.snapshot) : [];
        this.last.set(name, run.snapshot);
        for (const c of this.clients) {
          c.send("run", { ...run, events: happened });
          if (c.follows && c.follows.project === key.project && c.follows.id === key.id) this.sendLog(c, dir);
        }
      }
    } finally {
      this.busy = false;
    }
  }

  /** The log lines `c` has not seen yet. */
  sendLog(c: Client, dir: string): void {
    const { lines, next, reset } = logFrom(dir, c.logNext);
    c.logNext = next;
    if (lines.length || reset) c.send("log", { lines, reset });
  }
}
