import type { AgentInfo, State } from "../schema/state.ts";
import type { RuntimeState } from "../schema/runtime.ts";

export type AgentRow = { key: string; info: AgentInfo; status: AgentInfo["status"]; pane?: string };

/** Agents worth showing (not the ones that finished cleanly), with the runtime's live activity. */
export function agentRows(state: State, runtime?: RuntimeState): AgentRow[] {
  return Object.entries(state.agents ?? {})
    .filter(([, a]) => a.status !== "done")
    .map(([key, info]) => {
      const live = runtime?.activity?.[key];
      const status = (info.status === "working" || info.status === "idle") && (live === "working" || live === "idle") ? live : info.status;
      return { key, info, status, pane: runtime?.panes[key] };
    });
}

const hhmmOf = (iso: string) => new Date(iso).toTimeString().slice(0, 5);

/**
 * What a person should know about an agent, in one line: the question it asks, the limit it
 * waits out, the reminders it got, why it is stuck, how its last pane ended. Empty when nothing.
 */
export function agentNote(a: AgentInfo, status: AgentInfo["status"] = a.status): string {
  const restarts = a.restarts ? ` · restarted ${a.restarts}×` : "";
  switch (status) {
    case "needs_input":
      return `${a.question?.kind === "permission" ? "asks permission" : "asks"}: ${a.question?.text ?? a.note ?? ""}`;
    case "rate_limited":
      return `${a.limit?.reset_at ? `waits for the limit to reset at ${hhmmOf(a.limit.reset_at)}` : "waits out a usage limit"}${a.limit?.text ? `: ${a.limit.text}` : ""}`;
    case "idle_without_submit":
      return `ended its turn without its submit; reminded ${a.idle_turns ?? 1}×${a.refusal ? ` (last refusal: ${a.refusal})` : ""}`;
    case "stuck":
    case "exited":
      return (
        [a.note, a.exit_status ? `exit status ${a.exit_status}` : "", a.last_screen?.length ? `last screen: ${a.last_screen.at(-1)}` : ""]
          .filter(Boolean)
          .join(" · ") + restarts
      );
    default:
      return a.note ?? (restarts ? restarts.slice(3) : "");
  }
}
