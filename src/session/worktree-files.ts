import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { appendRecord } from "../effects/fs/atomic.ts";
import { F } from "../protocol/paths.ts";
import { WorktreeFileLine } from "../schema/worktree-files.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Before a launch's files are written: each file for the agent's working folder (`local`) that
 * is not there yet is one agentmux creates, recorded with the folders made for it. Recorded
 * before it is written, so a crash in between never leaves one the run does not know of.
 */
export function recordWorktreeFiles(sessionDir: string, files: readonly { path: string; content: string; local?: true }[]): void {
  for (const f of files) {
    if (!f.local || existsSync(f.path)) continue;
    const dirs: string[] = [];
    for (let d = dirname(f.path); !existsSync(d) && dirname(d) !== d; d = dirname(d)) dirs.unshift(d);
    const line: WorktreeFileLine = { path: f.path, sha256: sha256(f.content), dirs };
    appendRecord(join(sessionDir, F.worktreeFiles), JSON.stringify(line));
  }
}

/**
 * When the run ends (or is cleaned): the files it created in working folders go, each only
 * while it still has the content agentmux wrote (one changed since is the user's now), and the
 * folders made for them when nothing else is in them. `info/exclude` keeps its lines: another
 * run's worktree of the same repository may still have such a file. Returns what was left and why.
 */
export function removeWorktreeFiles(sessionDir: string): string[] {
  const record = join(sessionDir, F.worktreeFiles);
  let text: string;
  try {
    text = readFileSync(record, "utf8");
  } catch {
    return []; // none created
  }
  const notes: string[] = [];
  const dirs = new Set<string>();
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    let parsed;
    try {
      parsed = WorktreeFileLine.safeParse(JSON.parse(raw));
    } catch {
      continue; // a torn line: the write it belonged to did not happen
    }
    if (!parsed.success) continue;
    const line = parsed.data;
    for (const d of line.dirs) dirs.add(d);
    let now: string;
    try {
      now = readFileSync(line.path, "utf8");
    } catch {
      continue; // gone already (a removed worktree, the user)
    }
    if (sha256(now) !== line.sha256) {
      notes.push(`${line.path} changed since agentmux wrote it: left alone`);
      continue;
    }
    rmSync(line.path, { force: true });
  }
  // deepest first; a folder with anything in it stays, unless all of it is what the CLI itself
  // marked as its by-products there (opencode writes `.opencode/.gitignore` naming its caches and itself)
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      if (!existsSync(d)) continue;
      const left = readdirSync(d);
      if (left.length === 0) rmdirSync(d);
      else if (onlySelfIgnored(d, left)) rmSync(d, { recursive: true, force: true });
    } catch {
      /* in use or not ours to judge: left */
    }
  }
  rmSync(record, { force: true });
  return notes;
}

/** Every entry of folder `dir` is named, as a plain name, by the `.gitignore` in it, which names itself too. */
function onlySelfIgnored(dir: string, entries: readonly string[]): boolean {
  let text: string;
  try {
    text = readFileSync(join(dir, ".gitignore"), "utf8");
  } catch {
    return false;
  }
  const names = new Set(text.split("\n").map((l) => l.trim().replace(/^\//, "").replace(/\/$/, "")));
  return names.has(".gitignore") && entries.every((e) => names.has(e));
}
