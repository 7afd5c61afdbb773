import type { Alias, Document, Node } from "yaml";
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
  const doc = parseYamlDocument(text);
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
  const reserved = reservedKeyPath(doc.contents);
  if (reserved !== undefined) return { ok: false, problems: [{ path: reserved, message: RESERVED_KEY_MESSAGE }] };
  return { ok: true, data: doc.toJS({ maxAliasCount: -1 }) };
}

/**
 * `parseDocument` with duplicate keys as errors ("Map keys must be unique", with line and
 * column), in linear time: the yaml library's own `uniqueKeys` check compares each key with
 * every earlier key of its map, so a 5,000-provider config took 6 s and 250,000 hours.
 */
export function parseYamlDocument(text: string): Document.Parsed {
  const { parseDocument, LineCounter, YAMLParseError } = yamlLib();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false, lineCounter });
  if (doc.errors.length > 0) return doc;
  const at = duplicateKeyOffset(doc.contents);
  if (at !== undefined) {
    const error = new YAMLParseError([at, at + 1], "DUPLICATE_KEY", "Map keys must be unique");
    error.linePos = [lineCounter.linePos(at)];
    doc.errors.push(error);
  }
  return doc;
}

/** Where the first scalar key that repeats an earlier key of the same map starts (aliases not followed). */
function duplicateKeyOffset(node: unknown): number | undefined {
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  if (isPair(node)) return duplicateKeyOffset(node.key) ?? duplicateKeyOffset(node.value);
  if (!isMap(node) && !isSeq(node)) return undefined;
  const seen = isMap(node) ? new Set<unknown>() : undefined;
  for (const item of node.items) {
    if (seen && isPair(item) && isScalar(item.key)) {
      if (seen.has(item.key.value)) return item.key.range?.[0] ?? 0;
      seen.add(item.key.value);
    }
    const inner = duplicateKeyOffset(item);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The message for a `__proto__` key: JavaScript objects cannot hold it as data. */
export const RESERVED_KEY_MESSAGE = '"__proto__" cannot be a key or a name (JavaScript reserves it); rename it';

/**
 * The path of the first `__proto__` key (e.g. `providers.__proto__`): read into a JavaScript
 * object it would set the object's prototype instead of adding an entry, so the value would
 * silently vanish (or worse). Aliases are not followed (their targets are walked where they are).
 */
export function reservedKeyPath(node: unknown, path = ""): string | undefined {
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  if (!isMap(node) && !isSeq(node)) return undefined;
  for (const [i, item] of node.items.entries()) {
    if (isPair(item)) {
      const key = isScalar(item.key) ? String(item.key.value) : "?";
      const at = path ? `${path}.${key}` : key;
      if (key === "__proto__") return at;
      const inner = reservedKeyPath(item.value, at);
      if (inner !== undefined) return inner;
    } else {
      const inner = reservedKeyPath(item, `${path}[${i}]`);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/**
 * Every alias's target, in one pass: the last node with its anchor before it in document order
 * (what `Alias.resolve` finds, but `resolve` walks the whole document for each alias).
 */
function aliasTargets(doc: Document): Map<Alias, Node | undefined> {
  const { visit, isAlias } = yamlLib();
  const anchored = new Map<string, Node>();
  const targets = new Map<Alias, Node | undefined>();
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) targets.set(node, anchored.get(node.source));
      else if (node.anchor) anchored.set(node.anchor, node);
    },
  });
  return targets;
}

/** The first key whose value expands past the limit through aliases, or an alias inside its own anchor. */
export function aliasProblem(doc: Document): Problem | undefined {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  const targets = aliasTargets(doc);
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let literal = 0;
  let cycle: string | undefined;
  let aliases = 0;
  const size = (node: unknown, path: string): number => {
    if (isAlias(node)) {
      aliases++;
      const target = targets.get(node);
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
  return {
    path: biggest(doc.contents, sizes, targets),
    message: `expands to more than ${MAX_EXPANDED} values through YAML aliases (an alias bomb); write the values out instead`,
  };
}

/** The deepest key whose value alone is past the limit (where the bomb goes off). */
function biggest(node: unknown, sizes: Map<Node, number>, targets: Map<Alias, Node | undefined>, path = ""): string {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yamlLib();
  const resolved = isAlias(node) ? targets.get(node) : node;
  if (!isMap(resolved) && !isSeq(resolved)) return path;
  for (const [i, item] of resolved.items.entries()) {
    const value = isPair(item) ? item.value : item;
    const target = isAlias(value) ? targets.get(value) : value;
    const s = target && (isMap(target) || isSeq(target)) ? (sizes.get(target) ?? 0) : 0;
    if (s > MAX_EXPANDED) {
      const key = isPair(item) ? (isScalar(item.key) ? String(item.key.value) : "?") : `[${i}]`;
      return biggest(target, sizes, targets, path ? (key.startsWith("[") ? `${path}${key}` : `${path}.${key}`) : key);
    }
  }
  return path;
}
