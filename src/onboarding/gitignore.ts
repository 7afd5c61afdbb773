import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { readText } from "./project-config.ts";

/** agentmux's per-run files: never part of a commit. */
export const IGNORED_ENTRIES = [".agentmux/.sessions/", ".agentmux/.last_completion.json", ".agentmux/.first_run_done"] as const;

const norm = (line: string) => line.trim().replace(/^\//, "").replace(/\/+$/, "");

/** True when a .gitignore line set already ignores `entry` (itself, or the whole .agentmux folder). */
export function isCovered(lines: string[], entry: string): boolean {
  const want = norm(entry);
  const have = new Set(lines.map(norm).filter((l) => l && !l.startsWith("#") && !l.startsWith("!")));
  return have.has(want) || have.has(".agentmux") || have.has(".agentmux/*") || have.has(".agentmux/**");
}

/**
 * Add the runtime entries missing from `<projectDir>/.gitignore` (created when absent), under
 * one comment, never twice. Returns the entries added (empty: the file was not touched).
 */
export function ensureGitignore(projectDir: string): { path: string; added: string[] } {
  const path = join(projectDir, ".gitignore");
  const text = readText(path) ?? "";
  const lines = text.split(/\r?\n/);
  const added = IGNORED_ENTRIES.filter((e) => !isCovered(lines, e));
  if (added.length === 0) return { path, added: [] };
  const sep = text === "" ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  const block = ["# agentmux runtime files", ...added].join("\n") + "\n";
  writeFileAtomic(path, text + sep + block);
  return { path, added };
}
