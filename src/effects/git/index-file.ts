import { readFileSync } from "node:fs";

/** One stage-0 entry of `.git/index`: the stat cache git (or isomorphic-git) recorded. */
export type IndexEntry = {
  path: string;
  oid: string;
  mode: number;
  size: number;
  ino: number;
  mtimeSec: number;
  mtimeNsec: number;
};

/** `rootTree`: the cache-tree (TREE extension) root when valid — git writes it, isomorphic-git does not. */
export type IndexSnapshot = { entries: Map<string, IndexEntry>; mtimeSec: number; rootTree: string | null };

/**
 * Read the index file directly (versions 2, 3 and 4). isomorphic-git exposes no stat cache,
 * and walking it through `statusMatrix` costs seconds on large repositories.
 * A missing index is an empty one. Conflicted paths (stage > 0) get an empty oid so callers
 * always hash them.
 */
export function readIndexFile(path: string, indexMtimeSec: number): IndexSnapshot {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return { entries: new Map(), mtimeSec: 0, rootTree: null };
  }
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") throw new Error(`${path}: not a git index file`);
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`${path}: unsupported index version ${version}`);
  const count = buf.readUInt32BE(8);
  const entries = new Map<string, IndexEntry>();
  let off = 12;
  let prev = "";
  for (let i = 0; i < count; i++) {
    const start = off;
    const mtimeSec = buf.readUInt32BE(off + 8);
    const mtimeNsec = buf.readUInt32BE(off + 12);
    const ino = buf.readUInt32BE(off + 20);
    const mode = buf.readUInt32BE(off + 24);
    const size = buf.readUInt32BE(off + 36);
    const oid = buf.toString("hex", off + 40, off + 60);
    const flags = buf.readUInt16BE(off + 60);
    off += 62;
    if (version >= 3 && flags & 0x4000) off += 2;
    let name: string;
    if (version === 4) {
      let c = buf[off++];
      let strip = c & 127;
      while (c & 128) {
        c = buf[off++];
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const end = buf.indexOf(0, off);
      name = prev.slice(0, prev.length - strip) + buf.toString("utf8", off, end);
      off = end + 1;
    } else {
      const end = buf.indexOf(0, off);
      name = buf.toString("utf8", off, end);
      off = start + ((end - start + 8) & ~7);
    }
    prev = name;
    const stage = (flags >> 12) & 3;
    if (stage === 0) entries.set(name, { path: name, oid, mode, size, ino, mtimeSec, mtimeNsec });
    else entries.set(name, { path: name, oid: "", mode, size: -1, ino: 0, mtimeSec: 0, mtimeNsec: 0 });
  }
  return { entries, mtimeSec: indexMtimeSec, rootTree: cacheTreeRoot(buf, off) };
}

/** The root tree id of a valid TREE extension, else null. */
function cacheTreeRoot(buf: Buffer, off: number): string | null {
  const end = buf.length - 20; // trailing checksum
  while (off + 8 <= end) {
    const sig = buf.toString("latin1", off, off + 4);
    const size = buf.readUInt32BE(off + 4);
    const data = off + 8;
    if (sig === "TREE") {
      const nul = buf.indexOf(0, data);
      if (nul !== data) return null; // the root entry has an empty path
      const nl = buf.indexOf(10, nul);
      const [count] = buf.toString("latin1", nul + 1, nl).split(" ");
      return Number(count) >= 0 ? buf.toString("hex", nl + 1, nl + 21) : null;
    }
    off = data + size;
  }
  return null;
}
