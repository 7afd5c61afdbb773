/**
 * One mock model server on 127.0.0.1 (random port) for the real-CLI suite. It speaks
 * Anthropic Messages SSE (claude), OpenAI Responses SSE (codex), Gemini
 * generateContent / streamGenerateContent SSE (gemini) and OpenAI Chat Completions SSE (qwen,
 * opencode, copilot), answers per mock-turns.ts, and logs
 * every request as one JSONL line so tests can assert what each CLI sent.
 *
 * Run alone for manual checks: `bun test/real-cli/mock-server.ts <log.jsonl>` prints the URL.
 */
import { appendFileSync } from "node:fs";
import { anthropicResponse, anthropicTurn } from "./mock-anthropic.ts";
import { geminiJsonSchema, geminiResponse, geminiTurn } from "./mock-gemini.ts";
import { openaiResponse, openaiTurn } from "./mock-openai.ts";
import { chatJsonSchema, chatResponse, chatTurn } from "./mock-chat.ts";
import {
  CONTINUE_RE,
  decideTurn,
  findOffered,
  HOLD_MARKER,
  MOCK_QUESTION,
  PROMPT_REFERENCE_RE,
  REMINDER_RE,
  type MockBehaviour,
  type TurnAnswer,
  type TurnInput,
} from "./mock-turns.ts";
import { where, worksFor, writeCall } from "./mock-work.ts";

export type Api = "anthropic" | "openai" | "gemini" | "chat" | "other";

/** One logged request (also one line of the JSONL log). */
export type MockRequest = {
  seq: number;
  t: string;
  method: string;
  url: string;
  ua: string;
  api: Api;
  /** a chat turn the model answers (not a title, router or count request) */
  turn: boolean;
  lastUserText: string;
  toolResult: string | null;
  offered: string[];
  answer: TurnAnswer | null;
  body: unknown;
};

export type MockServer = {
  url: string;
  port: number;
  requests: MockRequest[];
  /** the chat-turn requests whose pasted prompt contains `marker` */
  turnsWith(marker: string): MockRequest[];
  stop(): void;
};

const notFound = () =>
  new Response(JSON.stringify({ error: { message: "mock: no such endpoint" } }), { status: 404, headers: { "content-type": "application/json" } });

function route(method: string, url: URL): { api: Api; stream: boolean } {
  const p = url.pathname;
  if (method === "POST" && /\/v1\/messages$/.test(p)) return { api: "anthropic", stream: true };
  if (method === "POST" && /\/responses$/.test(p)) return { api: "openai", stream: true };
  if (method === "POST" && /\/chat\/completions$/.test(p)) return { api: "chat", stream: true };
  if (method === "POST" && /\/models\/[^/]+:streamGenerateContent$/.test(p)) return { api: "gemini", stream: true };
  if (method === "POST" && /\/models\/[^/]+:generateContent$/.test(p)) return { api: "gemini", stream: false };
  return { api: "other", stream: false };
}

function otherResponse(method: string, url: URL): Response {
  const p = url.pathname;
  if (method === "POST" && p.endsWith("/messages/count_tokens")) return Response.json({ input_tokens: 10 });
  if (method === "POST" && p.endsWith(":countTokens")) return Response.json({ totalTokens: 10 });
  if (method === "GET" && /\/models\/?$/.test(p))
    return Response.json({ object: "list", data: [{ id: "mock-model", object: "model", created: 0, owned_by: "mock" }] });
  if (method === "HEAD" || method === "GET") return new Response(method === "HEAD" ? null : "mock model server", { status: 200 });
  return notFound();
}

/** HTTP 429 in each API's error shape, saying when to try again. */
function rateLimited(api: Api): Response {
  const message = "Rate limit reached for requests. Please try again in 2s.";
  const body =
    api === "anthropic"
      ? { type: "error", error: { type: "rate_limit_error", message } }
      : api === "gemini"
        ? { error: { code: 429, message, status: "RESOURCE_EXHAUSTED" } }
        : { error: { message, type: "rate_limit_exceeded", code: "rate_limit_exceeded" } };
  return new Response(JSON.stringify(body), { status: 429, headers: { "content-type": "application/json" } });
}

const pathOf = (ref: string) => (ref.startsWith('"') ? (JSON.parse(ref) as string) : ref);

/**
 * behaviour.work: the answer for a turn of a prompt's conversation — its next file write, then
 * its submit tool, then text — counted by the tool results since the prompt. Each prompt's steps
 * are fixed when the model first sees it. Null: not a prompt with work (decideTurn answers).
 */
