import { z } from "zod";

/** `runtime_state.json`: the tmux runtime's view (seed fields `tmux_session`, `panes`). */
export const RuntimeState = z.object({
  tmux_session: z.string(),
  tmux_socket: z.string().optional(),
  /** agent key (e.g. "architect", "coder:2") → tmux pane id ("%5") */
  panes: z.record(z.string(), z.string()),
  control_pane: z.string().optional(),
  visible: z.array(z.string()).optional(),
  pids: z.record(z.string(), z.number()).optional(),
  orchestrator_pid: z.number().optional(),
  /** agent key → "working" | "idle" (screen-derived, refreshed by the runtime) */
  activity: z.record(z.string(), z.string()).optional(),
});
export type RuntimeState = z.infer<typeof RuntimeState>;

/** `tool_event_state.json` (seeds/session-state-artifacts.txt). */
export const ToolEventState = z.object({
  applied_offset: z.number().int().min(0),
});
export type ToolEventState = z.infer<typeof ToolEventState>;
