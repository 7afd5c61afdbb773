/**
 * Layer merging with provenance: maps merge recursively, lists and scalars replace.
 * Every leaf (scalar, list, empty map) remembers the layer and file that set it last.
 */
/** "env": a variable that stands in for a key no file sets (AGENTMUX_SIM_SCENARIO, config/sim-env.ts) */
export type Layer = "built-in" | "user" | "project" | "cli" | "env";
export type Origin = { layer: Layer; file: string };
export type Origins = Record<string, Origin>;
export type Tree = Record<string, unknown>;

export const isMap = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v);

export const joinPath = (base: string, key: string) => (base ? `${base}.${key}` : key);

/** Merge `over` into a deep copy of `base`, recording in `origins` every leaf that `over` sets. */
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
    out[key] = structuredClone(value);
    recordLeaves(value, path, origin, origins);
  }
  return out;
}

function recordLeaves(value: unknown, path: string, origin: Origin, origins: Origins): void {
  if (isMap(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) recordLeaves(v, joinPath(path, k), origin, origins);
    return;
  }
  origins[path] = origin;
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
    if (o) return o;
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
  for (let p = path; p; p = p.includes(".") ? p.slice(0, p.lastIndexOf(".")) : "") {
    if (origins[p]) return origins[p]!;
    const under = Object.entries(origins).filter(([k]) => k.startsWith(p + "."));
    if (under.length) return under.map(([, o]) => o).sort((a, b) => RANK[b.layer] - RANK[a.layer])[0]!;
  }
  return { layer: "built-in", file: "(built-in)" };
}
