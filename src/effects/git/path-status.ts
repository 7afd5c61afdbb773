import git from "isomorphic-git";
import { gitFs } from "./fs.ts";

/** Whether the repository at `workDir` has a commit at HEAD (false too when HEAD cannot be read). */
export async function hasHeadCommit(workDir: string): Promise<boolean> {
  try {
    await git.resolveRef({ fs: gitFs(workDir), dir: workDir, ref: "HEAD" });
    return true;
  } catch {
    return false;
  }
}

/**
 * How one path of the working tree stands against HEAD and the index, in isomorphic-git's
 * words (`unmodified`, `*modified`, `*added`, `added`, `ignored`, `absent`, …).
 */
export async function pathStatus(workDir: string, filepath: string): Promise<string> {
  return git.status({ fs: gitFs(workDir), dir: workDir, filepath });
}

/** The content of `file` in HEAD's tree, or null when it is not there (or there is no HEAD). */
export async function headFileContent(dir: string, file: string): Promise<Uint8Array | null> {
  const fs = gitFs(dir);
  try {
    const oid = await git.resolveRef({ fs, dir, ref: "HEAD" });
    const { blob } = await git.readBlob({ fs, dir, oid, filepath: file });
    return blob;
  } catch {
    return null;
  }
}

/** The branch `refs/remotes/origin/HEAD` points at (as a clone records it), or null. */
export async function originHeadBranch(dir: string): Promise<string | null> {
  try {
    const target = await git.resolveRef({ fs: gitFs(dir), dir, ref: "refs/remotes/origin/HEAD", depth: 1 });
    return /^refs\/remotes\/origin\/(.+)$/.exec(target)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The branch checked out at `dir` (no search upwards), or null when detached or unreadable. */
export async function checkedOutBranch(dir: string): Promise<string | null> {
  try {
    return (await git.currentBranch({ fs: gitFs(dir), dir, fullname: false })) ?? null;
  } catch {
    return null;
  }
}
