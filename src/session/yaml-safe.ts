import type { Document, Node } from "yaml";
import { yamlLib } from "./yaml-lib.ts";
import type { Problem } from "./problems.ts";

/** Past this many values, aliases that multiply a document are an alias bomb ("billion laughs"). */
const MAX_EXPANDED = 100_000;

export type YamlResult = { ok: true; data: unknown } | { ok: false; problems: Problem[] };

/**
 * Parse YAML 1.2 (duplicate keys are errors) into plain data, refusing alias bombs and
 * self-referring aliases by the key that holds them, before anything is expanded in memory.
 */
export function parseYamlSafe(text: string): YamlResult {
  const doc = yamlLib().parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        const where = pos ? `line ${pos.line}, column ${pos.col}: ` : "";
        return { path: "", message: `YAML syntax error at ${where}${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?\s*$/, "")}` };
      }),
    };
  }
  const bomb = aliasProblem(doc);
  if (bomb) return { ok: false, problems: [bomb] };
  return { ok: true, data: doc.toJS({ maxAliasCount: -1 }) };
}

/** The first key whose value expands past the limit through aliases, or an alias inside its own anchor. */
export function aliasProblem(doc: Document): Problem | undefined {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let literal = 0;
  let cycle: string | undefined;
  let aliases = 0;
  const size = (node: unknown, path: string): number => {
    if (isAlias(node)) {
      aliases++;
      const target = node.resolve(doc);
      if (!target) return 1;
      if (open.has(target)) {
        cycle ??= path;
        return 1;
      }
      return size(target, path);
    }
    if (!isMap(node) && !isSeq(node)) {
      if (isScalar(node)) literal++;
      return 1;
    }
    const known = sizes.get(node);
    if (known !== undefined) return known;
    open.add(node);
    let total = 1;
    node.items.forEach((item, i) => {
      if (isPair(item)) {
        const key = isScalar(item.key) ? String(item.key.value) : "?";
        total += size(item.key, path) + size(item.value, path ? `${path}.${key}` : key);
      } else total += size(item, `${path}[${i}]`);
    });
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  const total = size(doc.contents, "");
  if (cycle !== undefined) return { path: cycle, message: "a YAML alias refers to the value that contains it (a loop)" };
  if (aliases === 0 || total <= MAX_EXPANDED || total <= literal * 10) return undefined;
  return { path: biggest(doc.contents, sizes, doc), message: `expands to more than ${MAX_EXPANDED} values through YAML aliases (an alias bomb); write the values out instead` };
}

/** The deepest key whose value alone is past the limit (where the bomb goes off). */
function biggest(node: unknown, sizes: Map<Node, number>, doc: Document, path = ""): string {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  const resolved = isAlias(node) ? node.resolve(doc) : node;
  if (!isMap(resolved) && !isSeq(resolved)) return path;
  for (const [i, item] of resolved.items.entries()) {
    const value = isPair(item) ? item.value : item;
    const target = isAlias(value) ? value.resolve(doc) : value;
    const s = target && (isMap(target) || isSeq(target)) ? (sizes.get(target) ?? 0) : 0;
    if (s > MAX_EXPANDED) {
      const key = isPair(item) ? (isScalar(item.key) ? String(item.key.value) : "?") : `[${i}]`;
      return biggest(target, sizes, doc, path ? (key.startsWith("[") ? `${path}${key}` : `${path}.${key}`) : key);
    }
  }
  return path;
}
