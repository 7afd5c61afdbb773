import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeUsage, findClaudeTranscript } from "../../src/providers/usage/claude.ts";
import { codexUsage, findCodexRollout } from "../../src/providers/usage/codex.ts";
import { findGeminiChat, geminiUsage } from "../../src/providers/usage/gemini.ts";
import { findQwenChat, qwenUsage } from "../../src/providers/usage/qwen.ts";
import { copilotUsage, findCopilotEvents } from "../../src/providers/usage/copilot.ts";
import { costOf, priceFor } from "../../src/providers/usage/price.ts";
import { UsageReader } from "../../src/providers/usage/read.ts";
import { recordTurn } from "../../src/sim/transcript.ts";
import { loadConfig } from "../../src/config/load.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/** #14.2: token usage from claude transcripts and codex rollouts, priced from the config's table. */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
const tmp = () => {
  const d = makeTmpDir("amx-usage-");
  dirs.push(d);
  return d;
};
const lines = (...o: object[]) => o.map((x) => JSON.stringify(x)).join("\n") + "\n";

describe("claude transcripts", () => {
  const msg = (id: string, req: string, usage: object, model = "claude-sonnet-4-5-20250929") => ({
    type: "assistant",
    requestId: req,
    message: { id, model, usage },
  });
  test("a message streamed over several lines counts once (its last line); user lines, broken lines and synthetic models are skipped", () => {
    const text =
      lines(
        { type: "user", message: { role: "user", content: "hi" } },
        msg("m1", "r1", { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, output_tokens: 1 }),
        msg("m1", "r1", { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, output_tokens: 40 }),
        msg("m2", "r2", { input_tokens: 5, output_tokens: 7 }),
        msg("m3", "r3", { input_tokens: 0, output_tokens: 0 }, "<synthetic>"),
      ) + '{"type":"assistant","message":{"usage":{"input_tok';
    expect(claudeUsage(text)).toEqual({ input: 15, cached: 100, cache_write: 50, output: 47, model: "claude-sonnet-4-5-20250929" });
    expect(claudeUsage(lines({ type: "user", message: {} }))).toBeNull();
  });
});

describe("codex rollouts", () => {
  test("the last running total counts; cached input is taken out of input; the model comes from turn_context", () => {
    const tc = (input: number, cached: number, output: number) => ({
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          total_token_usage: {
            input_tokens: input,
            cached_input_tokens: cached,
            output_tokens: output,
            reasoning_output_tokens: 3,
            total_tokens: input + output,
          },
        },
      },
    });
    const text = lines(
      { type: "session_meta", payload: { id: "x" } },
      { type: "turn_context", payload: { model: "gpt-5-codex" } },
      tc(100, 40, 10),
      { type: "event_msg", payload: { type: "token_count", info: null } },
      tc(300, 200, 30),
    );
    expect(codexUsage(text)).toEqual({ input: 100, cached: 200, cache_write: 0, output: 30, model: "gpt-5-codex" });
    expect(codexUsage(lines({ type: "session_meta", payload: {} }))).toBeNull();
    // newer codex also reports cache writes, a part of input_tokens like the cached ones
    const writes = {
      type: "event_msg",
      payload: {
        type: "token_count",
        info: { total_token_usage: { input_tokens: 100, cached_input_tokens: 30, cache_write_input_tokens: 20, output_tokens: 4 } },
      },
    };
    expect(codexUsage(lines(writes))).toEqual({ input: 50, cached: 30, cache_write: 20, output: 4, model: null });
  });
});

