import { createIssueComment, updateIssueComment } from "../../effects/gh.ts";
import type { Runner } from "../../effects/git/proc.ts";

/**
 * The one progress comment of a run: created on the first show, edited afterwards, and only
 * when its text changed. Calls never overlap, and a failing call is logged, never fatal: the
 * run matters more than its report.
 */
export class ProgressComment {
  private id: number | null = null;
  private last = "";
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly o: { repo: string; issue: number | null; log: (line: string) => void; run?: Runner }) {}

  show(body: string): Promise<void> {
    this.queue = this.queue.then(() => this.send(body));
    return this.queue;
  }

  private async send(body: string): Promise<void> {
    if (this.o.issue === null || body === this.last) return;
    try {
      if (this.id === null) {
        this.id = (await createIssueComment(this.o.repo, this.o.issue, body, this.o.run)).id;
      } else await updateIssueComment(this.o.repo, this.id, body, this.o.run);
      this.last = body;
    } catch (e) {
      this.o.log(`agentmux: could not ${this.id === null ? "create" : "update"} the progress comment: ${(e as Error).message}`);
    }
  }
}

/** Re-render and show the comment every `intervalMs` until stopped; stop() waits for a call in flight. */
export function keepShowing(comment: ProgressComment, render: () => string, intervalMs: number): { stop: () => Promise<void> } {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void comment.show(render()).finally(() => (busy = false));
  }, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await comment.show(render());
    },
  };
}
