import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Config } from "../schema/config.ts";
import { globToRegExp, hasGlob } from "../effects/git/glob.ts";
import type { Logger } from "../effects/log.ts";
import { runBounded, type BoundedRunner } from "../effects/process/bounded.ts";
import { WorktreeSetupFailed } from "./errors.ts";
import { copyTargetProblem } from "./worktree-copy-guard.ts";

/**
 * Files of the main checkout that match `patterns` (paths or globs from the root: `.env*`,
 * `config/*.local.json`, `secrets/**`), copied into the new worktree with their mode. A file
 * the worktree already has (git tracks it) is never overwritten; folders `.git` and
 * `.agentmux` are never entered.
 */
export function copyIntoWorktree(main: string, worktree: string, patterns: string[]): { copied: string[]; kept: string[]; refused: string[] } {
  const copied: string[] = [];
  const refused: string[] = [];
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const pattern of patterns) {
    for (const rel of matchFiles(main, pattern.replace(/^\.\/+/, "").replace(/\/+$/, ""))) {
      if (seen.has(rel)) continue;
      seen.add(rel);
      const to = join(worktree, rel);
      // never written through a symlink (one tracked in HEAD may point outside the repository)
      const refusedWhy = copyTargetProblem(worktree, rel);
      if (refusedWhy) {
        refused.push(`${rel} (${refusedWhy})`);
        continue;
      }
      if (existsSync(to)) {
        kept.push(rel);
        continue;
      }
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(main, rel), to);
      copied.push(rel);
    }
  }
  return { copied: copied.sort(), kept: kept.sort(), refused: refused.sort() };
}

/** Regular files under `root` whose relative path matches `pattern`, walking only where it can match. */
function matchFiles(root: string, pattern: string): string[] {
  const segments = pattern.split("/").filter(Boolean);
  const out: string[] = [];
  const walk = (rel: string, i: number) => {
    if (i === segments.length) return;
    const seg = segments[i]!;
    const dir = rel ? join(root, rel) : root;
    if (seg === "**") {
      if (i === segments.length - 1) return collectAll(root, rel, out); // everything below
      walk(rel, i + 1); // zero folders
      for (const d of entries(dir)) if (d.isDirectory()) walk(rel ? `${rel}/${d.name}` : d.name, i);
      return;
    }
    const re = hasGlob(seg) ? new RegExp(`^${globToRegExp(seg) ?? "(?!)"}$`) : null;
    for (const d of entries(dir)) {
      if (re ? !re.test(d.name) : d.name !== seg) continue;
      const p = rel ? `${rel}/${d.name}` : d.name;
      if (i === segments.length - 1) {
        if (d.isFile()) out.push(p);
        else if (d.isDirectory()) collectAll(root, p, out); // a folder: everything in it
      } else if (d.isDirectory()) walk(p, i + 1);
    }
  };
  walk("", 0);
  return out;
}

function entries(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((d) => d.name !== ".git" && d.name !== ".agentmux");
  } catch {
    return [];
  }
}

function collectAll(root: string, rel: string, out: string[]): void {
  for (const d of entries(rel ? join(root, rel) : root)) {
    const p = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory()) collectAll(root, p, out);
    else if (d.isFile() && !lstatSync(join(root, p)).isSymbolicLink()) out.push(p);
  }
}

/**
 * `worktree.setup`: each command through `sh -c` in the worktree, in order, with `env` added, on
 * the bounded runner (DESIGN.md rule 15): done when its process exits — a service it starts in
 * the background (`db-start &`) keeps running for the agents and holds nothing open — its whole
 * process group killed on timeout, its output streamed to `<logDir>/<n>.log` (capped, tail
 * kept; the tail also goes to the session log). The first that fails, times out or cannot start
 * throws WorktreeSetupFailed with its exit code and last output lines.
 */
export async function runWorktreeSetup(
  worktree: string,
  config: Config["worktree"],
  env: Record<string, string>,
  log: Logger,
  logDir: string,
  run: BoundedRunner = runBounded,
): Promise<void> {
  const of = config.setup.length;
  for (const [index, command] of config.setup.entries()) {
    log(`worktree setup ${index + 1}/${of}: ${command}`, { event: "worktree_setup", data: { index: index + 1, of, command } });
    const logPath = join(logDir, `${index + 1}.log`);
    const r = await run({
      argv: ["sh", "-c", command],
      cwd: worktree,
      env,
      timeoutMs: config.setup_timeout_s * 1000,
      logPath,
      leftovers: "detach",
      tailLines: 200,
    });
    const seconds = Number((r.durationMs / 1000).toFixed(1));
    const failed = r.exitCode !== 0 || r.timedOut;
    const how = r.timedOut
      ? "timed out"
      : r.spawnError
        ? `could not start: ${r.spawnError}`
        : r.exitCode === null
          ? `killed by ${r.signal}`
          : `exit ${r.exitCode}`;
    // a log the disk could not hold (ENOSPC, EROFS) is said, named; the tail is still here
    const logNote = r.logProblem ? ` (its log ${logPath} is incomplete: ${r.logProblem})` : "";
    log(`worktree setup ${index + 1}: ${how} after ${seconds} s${logNote}${r.tail.map((l) => `\n  | ${l}`).join("")}`, {
      level: failed ? "error" : "info",
      event: "worktree_setup",
      data: { index: index + 1, of, command, code: r.exitCode, timed_out: r.timedOut, seconds, output: r.tail, log: logPath, truncated: r.truncated },
    });
    if (failed) {
      throw new WorktreeSetupFailed({
        command,
        index,
        code: r.exitCode,
        signal: r.signal,
        spawnError: r.spawnError,
        timedOut: r.timedOut,
        timeoutS: config.setup_timeout_s,
        output: r.tail.slice(-15).join("\n"),
      });
    }
  }
}
