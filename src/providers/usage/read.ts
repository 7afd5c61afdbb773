import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { UsageSource } from "../../schema/usage.ts";
import { codexHomeOf } from "../conversation.ts";
import { claudeUsage, findClaudeTranscript, type Parsed } from "./claude.ts";
import { codexUsage, findCodexRollout } from "./codex.ts";
import { findGeminiChat, geminiUsage } from "./gemini.ts";
import { userGeminiHome } from "../gemini-home.ts";

export type ConversationUsage = Parsed & { source: UsageSource["format"]; file: string };

/** The CLI's home a source reads: its `home` (`{session}` → the session folder), else the CLI's own default. */
export function homeOf(source: UsageSource, o: { sessionDir: string; env: Record<string, string> }): string {
  if (source.home) return source.home.replaceAll("{session}", o.sessionDir);
  if (source.format === "codex") return codexHomeOf(o.env);
  if (source.format === "gemini") return join(userGeminiHome(o.env), ".gemini");
  return o.env.CLAUDE_CONFIG_DIR || process.env.CLAUDE_CONFIG_DIR || join(o.env.HOME || process.env.HOME || homedir(), ".claude");
}

const FIND = { claude: findClaudeTranscript, codex: findCodexRollout, gemini: findGeminiChat } as const;
const PARSE = { claude: claudeUsage, codex: codexUsage, gemini: geminiUsage } as const;

/**
 * Reads conversations' usage from their CLIs' own records, again only when a file grew or
 * changed: the daemon asks every few seconds.
 */
export class UsageReader {
  private readonly files = new Map<string, { file: string; format: UsageSource["format"] }>();
  private readonly seen = new Map<string, { size: number; mtime: number; usage: ConversationUsage | null }>();

  /** The figures of conversation `id` from the first source that has its file; null when none has (yet). */
  read(id: string, sources: readonly UsageSource[], o: { sessionDir: string; env: Record<string, string> }): ConversationUsage | null {
    let where = this.files.get(id);
    if (!where) {
      for (const s of sources) {
        const file = FIND[s.format](homeOf(s, o), id);
        if (file) {
          where = { file, format: s.format };
          this.files.set(id, where);
          break;
        }
      }
    }
    if (!where) return null;
    let st;
    try {
      st = statSync(where.file);
    } catch {
      return null;
    }
    const prev = this.seen.get(id);
    if (prev && prev.size === st.size && prev.mtime === st.mtimeMs) return prev.usage;
    const parsed = PARSE[where.format](readFileSync(where.file, "utf8"));
    const usage = parsed ? { ...parsed, source: where.format, file: where.file } : null;
    this.seen.set(id, { size: st.size, mtime: st.mtimeMs, usage });
    return usage;
  }
}
