import { KNOWN_KEYWORDS } from "./json-validate.ts";
/**
 * Is a newer JSON Schema of the run API compatible with an older one, for a consumer written
 * against the older? Fields and variants may be added, and enum values; none may be removed,
 * renamed, made optional, or retyped (a value of a type the old schema did not allow). Returns
 * the problems, each with its path; [] when compatible. Works on the schemas zod generates
 * (objects, records, arrays, anyOf/oneOf, type lists, enum/const), and refuses what it does not
 * know rather than passing it.
 */
type Node = Record<string, unknown>;
type Type = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array" | "any";
type Alt = { type: Type; node: Node; values?: unknown[]; tag?: unknown };

/** The alternatives of a schema, one per type (and per `kind` of an object variant): string enums of several branches are one set. */
function alternatives(node: Node, path: string): Alt[] {
  const merged = new Map<string, Alt>();
  for (const a of branches(node, path)) {
    const key = `${a.type}|${String(a.tag)}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, a);
    else if (a.type === "object" || a.type === "array") throw new Error(`${path}: the checker cannot pair two ${a.type} alternatives without a kind`);
    else merged.set(key, { ...seen, values: seen.values && a.values ? [...seen.values, ...a.values] : undefined });
  }
  return [...merged.values()];
}

function branches(node: Node, path: string): Alt[] {
  for (const k of Object.keys(node)) if (!KNOWN_KEYWORDS.has(k)) throw new Error(`${path}: the checker does not know the keyword ${k}`);
  const union = (node.anyOf ?? node.oneOf) as Node[] | undefined;
  if (union) return union.flatMap((n) => branches(n, path));
  const values = "const" in node ? [node.const] : (node.enum as unknown[] | undefined);
  const types = node.type === undefined ? (values ? [...new Set(values.map(jsonType))] : ["any" as const]) : ([] as Type[]).concat(node.type as Type);
  return types.map((type) => {
    const alt: Alt = { type, node };
    if (values) alt.values = values.filter((v) => jsonType(v) === type || (type === "number" && jsonType(v) === "integer"));
    const kind = (node.properties as Record<string, Node> | undefined)?.kind;
    if (type === "object" && kind && "const" in kind) alt.tag = kind.const;
    return alt;
  });
}

function jsonType(v: unknown): Type {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v as Type;
}

const show = (alts: Alt[]) => [...new Set(alts.map((a) => (a.tag !== undefined ? `${a.type}(kind ${String(a.tag)})` : a.type)))].join("|");
const fits = (newType: Type, oldType: Type) => oldType === "any" || newType === oldType || (newType === "integer" && oldType === "number");

/** The problems of `next` against `prev`, a schema each (or a part of one), at `path`. */
export function compatProblems(prev: Node, next: Node, path = "$"): string[] {
  const olds = alternatives(prev, path);
  const news = alternatives(next, path);
  const out: string[] = [];
  for (const o of olds.filter((a) => a.tag !== undefined)) {
    if (!news.some((n) => n.tag === o.tag)) out.push(`${path}: the variant kind "${String(o.tag)}" was removed`);
  }
  for (const n of news) {
    const tagged = n.tag !== undefined && olds.some((o) => o.tag !== undefined);
    const match = olds.find((o) => fits(n.type, o.type) && (!tagged || o.tag === n.tag));
    if (!match) {
      if (tagged) continue; // a new variant (event kind): added
      out.push(`${path}: retyped: it can now be ${show([n])}, was ${show(olds)}`);
      continue;
    }
    out.push(...pair(match, n, path));
  }
  return out;
}

function pair(o: Alt, n: Alt, path: string): string[] {
  const out: string[] = [];
  if (o.values) {
    if (!n.values) out.push(`${path}: any ${n.type} now, was one of ${JSON.stringify(o.values)}`);
    else for (const v of o.values) if (!n.values.some((x) => x === v)) out.push(`${path}: the value ${JSON.stringify(v)} was removed`);
  }
  if (o.type === "object") {
    const op = (o.node.properties ?? {}) as Record<string, Node>;
    const np = (n.node.properties ?? {}) as Record<string, Node>;
    const nreq = new Set((n.node.required ?? []) as string[]);
    for (const [k, sub] of Object.entries(op)) {
      if (!(k in np)) out.push(`${path}.${k}: removed (a field is never renamed or removed)`);
      else {
        if (((o.node.required ?? []) as string[]).includes(k) && !nreq.has(k)) out.push(`${path}.${k}: no longer always present`);
        out.push(...compatProblems(sub, np[k]!, `${path}.${k}`));
      }
    }
    const oa = o.node.additionalProperties;
    const na = n.node.additionalProperties;
    if (oa && typeof oa === "object") {
      if (!na || typeof na !== "object") out.push(`${path}.*: its entries lost their schema`);
      else out.push(...compatProblems(oa as Node, na as Node, `${path}.*`));
    }
  }
  if (o.type === "array" && o.node.items) {
    if (!n.node.items) out.push(`${path}[]: its items lost their schema`);
    else out.push(...compatProblems(o.node.items as Node, n.node.items as Node, `${path}[]`));
  }
  return out;
}
