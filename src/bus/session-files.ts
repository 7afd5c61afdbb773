import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import { join } from "node:path";
import type { Event } from "../schema/events.ts";
import { F } from "../protocol/paths.ts";
import { peekCancelRequest, takeCancelRequest } from "../session/cancel.ts";
import { panelRequested, takePanelRequest } from "../session/panel-request.ts";
import { budgetGoOnRequested, takeBudgetGoOn } from "../session/budget-request.ts";
import { peekAnswerRequest, takeAnswerRequest } from "../session/answer-request.ts";
import { cancelCause } from "../schema/cancel-request.ts";
import { parseFileText } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import type { Logger } from "../effects/log.ts";
import { EarliestWake } from "../effects/wake.ts";

type Spec = { path: string; stable: boolean; decision?: boolean; toEvent: (text: string, at: string) => Event | string };

/**
 * Requests that are consumed when applied (claimed atomically, so each fires exactly once).
 * A request is taken once it is valid, or once it has stayed invalid for `INVALID_AFTER_MS`
 * (a writer that does not write atomically may still be writing it).
 */
type Claimed = { path: string; peek: (sessionDir: string) => "none" | "valid" | "invalid"; take: (sessionDir: string, at: string) => Event | null };
const INVALID_AFTER_MS = 1000;

const SPECS: Spec[] = [
  { path: F.design, stable: true, toEvent: (t, at) => (t.trim() ? { type: "design_written", at } : "design.md is empty") },
  { path: F.summary, stable: true, toEvent: (t, at) => (t.trim() ? { type: "summary_written", at } : "summary.md is empty") },
  { path: F.changes, stable: true, decision: true, toEvent: (t, at) => (t.trim() ? { type: "changes_written", at, text: t } : "changes.md is empty") },
  {
    path: F.approval,
    stable: false,
    decision: true,
    toEvent: (t, at) => {
      const r = parseFileText(SESSION_FILES.approval, t);
      return r.ok
        ? { type: "approval_written", at, approval: r.value }
        : `approval.json: ${r.problems.map((p) => `${p.path || "(root)"}: ${p.message}`).join("; ")}`;
    },
  },
];

const CLAIMED: Claimed[] = [
  {
    path: SESSION_FILES.cancelRequest.path,
    peek: peekCancelRequest,
    take: (dir, at) => {
      const taken = takeCancelRequest(dir);
      return taken ? { type: "cancel", at, reason: cancelCause(taken.request) } : null;
    },
  },
  {
    path: F.panelRequest,
    peek: (dir) => (panelRequested(dir) ? "valid" : "none"),
    take: (dir, at) => (takePanelRequest(dir) ? { type: "panel_requested", at } : null),
  },
  {
    path: F.budgetGoOn,
    peek: (dir) => (budgetGoOnRequested(dir) ? "valid" : "none"),
    take: (dir, at) => (takeBudgetGoOn(dir) ? { type: "budget_go_on", at } : null),
  },
  {
    path: SESSION_FILES.answerRequest.path,
    peek: peekAnswerRequest,
    take: (dir, at) => {
      const r = takeAnswerRequest(dir);
      return r ? { type: "agent_answer", at, agent: r.agent, question_at: r.question_at, text: r.text } : null;
    },
  },
];

/**
 * Watches the session files that complete a step. Markdown fires once it is non-empty and has
 * not changed for `stableMs` (an agent may still be writing); JSON fires once it validates.
 * Each version of a file (mtime + size) fires at most once; files present at start fire too.
 * Requests (the cancel request) are consumed when they fire: a resumed run never sees the
 * request that stopped the run before.
 */
export class SessionFileWatcher {
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** the one check due when a file that is being waited on will have been stable for `stableMs` */
  private readonly wake = new EarliestWake(() => this.check(), Date.now);
  private seen = new Map<string, { key: string; since: number }>();
  private fired = new Map<string, string>();
  private complained = new Set<string>();
  private invalidSince = new Map<string, number>();
  /** a new version of design.md or summary.md was seen (its writer's turn is probably ending) */
  onNewVersion: (path: string) => void = () => {};