describe("finding a conversation's file", () => {
  test("claude: projects/<any folder>/<id>.jsonl; codex: sessions/Y/M/D/rollout-*-<id>.jsonl; the reader re-reads a file only when it changed", () => {
    const session = tmp();
    recordTurn("claude", { sessionDir: session, id: "c-1", cwd: "/w/p", turn: 1 });
    recordTurn("codex", { sessionDir: session, id: "x-1", cwd: "/w/p", turn: 1, at: "2026-11-23T10:00:00.000Z" });
    recordTurn("codex", { sessionDir: session, id: "x-1", cwd: "/w/p", turn: 2, at: "2026-11-23T10:01:00.000Z" });
    expect(findClaudeTranscript(join(session, ".runtime/sim/claude"), "c-1")).toBe(join(session, ".runtime/sim/claude/projects/-w-p/c-1.jsonl"));
    expect(findClaudeTranscript(join(session, ".runtime/sim/claude"), "nope")).toBeNull();
    expect(findCodexRollout(join(session, ".runtime/sim/codex"), "x-1")).toBe(
      join(session, ".runtime/sim/codex/sessions/2026/11/23/rollout-2026-11-23T10-00-00-x-1.jsonl"),
    );
    const sources = [
      { format: "claude" as const, home: "{session}/.runtime/sim/claude" },
      { format: "codex" as const, home: "{session}/.runtime/sim/codex" },
    ];
    const reader = new UsageReader();
    expect(reader.read("x-1", sources, { sessionDir: session, env: {} })).toMatchObject({
      source: "codex",
      input: 6000,
      cached: 12000,
      output: 1000,
      model: "gpt-5-codex",
    });
    expect(reader.read("c-1", sources, { sessionDir: session, env: {} })).toMatchObject({
      source: "claude",
      input: 1200,
      cached: 8000,
      cache_write: 2000,
      output: 300,
    });
    recordTurn("claude", { sessionDir: session, id: "c-1", cwd: "/w/p", turn: 2 });
    expect(reader.read("c-1", sources, { sessionDir: session, env: {} })).toMatchObject({ input: 2400, output: 600 });
    expect(reader.read("unknown", sources, { sessionDir: session, env: {} })).toBeNull();
  });

  test("without a home, claude's is CLAUDE_CONFIG_DIR (the provider's env first) and codex's CODEX_HOME", () => {
    const home = tmp();
    mkdirSync(join(home, "projects/-x"), { recursive: true });
    writeFileSync(
      join(home, "projects/-x/id-9.jsonl"),
      lines({ type: "assistant", message: { id: "m", model: "claude-opus-4-5", usage: { input_tokens: 1, output_tokens: 2 } } }),
    );
    expect(new UsageReader().read("id-9", [{ format: "claude", home: null }], { sessionDir: "/s", env: { CLAUDE_CONFIG_DIR: home } })).toMatchObject({
      input: 1,
      output: 2,
      model: "claude-opus-4-5",
    });
    expect(new UsageReader().read("id-9", [{ format: "codex", home: null }], { sessionDir: "/s", env: { CODEX_HOME: home } })).toBeNull();
  });
});

