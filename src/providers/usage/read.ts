import { readFileSync, statSync } from "node:fs";
import type { UsageSource } from "../../schema/usage.ts";
import { adapterFor } from "../adapters/registry.ts";
import type { UsageReader as Records } from "../adapters/types.ts";
import type { Parsed } from "./claude.ts";

export type ConversationUsage = Parsed & { source: UsageSource["format"]; file: string };

/** The CLI's home a source reads: its `home` (`{session}` → the session folder), else the CLI's own default. */
export function homeOf(source: UsageSource, o: { sessionDir: string; env: Record<string, string> }): string {
  if (source.home) return source.home.replaceAll("{session}", o.sessionDir);
  return records(source.format)?.home(o.env) ?? "";
}

/** The reader of a usage format: the adapter of the CLI that writes it (test/providers/adapters holds that each format has one). */
const records = (format: UsageSource["format"]): Records | null => adapterFor(format)?.usage ?? null;

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
        const file = records(s.format)?.find(homeOf(s, o), id);
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
    const parsed = records(where.format)?.parse(readFileSync(where.file, "utf8")) ?? null;
    const usage = parsed ? { ...parsed, source: where.format, file: where.file } : null;
    this.seen.set(id, { size: st.size, mtime: st.mtimeMs, usage });
    return usage;
  }
}
