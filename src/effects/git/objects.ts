import * as git from "isomorphic-git";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { inflateSync } from "node:zlib";

/** `<…>/objects/ab/cdef…` (38 hex digits): a loose object's path; group 1+2 is its id. */
const LOOSE = /\/objects\/([0-9a-f]{2})\/([0-9a-f]{38})$/;

/** The object id a loose-object path stores, or null when the path is not one. */
export function looseObjectId(path: string): string | null {
  const m = LOOSE.exec(path);
  return m ? m[1]! + m[2]! : null;
}

/** Loose objects read back intact in this process (objects never change once written). */
const intact = new Set<string>();

/**
 * True when the loose object file at `path` inflates completely and its content hashes to
 * `oid`. A file cut short by a crash or a full disk (empty, truncated, garbage) is false.
 */
export async function looseObjectIntact(path: string, oid: string): Promise<boolean> {
  if (intact.has(path)) return true;
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch {
    return false;
  }
  const ok = wrappedHashes(raw, oid);
  if (ok) intact.add(path);
  return ok;
}

function wrappedHashes(deflated: Buffer, oid: string): boolean {
  let wrapped: Buffer;
  try {
    wrapped = inflateSync(deflated);
  } catch {
    return false;
  }
  const nul = wrapped.indexOf(0);
  if (nul < 0) return false;
  const m = /^(blob|tree|commit|tag) (\d+)$/.exec(wrapped.toString("latin1", 0, nul));
  if (!m || Number(m[2]) !== wrapped.length - nul - 1) return false;
  return createHash("sha1").update(wrapped).digest("hex") === oid;
}

/** Forget what was verified (tests that corrupt objects on purpose). */
export function forgetVerifiedObjects(): void {
  intact.clear();
}

/**
 * Read an object back and check it is what its id says: a loose object must inflate and hash
 * to its id; a packed one must be readable through the pack. Throws ObjectUnreadable.
 */
export async function readBackObject(fs: any, dir: string, gitdir: string, oid: string, cache: object = {}): Promise<{ type: string; object: Uint8Array }> {
  const loose = `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  let raw: Buffer | null = null;
  try {
    raw = await readFile(loose);
  } catch {
    // not loose: it must be in a pack
  }
  if (raw) {
    if (!wrappedHashes(raw, oid)) throw new Error(`the object ${oid} (${loose}) does not read back intact`);
    const wrapped = inflateSync(raw);
    const nul = wrapped.indexOf(0);
    return { type: wrapped.toString("latin1", 0, wrapped.indexOf(32)), object: wrapped.subarray(nul + 1) };
  }
  const r = await git.readObject({ fs, dir, oid, format: "content", cache });
  return { type: r.type, object: r.object as Uint8Array };
}
