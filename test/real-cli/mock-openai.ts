/**
 * OpenAI Responses over SSE, as codex speaks it through a custom `model_providers` entry
 * (reference/real-cli-behaviour.md §2.5, §7): MCP tools arrive as a `namespace` tool, and the
 * model calls one with a `function_call` item naming that namespace.
 */
import type { OfferedTool, TurnAnswer, TurnInput } from "./mock-turns.ts";

const contentText = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: any) => (typeof c?.text === "string" ? c.text : typeof c === "string" ? c : "")).join("\n");
};

function offeredTools(tools: unknown): OfferedTool[] {
  const out: OfferedTool[] = [];
  for (const t of Array.isArray(tools) ? tools : []) {
    if (t?.type === "namespace" && Array.isArray(t.tools))
      for (const inner of t.tools) out.push({ name: String(inner?.name ?? ""), namespace: String(t.name) });
    else if (typeof t?.name === "string") out.push({ name: t.name });
  }
  return out;
}

export function openaiTurn(body: any): TurnInput {
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  const offered = offeredTools(body?.tools);
  const last = input.at(-1);
  const at = input.findLastIndex((i) => i?.role === "user" && contentText(i.content).trim());
  const thread = {
    text: at >= 0 ? contentText(input[at].content) : "",
    toolResults: input.slice(at + 1).filter((i) => i?.type === "function_call_output").length,
  };
  if (last?.type === "function_call_output") return { lastUserText: "", toolResult: contentText(last.output), offered, thread };
  const user = [...input].reverse().find((i) => i?.role === "user");
  return { lastUserText: user ? contentText(user.content) : "", toolResult: null, offered, thread };
}

export function openaiResponse(answer: TurnAnswer, body: any): Response {
  const id = `resp_${crypto.randomUUID().slice(0, 8)}`;
  const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model: body?.model ?? "mock-model" };
  let seq = 0;
  const frames: string[] = [];
  const ev = (type: string, data: Record<string, unknown>) =>
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  ev("response.created", { response: { ...base, status: "in_progress", output: [] } });
  ev("response.in_progress", { response: { ...base, status: "in_progress", output: [] } });
  let item: Record<string, unknown>;
  if (answer.kind === "text") {
    const part = { type: "output_text", text: answer.text, annotations: [] };
    const ids = { output_index: 0, item_id: "msg_1", content_index: 0 };
    ev("response.output_item.added", { output_index: 0, item: { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] } });
    ev("response.content_part.added", { ...ids, part: { ...part, text: "" } });
    ev("response.output_text.delta", { ...ids, delta: answer.text });
    ev("response.output_text.done", { ...ids, text: answer.text });
    ev("response.content_part.done", { ...ids, part });
    item = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [part] };
  } else {
    const args = JSON.stringify(answer.args);
    const call = {
      type: "function_call",
      id: "fc_1",
      call_id: `call_${crypto.randomUUID().slice(0, 8)}`,
      name: answer.tool.name,
      ...(answer.tool.namespace ? { namespace: answer.tool.namespace } : {}),
    };
    ev("response.output_item.added", { output_index: 0, item: { ...call, arguments: "", status: "in_progress" } });
    ev("response.function_call_arguments.delta", { output_index: 0, item_id: "fc_1", delta: args });
    ev("response.function_call_arguments.done", { output_index: 0, item_id: "fc_1", arguments: args });
    item = { ...call, arguments: args, status: "completed" };
  }
  ev("response.output_item.done", { output_index: 0, item });
  ev("response.completed", {
    response: {
      ...base,
      status: "completed",
      output: [item],
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    },
  });
  return new Response(frames.join(""), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
