import * as git from "isomorphic-git";
import { readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { gitFs } from "./fs.ts";
import { lstatFile } from "./head-tree.ts";
import { findRepoRoot } from "./repo.ts";
import { lineDiff } from "./line-diff.ts";

/**
 * Unified diff of one path: the HEAD blob (or nothing) against the working file (or nothing).
 * Binary content on either side gives the single line "Binary file changed".
 */
export async function fileDiff(dir: string, path: string): Promise<string> {
  const root = await findRepoRoot(dir);
  const fs = gitFs(root);
  let before: Uint8Array | null = null;
  try {
    const oid = await git.resolveRef({ fs, dir: root, ref: "HEAD" });
    before = (await git.readBlob({ fs, dir: root, oid, filepath: path })).blob;
  } catch (e) {
    if ((e as { code?: string }).code !== "NotFoundError") throw e;
  }
  const abs = join(root, path);
  const st = lstatFile(abs);
  const after: Uint8Array | null = !st ? null : st.isSymbolicLink() ? Buffer.from(readlinkSync(abs)) : readFileSync(abs);
  return unifiedDiff(path, before, after);
}

/** The unified diff of one path from `before` to `after` (null: the file is not there on that side). */
export function unifiedDiff(path: string, before: Uint8Array | null, after: Uint8Array | null): string {
  if (before === null && after === null) return "";
  if (isBinary(before) || isBinary(after)) return "Binary file changed";
  const a = before === null ? [] : splitLines(Buffer.from(before).toString("utf8"));
  const b = after === null ? [] : splitLines(Buffer.from(after).toString("utf8"));
  const header = [`--- ${before === null ? "/dev/null" : "a/" + path}`, `+++ ${after === null ? "/dev/null" : "b/" + path}`];
  const hunks = lineDiff(a, b);
  return hunks.length ? [...header, ...hunks].join("\n") + "\n" : "";
}

function isBinary(data: Uint8Array | null): boolean {
  if (!data) return false;
  const n = Math.min(data.length, 8000);
  for (let i = 0; i < n; i++) if (data[i] === 0) return true;
  return false;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  else lines[lines.length - 1] += "\n\\ No newline at end of file";
  return lines;
}
