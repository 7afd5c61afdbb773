import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, posix, resolve, sep } from "node:path";
import { ExcludeEscapesRepo, type ExcludeReason } from "./errors.ts";
import { globToRegExp, hasGlob } from "./glob.ts";

/**
 * One `exclude_files` entry, checked. A plain path (`src/debug.log`, `build/`) excludes that
 * file or everything under that folder, from the repository root. A pattern (`*`, `?`, `**`,
 * `[…]`) is matched like a .gitignore line: without a `/` it matches a name at any depth
 * (`*.log`), with one it matches from the root (`secrets/**`, `docs/*.tmp`); a match on a
 * folder excludes everything under it. Names are compared in Unicode NFC, so an entry typed
 * one way matches a file named the other way (macOS writes NFD).
 */
export type ExcludeRule = { index: number; entry: string; pattern: string; test: (path: string) => boolean; testFolded: (path: string) => boolean };
export type ExcludeProblem = { index: number; entry: string; reason: ExcludeReason };

/**
 * What is wrong with each entry: empty, absolute, `..` out of the repository, the whole
 * repository, an unclosed `[`, or (with a repository root) a symlink on the way that leads out
 * of it. The one check behind both the commit (normalizeExcludes) and `agentmux validate`.
 */
export function excludeProblems(root: string | null, entries: string[]): ExcludeProblem[] {
  const realRoot = root ? realpathSync(root) : null;
  const out: ExcludeProblem[] = [];
  entries.forEach((entry, index) => {
    const reason = entryProblem(entry) ?? (root && realRoot ? symlinkProblem(root, realRoot, normalize(entry)) : null);
    if (reason) out.push({ index, entry, reason });
  });
  return out;
}

/** The rules for the commit; the first problem is thrown as ExcludeEscapesRepo naming the entry. */
export function normalizeExcludes(root: string, entries: string[]): ExcludeRule[] {
  const problem = excludeProblems(root, entries)[0];
  if (problem) throw new ExcludeEscapesRepo(problem);
  return entries.map((entry, index) => rule(entry, index));
}

function normalize(entry: string): string {
  return posix
    .normalize(entry.trim().replace(/\\/g, "/"))
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
}

function entryProblem(entry: string): ExcludeReason | null {
  const raw = entry.trim().replace(/\\/g, "/");
  if (!raw) return "empty";
  if (isAbsolute(raw) || /^[A-Za-z]:\//.test(raw)) return "absolute";
  const norm = normalize(raw);
  if (norm === ".." || norm.startsWith("../")) return "outside";
  if (norm === "." || norm === "" || /^\*\*?$/.test(norm)) return "whole-repository";
  if (hasGlob(norm) && globToRegExp(norm) === null) return "bad-glob";
  return null;
}

/** A symlink among the entry's leading literal folders that leads out of the repository. */
function symlinkProblem(root: string, realRoot: string, norm: string): ExcludeReason | null {
  let cur = root;
  for (const part of norm.split("/")) {
    if (hasGlob(part)) break; // a pattern part names no single folder to follow
    cur = join(cur, part);
    let isLink = false;
    try {
      isLink = lstatSync(cur).isSymbolicLink();
    } catch {
      break; // does not exist (yet): nothing can lead elsewhere from here
    }
    if (isLink && !inside(realRoot, linkTarget(cur))) return "symlink-outside";
  }
  return null;
}

function rule(entry: string, index: number): ExcludeRule {
  const pattern = normalize(entry).normalize("NFC");
  const make = (flags: string) => {
    if (!hasGlob(pattern)) {
      const lit = flags ? pattern.toLowerCase() : pattern;
      return (p: string) => {
        const q = flags ? p.toLowerCase() : p;
        return q === lit || q.startsWith(lit + "/");
      };
    }
    const anyDepth = !pattern.includes("/");
    const re = new RegExp(`^${anyDepth ? "(?:.*/)?" : ""}${globToRegExp(pattern)!}(?:/.*)?$`, flags);
    return (p: string) => re.test(p);
  };
  const exact = make("");
  const folded = make("i");
  return { index, entry, pattern, test: (p) => exact(p.normalize("NFC")), testFolded: (p) => folded(p.normalize("NFC")) };
}

/**
 * Apply the rules to the changed paths. A path is excluded when a rule matches it; a rule that
 * matches nothing but matches a path when case is ignored excludes that path too (a user who
 * wrote Secrets.env meant secrets.env) and says so; a rule that matches nothing at all is
 * reported. `notes` are for the screen and the log.
 */
export function applyExcludes(paths: string[], rules: ExcludeRule[]): { excluded: Set<string>; notes: string[] } {
  const excluded = new Set<string>();
  const notes: string[] = [];
  for (const r of rules) {
    const hits = paths.filter((p) => r.test(p));
    if (hits.length) {
      hits.forEach((p) => excluded.add(p));
      continue;
    }
    const folded = paths.filter((p) => r.testFolded(p));
    if (folded.length) {
      folded.forEach((p) => excluded.add(p));
      notes.push(
        `exclude entry "${r.entry}" matched ${folded.slice(0, 3).join(", ")}${folded.length > 3 ? ", …" : ""} only when case is ignored; excluded anyway`,
      );
    } else notes.push(`exclude entry "${r.entry}" matches no changed file`);
  }
  return { excluded, notes };
}

function linkTarget(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(dirname(p), readlinkSync(p)); // dangling: judge by where it points
  }
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + sep);
}
