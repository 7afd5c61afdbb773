import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { headFileContent } from "../effects/git/path-status.ts";

export type ChangeKind = "created" | "modified" | "deleted" | "unchanged";

/** How the working copy of `file` differs from HEAD: the truth a completion artifact must tell. */
export async function changeKind(dir: string, file: string): Promise<ChangeKind> {
  const head = await headFileContent(dir, file);
  const abs = join(dir, file);
  const exists = existsSync(abs);
  if (!head) return exists ? "created" : "unchanged";
  if (!exists) return "deleted";
  return Buffer.from(head).equals(readFileSync(abs)) ? "unchanged" : "modified";
}

export async function classify(dir: string, files: string[]): Promise<{ created: string[]; modified: string[]; deleted: string[] }> {
  const out = { created: [] as string[], modified: [] as string[], deleted: [] as string[] };
  for (const f of files) {
    const k = await changeKind(dir, f);
    if (k !== "unchanged") out[k].push(f);
  }
  return out;
}
