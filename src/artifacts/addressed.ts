import { join } from "node:path";
import { fileBlobId } from "../effects/git/blob-id.ts";
import type { FileBaseline } from "../schema/file-baseline.ts";
import { readOptionalSessionFile } from "../session/file-io.ts";
import { baselineFile } from "../protocol/files.ts";
import { roundComments, type State } from "../schema/state.ts";
import type { Problem } from "./kinds.ts";

const readBaseline = (sessionDir: string, round: number): FileBaseline | null => readOptionalSessionFile(sessionDir, baselineFile(round)) ?? null;

/** The file's blob id now (null: it does not exist). */
export const blobNow = (workDir: string, file: string): string | null => fileBlobId(join(workDir, file));

/**
 * The fixer's `comments_addressed`, checked against the round: every id names one of its line
 * comments, and that comment's file changed since the fix round began (the baseline the
 * orchestrator took before the fixer started). Without a baseline only the ids are checked.
 */
export function checkAddressed(ids: readonly string[], o: { state: State; sessionDir: string; workDir: string }): Problem[] {
  const comments = roundComments(o.state);
  const byId = new Map(comments.map((c) => [c.id, c]));
  const baseline = readBaseline(o.sessionDir, o.state.review_iteration);
  const problems: Problem[] = [];
  const changed = new Map<string, boolean>();
  ids.forEach((id, i) => {
    const path = `comments_addressed[${i}]`;
    const c = byId.get(id);
    if (!c) {
      const known = comments.map((x) => x.id);
      return problems.push({
        path,
        message: `"${id}" is not a line comment of this fix round (${known.length ? `its comments: ${known.join(", ")}` : "it has none"})`,
      });
    }
    if (!baseline || !(c.file in baseline.files)) return;
    if (!changed.has(c.file)) changed.set(c.file, blobNow(o.workDir, c.file) !== baseline.files[c.file]);
    if (!changed.get(c.file)) {
      problems.push({
        path,
        message: `"${id}" is about ${c.file}, which has not changed since the review; change it as the comment asks, or leave "${id}" out of comments_addressed`,
      });
    }
  });
  return problems;
}