describe("prices", () => {
  const { config } = loadConfig({ projectDir: "/nonexistent-amx-usage" });
  test("the built-in table prices the common models; the longest prefix wins; unknown models have no price", () => {
    expect(config.pricing.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(priceFor("claude-sonnet-4-5-20250929", config.pricing)).toEqual({ input: 3, output: 15, cached: 0.3, cache_write: 3.75 });
    expect(priceFor("claude-sonnet-5-5", config.pricing)!.cached).toBe(0.1);
    expect(priceFor("gpt-5-mini-2026", config.pricing)!.input).toBe(0.25);
    expect(priceFor("GPT-5-codex", config.pricing)!.input).toBe(1.25);
    expect(priceFor("llama-3", config.pricing)).toBeNull();
    expect(priceFor(null, config.pricing)).toBeNull();
  });
  test("cost: each kind of token at its rate (cache rates default to the input rate)", () => {
    expect(
      costOf({ input: 1_000_000, cached: 2_000_000, cache_write: 1_000_000, output: 100_000 }, { input: 3, output: 15, cached: 0.3, cache_write: 3.75 }),
    ).toBeCloseTo(3 + 0.6 + 3.75 + 1.5, 9);
    expect(costOf({ input: 0, cached: 1_000_000, cache_write: 1_000_000, output: 0 }, { input: 2, output: 4 })).toBe(4);
    expect(costOf({ input: 1, cached: 0, cache_write: 0, output: 0 }, null)).toBeNull();
  });
});

describe("gemini chats", () => {
  const id = "6f1c2a9e-0b3d-4e5f-8a7b-1c2d3e4f5a6b";
  const meta = { sessionId: id, projectHash: "abc", startTime: "2026-11-23T10:00:00.000Z", lastUpdated: "2026-11-23T10:00:00.000Z", kind: "main" };
  const gem = (mid: string, tokens: object | null, model = "gemini-3-pro") => ({
    id: mid,
    timestamp: "2026-11-23T10:00:01.000Z",
    type: "gemini",
    content: "",
    thoughts: [],
    tokens,
    model,
  });
  const chat = lines(
    meta,
    { id: "u1", timestamp: "x", type: "user", content: [{ text: "do it" }] },
    // written when the response starts, again when its tokens arrive: the last copy counts
    gem("g1", null),
    gem("g1", { input: 1000, output: 50, cached: 400, thoughts: 20, tool: 5, total: 1075 }),
    { $set: { lastUpdated: "2026-11-23T10:00:02.000Z" } },
    gem("g2", { input: 1200, output: 30, cached: 0, thoughts: 0, tool: 0, total: 1230 }),
    // a rewind drops g2 from the chat, not what it cost
    { $rewindTo: "g2" },
    // a message list set whole repeats what was written: counted once
    { $set: { messages: [gem("g1", { input: 1000, output: 50, cached: 400, thoughts: 20, tool: 5, total: 1075 })] } },
    gem("g3", { input: 900, output: 10, cached: 900, thoughts: 0, tool: 0, total: 910 }, "gemini-3-flash"),
  );
  test("every response's tokens once: cached split out of input, tool prompt as input, thoughts as output, the last model", () => {
    expect(geminiUsage(chat)).toEqual({ input: 600 + 5 + 1200 + 0, cached: 400 + 900, cache_write: 0, output: 70 + 30 + 10, model: "gemini-3-flash" });
    expect(geminiUsage(lines(meta, { id: "u1", type: "user", content: "x" }))).toBeNull();
    expect(geminiUsage(chat + '{"id":"g4","type":"gem')).toEqual(geminiUsage(chat));
  });
  test("a chat saved by an older gemini (one JSON object with `messages`) reads the same", () => {
    const whole = JSON.stringify({ ...meta, messages: [gem("g1", { input: 10, output: 5, cached: 0 }, "gemini-2.5-pro")] }, null, 2);
    expect(geminiUsage(whole)).toEqual({ input: 10, cached: 0, cache_write: 0, output: 5, model: "gemini-2.5-pro" });
  });
  test("found by its id under any project of <home>/tmp: the file name's 8 characters, then the id it records", () => {
    const home = tmp();
    const other = "6f1c2a9e-ffff-4e5f-8a7b-000000000000";
    mkdirSync(join(home, "tmp/proj-a/chats"), { recursive: true });
    mkdirSync(join(home, "tmp/proj-b/chats"), { recursive: true });
    writeFileSync(join(home, "tmp/proj-a/chats/session-2026-11-23T10-00-6f1c2a9e.jsonl"), lines({ ...meta, sessionId: other }));
    expect(findGeminiChat(home, id)).toBeNull();
    writeFileSync(join(home, "tmp/proj-b/chats/session-2026-11-23T10-01-6f1c2a9e.jsonl"), chat);
    expect(findGeminiChat(home, id)).toBe(join(home, "tmp/proj-b/chats/session-2026-11-23T10-01-6f1c2a9e.jsonl"));
    expect(findGeminiChat(join(home, "none"), id)).toBeNull();
  });
  test("the gemini provider reads the chat from the user's .gemini, else from the run's own folder", () => {
    const { config } = loadConfig({ projectDir: tmp(), env: { HOME: tmp() } });
    const sources = config.providers.gemini!.usage;
    const user = tmp();
    const session = tmp();
    const put = (home: string) => {
      mkdirSync(join(home, "tmp/p/chats"), { recursive: true });
      writeFileSync(join(home, "tmp/p/chats/session-2026-11-23T10-01-6f1c2a9e.jsonl"), chat);
    };
    put(join(session, ".runtime/gemini"));
    const fromSession = new UsageReader().read(id, sources, { sessionDir: session, env: { HOME: user } });
    expect(fromSession).toMatchObject({
      source: "gemini",
      cached: 1300,
      file: join(session, ".runtime/gemini/tmp/p/chats/session-2026-11-23T10-01-6f1c2a9e.jsonl"),
    });
    put(join(user, ".gemini"));
    expect(new UsageReader().read(id, sources, { sessionDir: session, env: { HOME: user } })!.file).toStartWith(join(user, ".gemini"));
    expect(new UsageReader().read(id, sources, { sessionDir: session, env: { HOME: tmp(), GEMINI_CLI_HOME: user } })!.file).toStartWith(join(user, ".gemini"));
  });
});

describe("qwen chats", () => {
  const id = "d6f84357-55e9-446a-91b6-1cca3222c6fa";
  const api = (uuid: string, t: object, auth_type = "openai", model = "qwen3-coder-plus") => ({
    uuid,
    sessionId: id,
    type: "system",
    subtype: "ui_telemetry",
    systemPayload: { uiEvent: { "event.name": "qwen-code.api_response", model, auth_type, ...t } },
  });
  const chat = lines(
    { uuid: "u1", sessionId: id, type: "user", message: { role: "user", parts: [{ text: "do it" }] } },
    api("a1", { input_token_count: 1000, output_token_count: 50, cached_content_token_count: 400, thoughts_token_count: 20 }),
    // the assistant record repeats the response's figures: not counted again
    { uuid: "m1", type: "assistant", model: "qwen3-coder-plus", usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 50 } },
    { uuid: "t1", type: "system", subtype: "ui_telemetry", systemPayload: { uiEvent: { "event.name": "qwen-code.tool_call", duration_ms: 5 } } },
    // a record written twice counts once
    api("a1", { input_token_count: 1000, output_token_count: 50, cached_content_token_count: 400, thoughts_token_count: 20 }),
    // gemini's API counts thoughts apart from the output; an answer served all from cache reports input 0
    api("a2", { input_token_count: 0, output_token_count: 30, cached_content_token_count: 900, thoughts_token_count: 7 }, "gemini-api-key", "gemini-3-pro"),
  );
  test("every api_response event once: cached split out of input, thoughts added only where the output does not hold them, the last model", () => {
    expect(qwenUsage(chat)).toEqual({ input: 600, cached: 400 + 900, cache_write: 0, output: 50 + 37, model: "gemini-3-pro" });
    expect(qwenUsage(chat + '{"uuid":"a3","type":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_resp')).toEqual(
      qwenUsage(chat),
    );
    expect(qwenUsage(lines({ uuid: "u1", type: "user" }, { uuid: "m1", type: "assistant", usageMetadata: { promptTokenCount: 5 } }))).toBeNull();
  });
  test("found as projects/<any folder>/chats/<id>.jsonl under QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen", () => {
    const { config } = loadConfig({ projectDir: tmp(), env: { HOME: tmp() } });
    const sources = config.providers.qwen!.usage;
    expect(sources).toEqual([{ format: "qwen", home: null }]);
    const put = (home: string) => {
      mkdirSync(join(home, "projects/-w-p/chats"), { recursive: true });
      writeFileSync(join(home, `projects/-w-p/chats/${id}.jsonl`), chat);
      return join(home, `projects/-w-p/chats/${id}.jsonl`);
    };
    const user = tmp();
    const file = put(join(user, ".qwen"));
    expect(findQwenChat(join(user, ".qwen"), id)).toBe(file);
    expect(findQwenChat(join(user, ".qwen"), "e0000000-0000-4000-8000-000000000000")).toBeNull();
    expect(findQwenChat(join(user, ".qwen"), "../x")).toBeNull();
    expect(new UsageReader().read(id, sources, { sessionDir: "/s", env: { HOME: user } })).toMatchObject({ source: "qwen", file, cached: 1300 });
    const elsewhere = tmp();
    const moved = put(elsewhere);
    expect(new UsageReader().read(id, sources, { sessionDir: "/s", env: { HOME: user, QWEN_HOME: elsewhere } })!.file).toBe(moved);
    expect(new UsageReader().read(id, sources, { sessionDir: "/s", env: { HOME: tmp(), QWEN_HOME: tmp(), QWEN_RUNTIME_DIR: elsewhere } })!.file).toBe(moved);
  });
});

