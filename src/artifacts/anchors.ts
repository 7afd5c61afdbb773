import { readFileSync } from "node:fs";
import { join } from "node:path";
import { changedFiles, type FileChange } from "../effects/git/changes.ts";
import { findRepoRoot } from "../effects/git/repo.ts";
import { runOwnChanges } from "../effects/git/preexisting.ts";
import { readPreexisting } from "../session/read.ts";
import { anchorLines, projectPath, type LineComment } from "../schema/artifacts/review.ts";
import type { Problem } from "./kinds.ts";

/** The files a run changed (pre-existing uncommitted files it left alone are not its own), by path. */
export type RunDiff = { root: string; files: Map<string, FileChange["status"]> };

/** The run's diff in `workDir`: working tree against HEAD, minus what was uncommitted before the run (its session says). */
export async function runDiff(workDir: string, sessionDir?: string): Promise<RunDiff> {
  const root = await findRepoRoot(workDir);
  const changes = await changedFiles(root);
  const own = sessionDir ? runOwnChanges(root, changes, readPreexisting(sessionDir)).own : changes;
  return { root, files: new Map(own.map((c) => [c.path, c.status])) };
}

/** The number of lines of a text file (a last line without a newline counts); null for binary content. */
export function lineCount(abs: string): number | null {
  const data = readFileSync(abs);
  if (data.subarray(0, 8000).includes(0)) return null;
  if (data.length === 0) return 0;
  let n = 0;
  for (const b of data) if (b === 10) n++;
  return data[data.length - 1] === 10 ? n : n + 1;
}

const listed = (files: Iterable<string>) => {
  const all = [...files].sort();
  return all.length ? `${all.slice(0, 8).join(", ")}${all.length > 8 ? ` and ${all.length - 8} more` : ""}` : "none";
};

/**
 * Line comments must point into the run's diff: the file is one the run changed and still
 * exists, and the lines are within the file as it is now. One problem per bad comment, by field.
 */
export function anchorProblems(comments: readonly LineComment[], diff: RunDiff): Problem[] {
  const problems: Problem[] = [];
  const counts = new Map<string, number | null>();
  comments.forEach((c, i) => {
    const at = `comments[${i}]`;
    const file = projectPath(c.file);
    if (file === null) return problems.push({ path: `${at}.file`, message: `"${c.file}" must be a path relative to the project, as git diff shows it` });
    const status = diff.files.get(file);
    if (status === undefined)
      return problems.push({
        path: `${at}.file`,
        message: `"${c.file}" is not a file this run changed (changed: ${listed(diff.files.keys())}); put remarks about other files in findings`,
      });
    if (status === "deleted")
      return problems.push({ path: `${at}.file`, message: `"${c.file}" was deleted by this run, so it has no lines to comment on; use a finding` });
    if (!counts.has(file)) {
      try {
        counts.set(file, lineCount(join(diff.root, file)));
      } catch (e) {
        return problems.push({ path: `${at}.file`, message: `"${c.file}" cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
      }
    }
    const count = counts.get(file)!;
    if (count === null) return problems.push({ path: `${at}.file`, message: `"${c.file}" is a binary file; use a finding` });
    const { start, end } = anchorLines(c);
    const field = c.line !== undefined ? "line" : end > count ? "end_line" : "start_line";
    if (end > count)
      problems.push({ path: `${at}.${field}`, message: `line ${end} is past the end of ${file} (${count} line${count === 1 ? "" : "s"} as it is now)` });
    else if (start > count) problems.push({ path: `${at}.${field}`, message: `line ${start} is past the end of ${file} (${count} lines as it is now)` });
  });
  return problems;
}
