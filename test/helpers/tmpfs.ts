import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir } from "./tmp.ts";

export type Tmpfs = { dir: string; dispose: () => void };

/**
 * A small tmpfs of `bytes` (a disk that fills up for real), or null when this machine does
 * not let us mount one (not root, no CAP_SYS_ADMIN). Callers fall back to injected errors.
 */
export function mountTmpfs(bytes: number): Tmpfs | null {
  const base = makeTmpDir("amx-tmpfs-");
  const dir = join(base, "mnt");
  mkdirSync(dir);
  const r = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${bytes},mode=0755`, "tmpfs", dir], { stdout: "ignore", stderr: "ignore" });
  if (r.exitCode !== 0) {
    rmSync(base, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    dispose: () => {
      Bun.spawnSync(["umount", "-l", dir], { stdout: "ignore", stderr: "ignore" });
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** True when a tmpfs can be mounted here (probed once, then unmounted). */
export function canMountTmpfs(): boolean {
  const t = mountTmpfs(64 * 1024);
  t?.dispose();
  return t !== null;
}

/** Fill the file system holding `dir` with a filler file until `leaveBytes` remain free. */
export function fillUntil(dir: string, leaveBytes: number): string {
  const filler = join(dir, ".filler");
  const st = require("node:fs").statfsSync(dir) as { bavail: number; bsize: number };
  const free = st.bavail * st.bsize;
  const size = Math.max(0, free - leaveBytes);
  require("node:fs").writeFileSync(filler, Buffer.alloc(size, 1));
  return filler;
}
