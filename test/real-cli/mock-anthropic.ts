/**
 * Anthropic Messages over SSE, as Claude Code speaks it (reference/real-cli-behaviour.md §7):
 * `POST /v1/messages?beta=true`; the conversation may end with a `system` message after the
 * user turn, and the user text block follows a `<system-reminder>` block.
 */
import type { TurnAnswer, TurnInput } from "./mock-turns.ts";

const textOf = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: any) => (typeof b === "string" ? b : b?.type === "text" ? String(b.text ?? "") : "")).join("\n");
};

export function anthropicTurn(body: any): TurnInput {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const user = [...messages].reverse().find((m) => m?.role === "user");
  const offered = (Array.isArray(body?.tools) ? body.tools : []).map((t: any) => ({ name: String(t?.name ?? "") }));
  if (!user) return { lastUserText: "", toolResult: null, offered };
  const thread = anthropicThread(messages);
  const blocks: any[] = Array.isArray(user.content) ? user.content : [{ type: "text", text: String(user.content ?? "") }];
  const result = blocks.find((b) => b?.type === "tool_result");
  if (result) return { lastUserText: "", toolResult: textOf(result.content), offered, thread };
  // the pasted prompt is the last text block that is not a system reminder
  const texts = blocks.filter((b) => b?.type === "text" && !String(b.text).startsWith("<system-reminder>"));
  return { lastUserText: String(texts.at(-1)?.text ?? ""), toolResult: null, offered, thread };
}

const userText = (m: any): string =>
  (Array.isArray(m?.content) ? m.content : [{ type: "text", text: String(m?.content ?? "") }])
    .filter((b: any) => b?.type === "text" && !String(b.text).startsWith("<system-reminder>"))
    .map((b: any) => String(b.text))
    .at(-1) ?? "";

/** The last user text in the conversation and how many tool results came after it. */
function anthropicThread(messages: any[]): { text: string; toolResults: number } {
  let toolResults = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    const blocks: any[] = Array.isArray(m.content) ? m.content : [];
    toolResults += blocks.filter((b) => b?.type === "tool_result").length;
    const text = userText(m);
    if (text.trim()) return { text, toolResults };
  }
  return { text: "", toolResults };
}

export function anthropicResponse(answer: TurnAnswer, body: any): Response {
  const id = `msg_${crypto.randomUUID().slice(0, 8)}`;
  const frames: string[] = [];
  const send = (type: string, data: Record<string, unknown>) => frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model: body?.model ?? "mock",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  send("ping", {});
  if (answer.kind === "text") {
    send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    send("content_block_delta", { index: 0, delta: { type: "text_delta", text: answer.text } });
    send("content_block_stop", { index: 0 });
  } else {
    const toolId = `toolu_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
    send("content_block_start", { index: 0, content_block: { type: "tool_use", id: toolId, name: answer.tool.name, input: {} } });
    send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(answer.args) } });
    send("content_block_stop", { index: 0 });
  }
  send("message_delta", { delta: { stop_reason: answer.kind === "tool" ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 12 } });
  send("message_stop", {});
  return new Response(frames.join(""), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
