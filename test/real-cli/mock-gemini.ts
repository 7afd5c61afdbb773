/**
 * Gemini `generateContent` / `streamGenerateContent?alt=sse`, as gemini-cli speaks it
 * (reference/real-cli-behaviour.md §3.5, §7): a non-streamed router request that wants JSON,
 * then the streamed turn with `tools[].functionDeclarations`.
 */
import { sampleForSchema, type TurnAnswer, type TurnInput } from "./mock-turns.ts";

export function geminiTurn(body: any): TurnInput {
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
  const offered = (Array.isArray(body?.tools) ? body.tools : []).flatMap((t: any) =>
    (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : []).map((f: any) => ({ name: String(f?.name ?? "") })),
  );
  const user = [...contents].reverse().find((c) => c?.role === "user");
  const parts: any[] = Array.isArray(user?.parts) ? user.parts : [];
  const textOf = (c: any): string =>
    (Array.isArray(c?.parts) ? c.parts : [])
      .filter((p: any) => typeof p?.text === "string")
      .map((p: any) => p.text as string)
      .at(-1) ?? "";
  const at = contents.findLastIndex((c) => c?.role === "user" && textOf(c).trim() && !(c.parts as any[]).some((p) => p?.functionResponse));
  const thread = {
    text: at >= 0 ? textOf(contents[at]) : "",
    toolResults: contents
      .slice(at + 1)
      .flatMap((c) => (c?.role === "user" && Array.isArray(c.parts) ? c.parts : []))
      .filter((p: any) => p?.functionResponse).length,
  };
  const response = parts.find((p) => p?.functionResponse);
  if (response) return { lastUserText: "", toolResult: JSON.stringify(response.functionResponse.response ?? {}), offered, thread };
  const texts = parts.filter((p) => typeof p?.text === "string").map((p) => p.text as string);
  return { lastUserText: texts.at(-1) ?? "", toolResult: null, offered, thread };
}

/** The JSON schema a non-chat request (router, next-speaker check) asks the answer to follow, if any. */
export function geminiJsonSchema(body: any): unknown {
  const g = body?.generationConfig ?? body?.config ?? {};
  return g.responseJsonSchema ?? g.responseSchema ?? null;
}

const candidate = (parts: unknown[], last: boolean) => ({
  candidates: [{ content: { role: "model", parts }, ...(last ? { finishReason: "STOP" } : {}), index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: "mock",
});

export function geminiResponse(answer: TurnAnswer, body: any, stream: boolean): Response {
  const schema = geminiJsonSchema(body);
  let parts: unknown[];
  if (schema && answer.kind === "text")
    parts = [{ text: JSON.stringify({ complexity_reasoning: "mock", complexity_score: 1, ...(sampleForSchema(schema) as object) }) }];
  else if (answer.kind === "text") parts = [{ text: answer.text }];
  else parts = [{ functionCall: { name: answer.tool.name, args: answer.args } }];
  if (!stream) return Response.json(candidate(parts, true));
  const frames = [`data: ${JSON.stringify(candidate(parts, true))}\r\n\r\n`];
  return new Response(frames.join(""), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
