import { z } from "zod";

/** One line of `.runtime/tool_calls.jsonl`: an agent called an agentmux tool (accepted or refused). */
export const ToolCallLine = z.object({
  agent: z.string().min(1),
  tool: z.string().min(1),
  ok: z.boolean(),
  at: z.string(),
  /** the refusal's first lines */
  message: z.string().optional(),
});
export type ToolCallLine = z.infer<typeof ToolCallLine>;
