/**
 * Layer merging with provenance: maps merge recursively, lists and scalars replace.
 * Every value a layer sets remembers the layer and file that set it last — a leaf, or a whole map
 * no lower layer had (its leaves are its: the nearest recorded ancestor names a leaf's layer).
 */
/** "env": a variable that stands in for a key no file sets (AGENTMUX_SIM_SCENARIO, config/sim-env.ts) */
export type Layer = "built-in" | "user" | "project" | "cli" | "env";
export type Origin = { layer: Layer; file: string };
/** what `origins` holds: a whole map a layer set keeps that map, to tell its leaves from values only zod's defaults filled in */
type Recorded = Origin & { tree?: Tree };
export type Origins = Record<string, Recorded>;
export type Tree = Record<string, unknown>;

export const isMap = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v);

export const joinPath = (base: string, key: string) => (base ? `${base}.${key}` : key);

/**
 * Merge `over` onto `base` into a new tree, recording in `origins` every leaf that `over` sets.
 * Neither input is changed (every merged map is a new object); the values `over` sets are shared,
 * not copied: nothing writes into a merged tree (it is validated into new objects), and copying
 * each of a 250,000-provider file's values cost seconds (#31).
 */
export function mergeLayer(base: Tree, over: Tree, origin: Origin, origins: Origins, prefix = ""): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const path = joinPath(prefix, key);
    const current = out[key];
    if (isMap(value) && isMap(current) && Object.keys(value).length > 0) {
      out[key] = mergeLayer(current, value, origin, origins, path);
      continue;
    }
    // A replaced value loses the provenance of everything under it.
    if (current !== undefined) dropLeaves(origins, current, path);
    out[key] = value;
    // the whole value is this layer's: its path stands for every leaf under it (originOf looks up
    // the nearest recorded ancestor), so a file of 250,000 providers records 250,000 paths, not every leaf (#31)
    origins[path] = isMap(value) && Object.keys(value).length > 0 ? { ...origin, tree: value } : origin;
  }
  return out;
}

/** Whether `rest` (a dotted path; keys may hold dots) names a value inside `tree`. */
function holds(tree: unknown, rest: string): boolean {
  if (!isMap(tree)) return false;
  if (Object.hasOwn(tree, rest)) return true;
  for (const k of Object.keys(tree)) if (rest.startsWith(k + ".") && holds(tree[k], rest.slice(k.length + 1))) return true;
  return false;
}

/**
 * Forget the origins recorded for `value` at `path` (its leaves are the only paths recorded
 * under it). Walking the value, not every recorded origin, keeps a merge linear: a layer with
 * 250,000 providers was quadratic here.
 */
function dropLeaves(origins: Origins, value: unknown, path: string): void {
  delete origins[path];
  if (isMap(value)) for (const [k, v] of Object.entries(value)) dropLeaves(origins, v, joinPath(path, k));
}

/** Every leaf path of a parsed value: scalars, lists and empty maps. */
export function leafPaths(value: unknown, prefix = ""): string[] {
  if (isMap(value) && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, joinPath(prefix, k)));
  }
  return prefix ? [prefix] : [];
}

/**
 * The origin of a leaf of the final config: the recorded origin of the leaf itself or of the
 * nearest ancestor a layer set as a whole; values only zod's defaults filled in are built-in.
 */
export function originOf(origins: Origins, path: string): Origin {
  for (let p = path; p; p = p.includes(".") ? p.slice(0, p.lastIndexOf(".")) : "") {
    const o = origins[p];
    if (!o) continue;
    // an ancestor set whole: the leaf is that layer's only when its map has it
    if (p === path || !o.tree || holds(o.tree, path.slice(p.length + 1))) return { layer: o.layer, file: o.file };
    break;
  }
  return { layer: "built-in", file: "(schema default)" };
}

const RANK: Record<Layer, number> = { "built-in": 0, user: 1, project: 2, cli: 3, env: 4 };

/**
 * Which layer to blame for a problem at `path` in the merged config: the leaf's own origin,
 * else the highest layer that set anything under the nearest ancestor (a provider a file
 * declared without a required key is blamed on that file).
 */
export function blame(origins: Origins, path: string): Origin {
  const own = origins[path];
  if (own) return { layer: own.layer, file: own.file };
  for (let p = path; p; p = p.includes(".") ? p.slice(0, p.lastIndexOf(".")) : "") {
    // an ancestor a lower layer set whole, and what higher layers set under it: the highest
    const set = Object.entries(origins)
      .filter(([k]) => k === p || k.startsWith(p + "."))
      .map(([, o]) => ({ layer: o.layer, file: o.file }));
    if (set.length) return set.sort((a, b) => RANK[b.layer] - RANK[a.layer])[0]!;
  }
  return { layer: "built-in", file: "(built-in)" };
}