  constructor(
    private readonly sessionDir: string,
    private readonly emit: (e: Event) => void,
    private readonly log: Logger,
    private readonly stableMs = 300,
    /**
     * Whether the run takes a decision (approval.json, changes.md) now. One written earlier
     * stays on disk unfired and is picked up as soon as the run waits for it.
     */
    private readonly decisionsOpen: () => boolean = () => true,
    /** the safety poll (a missed or unavailable file-change notification) */
    private readonly pollMs = 250,
  ) {}

  start(): void {
    try {
      this.watcher = watch(this.sessionDir, { recursive: true }, () => this.check());
      this.watcher.on("error", () => {}); // the folder deleted: the poll goes on, the daemon notices
    } catch (e) {
      this.log(`file watch unavailable (${(e as Error).message}); polling only`, { level: "warn" });
    }
    this.timer = setInterval(() => this.check(), this.pollMs);
    this.check();
  }

  stop(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    this.wake.cancel();
  }

  /** Check again at `at` (Date.now() time): a file turns stable without a change to notify it. */
  private wakeAt(at: number): void {
    if (this.timer) this.wake.at(at);
  }

  /**
   * The agent that owes this file ended its turn with it written: it is not being written any
   * more, so its current version fires now (checked as usual) instead of after `stableMs`.
   */
  finished(path: string): void {
    const spec = SPECS.find((s) => s.path === path);
    if (!spec?.stable) return;
    let key: string;
    try {
      const st = statSync(join(this.sessionDir, path));
      key = `${st.mtimeMs}:${st.size}`;
    } catch {
      return;
    }
    this.seen.set(path, { key, since: Date.now() - this.stableMs });
    this.check();
  }

  /** Forget that a file fired (used when the orchestrator itself deleted it). */
  reset(path: string): void {
    this.fired.delete(path);
    this.seen.delete(path);
  }

  check(): void {
    const now = Date.now();
    for (const c of CLAIMED) {
      const seen = c.peek(this.sessionDir);
      if (seen === "none") {
        this.invalidSince.delete(c.path);
        continue;
      }
      if (seen === "invalid") {
        const since = this.invalidSince.get(c.path) ?? now;
        this.invalidSince.set(c.path, since);
        if (now - since < INVALID_AFTER_MS) continue;
      }
      this.invalidSince.delete(c.path);
      const event = c.take(this.sessionDir, new Date().toISOString());
      if (event) this.emit(event);
    }
    for (const spec of SPECS) {
      if (spec.decision && !this.decisionsOpen()) continue;
      const abs = join(this.sessionDir, spec.path);
      if (!existsSync(abs)) {
        this.seen.delete(spec.path);
        this.fired.delete(spec.path);
        continue;
      }
      let key: string;
      try {
        const st = statSync(abs);
        key = `${st.mtimeMs}:${st.size}`;
      } catch {
        continue;
      }
      if (this.fired.get(spec.path) === key) continue;
      const prev = this.seen.get(spec.path);
      if (!prev || prev.key !== key) {
        this.seen.set(spec.path, { key, since: now });
        if (spec.stable) {
          this.onNewVersion(spec.path);
          this.wakeAt(now + this.stableMs);
          continue;
        }
      } else if (spec.stable && now - prev.since < this.stableMs) {
        this.wakeAt(prev.since + this.stableMs);
        continue;
      }
      // agents write these: a FIFO or a device in their place must not block the orchestrator
      const read = readRegularFile(abs);
      const result = read.ok ? spec.toEvent(read.text, new Date().toISOString()) : `${spec.path} ${read.message}`;
      if (typeof result === "string") {
        if (!this.complained.has(`${spec.path}@${key}`)) this.log(`waiting for a valid ${spec.path}: ${result}`);
        this.complained.add(`${spec.path}@${key}`);
        continue;
      }
      this.fired.set(spec.path, key);
      this.emit(result);
    }
  }
}
