import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";

/** The git blob id of some content. (No isomorphic-git here: the orchestrator loads this file.) */
export function blobOid(content: Uint8Array): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

/** The blob id of a working-tree file as git would store it (a symlink stores its target); null when it is missing or not a file. */
export function fileBlobId(abs: string): string | null {
  try {
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) return blobOid(Buffer.from(readlinkSync(abs)));
    return st.isFile() ? blobOid(readFileSync(abs)) : null;
  } catch {
    return null;
  }
}
