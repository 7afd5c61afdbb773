import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, n, type Parsed } from "./claude.ts";

type Message = { type?: unknown; model?: unknown; tokens?: Record<string, unknown> | null };

/** The records of a chat file: one JSON object per line (gemini 0.2x on), or one whole object with `messages` (before). */
function records(text: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") && !trimmed.includes("\n{")) {
    try {
      const whole = JSON.parse(trimmed) as { messages?: unknown };
      if (Array.isArray(whole.messages)) return whole.messages;
    } catch {
      /* a line-per-record file whose first line is not all of it */
    }
  }
  return [...jsonLines(text, (line) => line.includes('"tokens"'))];
}

/**
 * A gemini chat (`<home>/tmp/<project>/chats/session-<time>-<id8>.jsonl`): each model response
 * is a `gemini` message whose `tokens` hold the API's usage. A message is written again when its
 * tokens arrive (the last copy of an id counts); a rewind drops messages from the chat, not what
 * they cost, so every message written counts. `input` includes the cached tokens and `tool` is
 * prompt too; `thoughts` are billed as output.
 */
export function geminiUsage(text: string): Parsed | null {
  const byId = new Map<string, Message>();
  let anon = 0;
  const take = (r: unknown) => {
    const m = r as Message & { id?: unknown; $set?: { messages?: unknown } };
    // a whole message list set at once (gemini writes the chat's first context that way)
    if (Array.isArray(m?.$set?.messages)) m.$set.messages.forEach(take);
    if (m?.type !== "gemini" || !m.tokens) return;
    byId.set(typeof m.id === "string" ? m.id : `#${anon++}`, m);
  };
  records(text).forEach(take);
  if (byId.size === 0) return null;
  let input = 0,
    cached = 0,
    output = 0;
  let model: string | null = null;
  for (const m of byId.values()) {
    const t = m.tokens!;
    const c = Math.min(n(t.cached), n(t.input));
    cached += c;
    input += n(t.input) - c + n(t.tool);
    output += n(t.output) + n(t.thoughts);
    if (typeof m.model === "string" && m.model) model = m.model;
  }
  return { input, cached, cache_write: 0, output, model };
}

/** The chat of session `id` under `<home>/tmp/*` /chats (its name ends with the id's first 8 characters; its first record names the id). */
export function findGeminiChat(home: string, id: string): string | null {
  const root = join(home, "tmp");
  if (!existsSync(root)) return null;
  const short = id.slice(0, 8);
  try {
    for (const project of readdirSync(root, { withFileTypes: true })) {
      if (!project.isDirectory()) continue;
      const chats = join(root, project.name, "chats");
      if (!existsSync(chats)) continue;
      const named = readdirSync(chats).filter((f) => f.startsWith("session-") && (f.endsWith(`-${short}.jsonl`) || f.endsWith(`-${short}.json`)));
      for (const f of named.sort().reverse()) {
        const file = join(chats, f);
        const head = readFileSync(file, "utf8").slice(0, 4096);
        if (head.includes(`"sessionId":"${id}"`) || head.includes(`"sessionId": "${id}"`)) return file;
      }
    }
  } catch {
    return null;
  }
  return null;
}
