import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/** Every entry under `root`: relative path → "dir", "link→target" or "<size>:<sha1>". */
export type Snapshot = Map<string, string>;

export function snapshot(root: string): Snapshot {
  const out: Snapshot = new Map();
  const walk = (rel: string) => {
    const abs = rel ? join(root, rel) : root;
    for (const name of readdirSync(abs).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, r));
      if (st.isSymbolicLink()) out.set(r, `link→${readlinkSync(join(root, r))}`);
      else if (st.isDirectory()) {
        out.set(r, "dir");
        walk(r);
      } else if (!st.isFile())
        out.set(r, "special"); // a FIFO: reading it would block
      else
        out.set(
          r,
          `${st.size}:${createHash("sha1")
            .update(readFileSync(join(root, r)))
            .digest("hex")}`,
        );
    }
  };
  walk("");
  return out;
}

/** Paths added, removed or changed between two snapshots, each as "+ p", "- p" or "~ p". */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [p, v] of before) {
    if (!after.has(p)) lines.push(`- ${p}`);
    else if (after.get(p) !== v) lines.push(`~ ${p}`);
  }
  for (const p of after.keys()) if (!before.has(p)) lines.push(`+ ${p}`);
  return lines.sort();
}
