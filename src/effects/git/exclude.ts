import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, posix, resolve, sep } from "node:path";
import { ExcludeEscapesRepo } from "./errors.ts";

/**
 * Validate the user's `exclude_files` entries: each must be a relative path inside the
 * repository. `..` escapes, absolute paths and symlinks that lead out of the repository are
 * refused with an error naming the entry. Returns normalised posix paths.
 */
export function normalizeExcludes(root: string, entries: string[]): string[] {
  const realRoot = realpathSync(root);
  return entries.map((entry, i) => {
    const refuse = (reason: ConstructorParameters<typeof ExcludeEscapesRepo>[0]["reason"]) => new ExcludeEscapesRepo({ entry, index: i, reason });
    const raw = entry.trim().replace(/\\/g, "/");
    if (!raw) throw refuse("empty");
    if (isAbsolute(raw) || /^[A-Za-z]:\//.test(raw)) throw refuse("absolute");
    const norm = posix.normalize(raw).replace(/^(\.\/)+/, "").replace(/\/+$/, "");
    if (norm === ".." || norm.startsWith("../")) throw refuse("outside");
    if (norm === "." || norm === "") throw refuse("whole-repository");
    let cur = root;
    for (const part of norm.split("/")) {
      cur = join(cur, part);
      let isLink = false;
      try {
        isLink = lstatSync(cur).isSymbolicLink();
      } catch {
        break; // does not exist (yet): nothing can lead elsewhere from here
      }
      if (isLink && !inside(realRoot, linkTarget(cur))) throw refuse("symlink-outside");
    }
    return norm;
  });
}

function linkTarget(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(dirname(p), readlinkSync(p)); // dangling: judge by where it points
  }
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + sep);
}

/** True when `path` is an excluded file or lies under an excluded directory. */
export function isExcluded(path: string, excludes: string[]): boolean {
  return excludes.some((e) => path === e || path.startsWith(e + "/"));
}
