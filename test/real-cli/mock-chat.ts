/**
 * OpenAI Chat Completions over SSE, as qwen, opencode and copilot (its own-endpoint mode) speak
 * it (reference/real-cli-behaviour.md §7): tools arrive as `{type:"function", function:{name}}`,
 * the model calls one with a streamed `tool_calls` delta, and the result comes back as a
 * `{role:"tool"}` message. A request that asks for JSON (`response_format`) gets JSON.
 */
import { sampleForSchema, type OfferedTool, type TurnAnswer, type TurnInput } from "./mock-turns.ts";

const contentText = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: any) => (typeof c?.text === "string" ? c.text : typeof c === "string" ? c : "")).join("\n");
};

function offeredTools(tools: unknown): OfferedTool[] {
  const out: OfferedTool[] = [];
  for (const t of Array.isArray(tools) ? tools : []) {
    const name = t?.function?.name ?? t?.name;
    if (typeof name === "string") out.push({ name });
  }
  return out;
}

/** copilot 1.0.102 puts `<current_datetime>…</current_datetime>` and a blank line before the user's text */
const userText = (content: unknown): string => contentText(content).replace(/^<current_datetime>[^<]*<\/current_datetime>\s*/, "");

export function chatTurn(body: any): TurnInput {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const offered = offeredTools(body?.tools);
  const at = messages.findLastIndex((m) => m?.role === "user" && userText(m.content).trim());
  const thread = { text: at >= 0 ? userText(messages[at].content) : "", toolResults: messages.slice(at + 1).filter((m) => m?.role === "tool").length };
  const last = messages.at(-1);
  if (last?.role === "tool") return { lastUserText: "", toolResult: contentText(last.content), offered, thread };
  return { lastUserText: thread.text, toolResult: null, offered, thread };
}

/** The JSON schema a structured-output request asks for, or null. */
export function chatJsonSchema(body: any): unknown | null {
  const f = body?.response_format;
  if (!f || typeof f !== "object") return null;
  return f.json_schema?.schema ?? (f.type === "json_object" ? {} : null);
}

export function chatResponse(answer: TurnAnswer, body: any): Response {
  const id = `chatcmpl-${crypto.randomUUID().slice(0, 8)}`;
  const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: body?.model ?? "mock-model" };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const schema = chatJsonSchema(body);
  const text = answer.kind === "text" && schema !== null ? JSON.stringify(sampleForSchema(schema)) : answer.kind === "text" ? answer.text : "";
  if (body?.stream !== true) {
    const message =
      answer.kind === "tool"
        ? {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: `call_${crypto.randomUUID().slice(0, 8)}`, type: "function", function: { name: answer.tool.name, arguments: JSON.stringify(answer.args) } },
            ],
          }
        : { role: "assistant", content: text };
    return Response.json({
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: answer.kind === "tool" ? "tool_calls" : "stop" }],
      usage,
    });
  }
  const frames: string[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    frames.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
  chunk({ role: "assistant", content: "" }, null);
  if (answer.kind === "tool") {
    const args = JSON.stringify(answer.args);
    const call = { index: 0, id: `call_${crypto.randomUUID().slice(0, 8)}`, type: "function", function: { name: answer.tool.name, arguments: "" } };
    chunk({ tool_calls: [call] }, null);
    // the arguments in two pieces, as real servers stream them
    const cut = Math.ceil(args.length / 2);
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, cut) } }] }, null);
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(cut) } }] }, null);
    chunk({}, "tool_calls");
  } else {
    chunk({ content: text }, null);
    chunk({}, "stop");
  }
  frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
  frames.push("data: [DONE]\n\n");
  return new Response(frames.join(""), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