describe("copilot session event logs", () => {
  const id = "cd8125be-c6a3-406d-965b-9e13d0e20769";
  const receipt = (seq: number, u: object, model = "claude-sonnet-4.5") => ({
    type: "session.usage_record",
    data: { usage: { model, ...u, accounting: { sourceSessionId: id, sequence: seq, usageId: `call-${seq}` } } },
    id: `e-${seq}-${Math.random()}`,
    timestamp: "2026-11-28T15:54:39.386Z",
    parentId: null,
  });
  const log = lines(
    { type: "session.start", data: { sessionId: id, copilotVersion: "1.0.102" }, id: "s", parentId: null },
    receipt(1, { inputTokens: 1000, outputTokens: 40, cacheReadTokens: 600, cacheWriteTokens: 300 }),
    { type: "assistant.turn_end", data: { turnId: "0" }, id: "te", parentId: "s" },
    // the same receipt written again (a resumed session's replay) counts once
    receipt(1, { inputTokens: 1000, outputTokens: 40, cacheReadTokens: 600, cacheWriteTokens: 300 }),
    receipt(2, { inputTokens: 200, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }, "gpt-5.2"),
    {
      type: "session.shutdown",
      data: { accountingSnapshot: { modelMetrics: { x: { usage: { inputTokens: 99999, outputTokens: 99999 } } } } },
      id: "sd",
      parentId: "te",
    },
  );
  test("every usage receipt once: cache reads and writes split out of input, the last model; the shutdown's totals are not added", () => {
    expect(copilotUsage(log)).toEqual({ input: 100 + 200, cached: 600, cache_write: 300, output: 50, model: "gpt-5.2" });
    expect(copilotUsage(log + '{"type":"session.usage_record","data":{"usage":{"inputTok')).toEqual(copilotUsage(log));
    expect(copilotUsage(lines({ type: "session.start", data: {} }))).toBeNull();
  });
  test("found as session-state/<id>/events.jsonl under COPILOT_HOME, else ~/.copilot", () => {
    const { config } = loadConfig({ projectDir: tmp(), env: { HOME: tmp() } });
    const sources = config.providers.copilot!.usage;
    expect(sources).toEqual([{ format: "copilot", home: null }]);
    const put = (home: string) => {
      mkdirSync(join(home, "session-state", id), { recursive: true });
      writeFileSync(join(home, "session-state", id, "events.jsonl"), log);
      return join(home, "session-state", id, "events.jsonl");
    };
    const user = tmp();
    const file = put(join(user, ".copilot"));
    expect(findCopilotEvents(join(user, ".copilot"), id)).toBe(file);
    expect(findCopilotEvents(join(user, ".copilot"), "../..")).toBeNull();
    expect(new UsageReader().read(id, sources, { sessionDir: "/s", env: { HOME: user } })).toMatchObject({
      source: "copilot",
      file,
      input: 300,
      cache_write: 300,
    });
    const elsewhere = tmp();
    const moved = put(elsewhere);
    expect(new UsageReader().read(id, sources, { sessionDir: "/s", env: { HOME: user, COPILOT_HOME: elsewhere } })!.file).toBe(moved);
    expect(new UsageReader().read("0e000000-0000-4000-8000-000000000000", sources, { sessionDir: "/s", env: { HOME: user } })).toBeNull();
  });
});

