import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { gitFs } from "../effects/git/fs.ts";

export type ChangeKind = "created" | "modified" | "deleted" | "unchanged";

/** The content of `file` at HEAD in the repository at `dir`, or null if it is not there (or no HEAD). */
export async function headContent(dir: string, file: string): Promise<Uint8Array | null> {
  const fs = gitFs(dir);
  try {
    const oid = await git.resolveRef({ fs, dir, ref: "HEAD" });
    const { blob } = await git.readBlob({ fs, dir, oid, filepath: file });
    return blob;
  } catch {
    return null;
  }
}

/** How the working copy of `file` differs from HEAD: the truth a completion artifact must tell. */
export async function changeKind(dir: string, file: string): Promise<ChangeKind> {
  const head = await headContent(dir, file);
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
