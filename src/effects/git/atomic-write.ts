import { readdirSync, rmSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * Temp files are named `tmp_obj_amx<pid>-<n>`: git itself names its temp objects `tmp_obj_*`,
 * so `git fsck` passes over one a SIGKILL left behind, and the pid tells a later run whether
 * the writer is gone (then the file is removed).
 */
const TEMP_PREFIX = "tmp_obj_amx";
let counter = 0;

/**
 * Tests only: a function that may fail the write of `path` (it gets half the bytes first, as
 * a full disk would), so every write of a commit can be made to fail in turn.
 */
export const writeFault: { inject: ((path: string) => NodeJS.ErrnoException | null) | null } = { inject: null };

type WriteOptions = string | { encoding?: BufferEncoding | null; mode?: number } | undefined;

/**
 * Write `path` so that no reader and no crash ever sees it half written: the bytes go to a
 * temp file in `tempDir` (same file system) and the temp file is renamed over `path`. On any
 * failure (ENOSPC, EIO, …) the temp file is removed and the error rethrown with its code, so
 * callers such as isomorphic-git's mkdir-and-retry still work.
 *
 * `sync`: "now" fsyncs before the rename; "later" records the file for flushDeferred() —
 * objects, flushed together before the ref that points at them is written (git's own
 * core.fsyncMethod=batch idea: one parallel round instead of one fsync per object); "none"
 * for derived files such as the index.
 */
export async function writeFileDurable(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions,
  o: { tempDir?: string; mode?: number; sync?: "now" | "later" | "none" } = {},
): Promise<void> {
  const dir = o.tempDir ?? dirname(path);
  const tmp = join(dir, `${TEMP_PREFIX}${process.pid}-${counter++}`);
  const encoding = typeof options === "string" ? (options as BufferEncoding) : (options?.encoding ?? "utf8");
  const mode = o.mode ?? (typeof options === "object" && options?.mode !== undefined ? options.mode : 0o644);
  const bytes = typeof data === "string" ? Buffer.from(data, encoding) : data;
  // ENOENT here means the folder does not exist yet: the caller creates it and retries
  let fh: Awaited<ReturnType<typeof open>> | undefined = await open(tmp, "wx", mode);
  try {
    const fault = writeFault.inject?.(path);
    if (fault) {
      await fh.writeFile(bytes.subarray(0, bytes.length >> 1));
      throw fault;
    }
    await fh.writeFile(bytes);
    if ((o.sync ?? "now") === "now") await fh.sync();
    await fh.close();
    fh = undefined;
    await rename(tmp, path);
    if (o.sync === "later") deferred.add(path);
  } catch (e) {
    await fh?.close().catch(() => {});
    await rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
}

const deferred = new Set<string>();

/**
 * fsync every file written with sync "later" and the folders they were renamed into, all in
 * parallel. After this they survive a power loss; call it before writing a ref to them.
 */
export async function flushDeferred(): Promise<void> {
  const files = [...deferred];
  deferred.clear();
  const folders = [...new Set(files.map((f) => dirname(f)))];
  await Promise.all([...files, ...folders].map(fsyncPath));
}

async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

const swept = new Set<string>();

/**
 * Remove temp files in `dir` left by writers that died (SIGKILL during a commit). Done once
 * per folder per process, before the first write into it.
 */
export function sweepDeadTemps(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const pid = Number(/^tmp_obj_amx(\d+)-/.exec(name)?.[1]);
    if (pid > 0 && pid !== process.pid && !processAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