describe("records the real CLIs wrote (test/fixtures/usage)", () => {
  const fixture = (name: string) => readFileSync(join(import.meta.dir, "../fixtures/usage", name), "utf8");
  test("claude 2.1: the streamed message's final usage", () => {
    expect(claudeUsage(fixture("claude-transcript.jsonl"))).toEqual({ input: 10, cached: 0, cache_write: 0, output: 12, model: "claude-opus-5-5" });
  });
  test("gemini 0.61: two answered turns (the first written twice, before and after its tool call)", () => {
    expect(geminiUsage(fixture("gemini-chat.jsonl"))).toEqual({ input: 20, cached: 0, cache_write: 0, output: 10, model: "gemini-3.8-flash" });
  });
  test("codex 0.169: the running total and the turn's model", () => {
    expect(codexUsage(fixture("codex-rollout.jsonl"))).toEqual({ input: 10, cached: 0, cache_write: 0, output: 5, model: "mock-model" });
  });
  test("qwen 0.24.4: five model responses, each once (the assistant records' usageMetadata is not counted again)", () => {
    expect(qwenUsage(fixture("qwen-chat.jsonl"))).toEqual({ input: 50, cached: 0, cache_write: 0, output: 25, model: "mock-model" });
  });
  test("copilot 1.0.102: five receipts, the one written after session.shutdown too", () => {
    expect(copilotUsage(fixture("copilot-events.jsonl"))).toEqual({ input: 50, cached: 0, cache_write: 0, output: 25, model: "mock-model" });
  });
});

describe("codex's session id is found by the prompt line it was given", () => {
  test("the line as codex stores it (JSON-escaped: a quoted path's quotes too) is found in its rollout; the bare last word is not", async () => {
    const { codexNeedle, findCodexSession } = await import("../../src/providers/conversation.ts");
    const { PROMPT_REFERENCE } = await import("../../src/prompts/render.ts");
    const home = tmp();
    const line = PROMPT_REFERENCE("/w/my project/.agentmux/.sessions/s/02_architecting/architect_prompt.md");
    const id = "01a208b7-7ea7-7eb1-9940-7869859927b7";
    mkdirSync(join(home, "sessions/2026/11/23"), { recursive: true });
    writeFileSync(
      join(home, `sessions/2026/11/23/rollout-2026-11-23T14-02-52-${id}.jsonl`),
      lines(
        { type: "session_meta", payload: { id } },
        { type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: line }] } },
      ),
    );
    expect(findCodexSession(home, Date.now() - 60_000, codexNeedle(line))).toBe(id);
    expect(findCodexSession(home, Date.now() - 60_000, line.replace(/^.* /, ""))).toBeNull();
  });
});