function workAnswers(behaviour: MockBehaviour) {
  const steps = new Map<string, TurnAnswer[]>();
  let forgot = false;
  /** the prompt reference a question was asked about, until the question is answered */
  let asked: { prompt: string; path: string } | null = null;
  /** the prompt file each submit tool was last asked for, so a reminder naming it redoes that work */
  const promptOf = new Map<string, string>();
  return (input: TurnInput): TurnAnswer | null => {
    const text = input.thread?.text ?? "";
    if (!behaviour.work) return null;
    const reminder = REMINDER_RE.exec(text);
    const ref = reminder ? null : (PROMPT_REFERENCE_RE.exec(text) ?? CONTINUE_RE.exec(text));
    let path = ref ? pathOf(ref[1]!) : reminder ? (promptOf.get(reminder[1]!) ?? null) : null;
    if (reminder && !path) return null;
    const wo = { failFirstReview: !!behaviour.failFirstReview };
    const tool = ref && worksFor(path!, wo)?.find((w) => w.submit)?.submit?.tool;
    if (tool) promptOf.set(tool, path!);
    if (ref && behaviour.askOf?.test(path!) && !asked && input.toolResult === null && input.thread!.toolResults === 0) {
      asked = { prompt: text, path: path! };
      return { kind: "text", text: MOCK_QUESTION };
    }
    // the answer to the question (any user text that is not a prompt): the asked prompt's work
    if (!ref && !reminder && asked && asked.prompt !== text) path = asked.path;
    if (!path) return null;
    // a prompt line comes again in the next review round (the same prompt file): its steps are that round's
    const key = `${text}\u0000${where(path).round}`;
    let list = steps.get(key);
    if (!list) {
      const works = worksFor(path, wo);
      if (!works) return null;
      list = works.flatMap((work) => {
        const submit = work.submit && findOffered(input.offered, work.submit.tool);
        return [
          ...work.files.flatMap((f) => writeCall(input.offered, f)).map((c): TurnAnswer => ({ kind: "tool", ...c })),
          ...(submit ? [{ kind: "tool", tool: submit, args: work.submit!.args } as TurnAnswer] : []),
        ];
      });
      const last = works.at(-1)!.submit;
      const submit = last && findOffered(input.offered, last.tool);
      if (submit && !reminder && behaviour.forgetSubmitOf?.test(path) && !forgot) {
        forgot = true;
        list[list.length - 1] = { kind: "text", text: "MOCK-FORGOT Done! I wrote the files and everything is ready." };
      }
      steps.set(key, list);
    }
    const i = input.thread!.toolResults;
    if (!ref && !reminder && i >= list.length - 1) asked = null; // the asked role's work is done: other conversations' texts are theirs
    return list[i] ?? { kind: "text", text: `MOCK-DONE ${input.toolResult?.replace(/\s+/g, " ").slice(0, 120) ?? ""}` };
  };
}

/** Start the mock; `logFile` receives one JSON line per request. */
export function startMockServer(logFile: string, behaviour: MockBehaviour = {}): MockServer {
  const requests: MockRequest[] = [];
  let seq = 0;
  let forgot = false;
  /** when the first 429 was answered (0: not yet) */
  let limited = 0;
  const work = workAnswers(behaviour);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    async fetch(req) {
      const url = new URL(req.url);
      const { api, stream } = route(req.method, url);
      const raw = req.method === "POST" ? await req.text() : "";
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      let input: TurnInput = { lastUserText: "", toolResult: null, offered: [] };
      if (api === "anthropic") input = anthropicTurn(body);
      else if (api === "openai") input = openaiTurn(body);
      else if (api === "gemini") input = geminiTurn(body);
      else if (api === "chat") input = chatTurn(body);
      // a chat turn offers tools; title requests (claude, codex) and gemini's router do not
      const turn =
        api !== "other" && input.offered.length > 0 && !(api === "gemini" && geminiJsonSchema(body)) && !(api === "chat" && chatJsonSchema(body) !== null);
      const forget = turn && !!behaviour.forgetFirstSubmit && !forgot && PROMPT_REFERENCE_RE.test(input.lastUserText) && input.toolResult === null;
      if (forget) forgot = true;
      const answer = api === "other" ? null : ((turn ? work(input) : null) ?? decideTurn(input, forget));
      const record: MockRequest = {
        seq: ++seq,
        t: new Date().toISOString(),
        method: req.method,
        // a CONNECT is a CLI trying a non-loopback host through the trap proxy (never forwarded)
        url: req.method === "CONNECT" ? `CONNECT ${req.headers.get("host") ?? req.url}` : url.pathname + url.search,
        ua: req.headers.get("user-agent") ?? "",
        api,
        turn,
        lastUserText: input.lastUserText,
        toolResult: input.toolResult,
        offered: input.offered.map((t) => (t.namespace ? `${t.namespace}/${t.name}` : t.name)),
        answer: turn ? answer : answer && answer.kind === "tool" ? { kind: "text", text: "MOCK-REPLY side request" } : answer,
        body,
      };
      // limitFirstTurn: the first prompt's turn is answered 429, as an exhausted quota is
      // gemini retries a 429 by itself: every retry of that prompt within limitMs gets one too
      const limit =
        turn &&
        !!behaviour.limitFirstTurn &&
        (limited === 0 || Date.now() - limited < (behaviour.limitMs ?? 0)) &&
        PROMPT_REFERENCE_RE.test(input.lastUserText) &&
        input.toolResult === null;
      if (limit) {
        limited ||= Date.now();
        record.answer = { kind: "text", text: "MOCK-429" };
      }
      requests.push(record);
      appendFileSync(logFile, JSON.stringify(record) + "\n");
      if (limit) return rateLimited(api);
      if (turn && behaviour.holdMs && input.lastUserText.includes(HOLD_MARKER)) await Bun.sleep(behaviour.holdMs);
      if (api === "other") return otherResponse(req.method, url);
      // only chat turns may call tools: a side request (title, router) always gets text
      const reply: TurnAnswer = record.answer!;
      if (api === "anthropic") return anthropicResponse(reply, body);
      if (api === "openai") return openaiResponse(reply, body);
      if (api === "chat") return chatResponse(reply, body);
      return geminiResponse(reply, body, stream);
    },
  });
  const port = server.port!;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    turnsWith: (marker) => requests.filter((r) => r.turn && r.lastUserText.includes(marker)),
    stop: () => void server.stop(true),
  };
}

if (import.meta.main) {
  const log = process.argv[2] ?? "mock-requests.jsonl";
  const m = startMockServer(log);
  console.log(`mock model server on ${m.url}, logging to ${log}`);
}
